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
 * Two thieves race for the last job of a deque whose owner is busy elsewhere. Pins that the CAS on {@code top}
 * arbitrates among thieves too: exactly one gets the job, the other sees it gone or gets RETRY, never the job.
 * (A three-actor pop-vs-two-steals test would need three CPUs, and jcstress does not run it on two; this pair
 * plus {@link DequeLastItemRace} cover each pair of takers.)
 *
 * <p>Result: r1 and r2 the steals (0 nothing, 1 the job, 3 RETRY), r3 jobs left for the arbiter.
 */
@JCStressTest
@Description("WorkDeque steal vs steal of the last job: exactly one wins.")
@Outcome(id = {"1, [03], 0", "[03], 1, 0"}, expect = Expect.ACCEPTABLE,
        desc = "One thief got the job; the other saw the deque empty or lost the CAS.")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "Both thieves took the job: it runs twice.")
@Outcome(expect = Expect.FORBIDDEN, desc = "The job was lost or left behind.")
@State
public class DequeStealVsSteal {
    private final WorkDeque deque = new WorkDeque();

    public DequeStealVsSteal() {
        deque.push(Jobs.A);
    }

    @Actor
    public void thief1(III_Result r) {
        r.r1 = Jobs.code(deque.steal());
    }

    @Actor
    public void thief2(III_Result r) {
        r.r2 = Jobs.code(deque.steal());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Jobs.drain(deque);
    }
}
