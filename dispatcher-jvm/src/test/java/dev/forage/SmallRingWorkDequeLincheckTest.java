package dev.forage;

/**
 * The deque's model checking again on a ring of 4 slots that a push clears once two consumed slots wait: the
 * targeted scenarios then wrap the ring, grow it (the 64-push scenario grows it four times) and clear stolen
 * slots while thieves read them, which the default 64-slot ring with its 32-slot batch never reaches within a
 * scenario. (A batch of one could not show the bug below: the push then clears before the backlog and the live
 * jobs together outgrow the ring.) A first version of the push-side clearing nulled live jobs' slots after a wrap; this test and
 * {@code WorkDequeTest.randomRunsAgreeWithASequentialModel} both fail on it.
 */
public class SmallRingWorkDequeLincheckTest extends WorkDequeLincheckTest {
    @Override
    protected WorkDeque newDeque() {
        return new WorkDeque(4, 2, WorkDeque.DEFAULT_CAPACITY);
    }
}
