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
 * A shrink against a worker retiring ({@link Resize}'s N1/N2 against {@link Retirement}'s R1 and the read that
 * follows it): worker 1 of 2, idle for the keep-alive, marks itself RETIRED and counts itself (R1), finds no work
 * (R2), then reads the parallelism and, above it, makes itself SHED ({@link Resize#retire}); a shrink to 1 writes
 * the parallelism (N1) and makes a RETIRED worker SHED (N2). Either N2 finds RETIRED or the retiring thread reads
 * 1; when both, one CAS wins. A worker left RETIRED above the parallelism would stay counted retired (the statistic
 * and P3's scan off for good) with nothing to bring it back.
 *
 * <p>Result: r1 the retiring thread ended (always 1: nothing to do), r2 worker 1's state at the end, r3 the
 * retired count is back to zero.
 */
@JCStressTest
@Description("Resize: a shrink vs a worker retiring above the new parallelism: the worker ends SHED, not counted.")
@Outcome(id = "1, 3, true", expect = Expect.ACCEPTABLE, desc = "SHED, by the shrink or by the retiring thread.")
@Outcome(id = "1, 1, false", expect = Expect.FORBIDDEN,
        desc = "Left RETIRED above the parallelism: counted retired, and no post may claim it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class ShrinkVsRetire {
    private final ResizeRacePool pool = new ResizeRacePool();
    private final Retirement retirement = new Retirement(2);
    private final Resize resize = pool.resize(retirement, 2, 2);

    @Actor
    public void retiringWorker(IIZ_Result r) {
        r.r1 = resize.retire(1) ? 1 : 0; // R1, R2 (no work), then the retired side of N2
    }

    @Actor
    public void shrink() {
        resize.set(1); // N1, N2
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r2 = retirement.state(1);
        r.r3 = retirement.retiredCount() == 0;
    }
}
