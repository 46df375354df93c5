package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The next slot's job (Tokio's LIFO slot, Go's {@code runnext}) raced by the owner's {@code pop} and two thieves'
 * {@code steal}: every taker empties the slot with a CAS from the job to null, and a job is put there once, so
 * exactly one of them gets it. A pop or steal that read the slot and then wrote null without the CAS would let two
 * of them run the job.
 *
 * <p>Result: r1 what pop returned, r2 and r3 what the steals returned (0 nothing, 1 the job, 3 RETRY), r4 jobs the
 * arbiter still found in the deque.
 */
@JCStressTest
@Description("WorkDeque next slot: pop vs two steals of its job: exactly one wins.")
@Outcome(id = {"1, 0, 0, 0", "1, 3, 0, 0", "1, 0, 3, 0", "1, 3, 3, 0"}, expect = Expect.ACCEPTABLE,
        desc = "The owner took it; each thief saw the slot empty or lost the CAS.")
@Outcome(id = {"0, 1, 0, 0", "0, 1, 3, 0"}, expect = Expect.ACCEPTABLE, desc = "The first thief took it.")
@Outcome(id = {"0, 0, 1, 0", "0, 3, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "The second thief took it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Taken twice, or lost, or still there.")
@State
public class DequeNextSlotRace {
    private final WorkDeque deque = new WorkDeque();

    public DequeNextSlotRace() {
        // The owner role passes to the pop actor: jcstress publishes the state to it safely.
        deque.pushNext(Jobs.A);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = Jobs.code(deque.pop());
    }

    @Actor
    public void thief1(IIII_Result r) {
        r.r2 = Jobs.code(deque.steal());
    }

    @Actor
    public void thief2(IIII_Result r) {
        r.r3 = Jobs.code(deque.steal());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = Jobs.drain(deque);
    }
}
