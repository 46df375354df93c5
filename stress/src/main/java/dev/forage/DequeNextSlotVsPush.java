package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A push moves the next slot's job A into the ring before pushing B, while a thief steals. A is in neither place
 * for a moment; the slot holds a marker meanwhile, which the thief reads as "retry", never as "empty". Without the
 * marker a thief could report an empty deque that held a job (and a sleeper's final check could do the same:
 * docs/sleep.md, the next slot). The thief, which takes the oldest, never gets B while A is there; the owner's pop
 * after its push gets B, its newest.
 *
 * <p>Result: r1 what the owner's pop returned, r2 what the steal returned (0 nothing, 1 A, 2 B, 3 RETRY), r3 jobs
 * the arbiter still found.
 */
@JCStressTest
@Description("WorkDeque push moving the next slot's job into the ring vs a steal: never empty, never B first.")
@Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE, desc = "The thief took A (from the slot or the ring).")
@Outcome(id = "2, 3, 1", expect = Expect.ACCEPTABLE, desc = "The thief met the move and retries; A is left.")
@Outcome(id = "2, 0, 1", expect = Expect.FORBIDDEN, desc = "The thief saw an empty deque while A was moving.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A job taken twice, lost, or taken out of order.")
@State
public class DequeNextSlotVsPush {
    private final WorkDeque deque = new WorkDeque();

    public DequeNextSlotVsPush() {
        deque.pushNext(Jobs.A);
    }

    @Actor
    public void owner(III_Result r) {
        deque.push(Jobs.B);
        r.r1 = Jobs.code(deque.pop());
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = Jobs.code(deque.steal());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Jobs.drain(deque);
    }
}
