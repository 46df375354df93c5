package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * A grow against a shed worker leaving ({@link Resize}'s W1/W2 against L1/L2): the pool's parallelism is 1 of 2,
 * and worker 1's thread, its top-level wait ended by the shrink, marks itself SHED (L1) and reads the parallelism
 * (L2), while a grow to 2 writes the parallelism (W1) and claims a SHED worker to start a thread for it (W2).
 * Volatile accesses are totally ordered, so either W2 finds SHED or L2 reads 2; when both, one CAS wins.
 *
 * <p>Result: r1 the leaving thread ended (1) or stayed (0); r2 threads the grow started; r3 worker 1 is RUNNING at
 * the end and nobody counts it retired.
 */
@JCStressTest
@Description("Resize: a grow vs a shed worker's thread leaving: the worker ends with exactly one thread.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE,
        desc = "L2 read the new parallelism: the thread stayed, and the grow found the worker RUNNING or lost the CAS.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE,
        desc = "The grow found the worker SHED and started a thread; the leaving thread ended.")
@Outcome(id = "1, 0, .*", expect = Expect.FORBIDDEN,
        desc = "Lost: the thread ended and the grow started none (a worker in use with no thread).")
@Outcome(id = "0, 1, .*", expect = Expect.FORBIDDEN, desc = "Two threads for one worker.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: the state or the retired count off.")
@State
public class GrowVsLeave {
    private final ResizeRacePool pool = new ResizeRacePool();
    private final Retirement retirement = new Retirement(2); // both RUNNING: worker 1's thread is leaving
    private final Resize resize = pool.resize(retirement, 1, 2);

    @Actor
    public void leavingWorker(IIZ_Result r) {
        r.r1 = resize.leave(1) ? 1 : 0; // L1, L2
    }

    @Actor
    public void grow() {
        resize.set(2); // W1, W2
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r2 = pool.started;
        r.r3 = retirement.state(1) == Retirement.RUNNING && retirement.retiredCount() == 0;
    }
}
