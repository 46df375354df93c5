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
 * Pop against steal with two jobs, A (older) then B: the owner's {@code pop} takes the bottom without a CAS
 * (it is not the last job), the thief's {@code steal} takes the top with its CAS. They never contend for the
 * same slot, so there is exactly one outcome: the owner gets B, the thief gets A, and the deque is empty. This
 * pins the fast path of {@code pop}: a wrong "is this the last job?" test would make both take the same job or
 * make one of them give up on a job that was there.
 *
 * <p>Result: r1 pop, r2 steal (0 nothing, 1 A, 2 B, 3 RETRY), r3 jobs left for the arbiter.
 */
@JCStressTest
@Description("WorkDeque pop vs steal with two jobs: each gets a distinct one.")
@Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE, desc = "Owner took the newest (B), the thief the oldest (A).")
@Outcome(expect = Expect.FORBIDDEN, desc = "A job taken twice, lost, or left behind, or a needless RETRY.")
@State
public class DequeTwoItemsRace {
    private final WorkDeque deque = new WorkDeque();

    public DequeTwoItemsRace() {
        deque.push(Jobs.A);
        deque.push(Jobs.B);
    }

    @Actor
    public void owner(III_Result r) {
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
