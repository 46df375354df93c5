package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IZZ_Result;

/**
 * A shrink against a worker replacing its stop latch ({@link Resize#topLevelLatch}): worker 1 of 2 finds its latch
 * set by a shrink that a grow has undone since, publishes a fresh one (X1) and reads the parallelism (X2) before it
 * waits on it; a new shrink to 1 writes the parallelism (N1), then sets the worker's latch (N2 reads it). Either X2
 * reads 1 (the worker leaves without waiting) or N2 sets the fresh latch (the wait ends at once). A worker that
 * waits on a latch nobody will set, above the parallelism, keeps taking jobs, and stays counted by the sleep
 * protocol as a worker of the pool.
 *
 * <p>Result: r1 X2 said in use (1) or not (0); r2 the latch the worker would wait on is set; r3 the parallelism is
 * 1 at the end.
 */
@JCStressTest
@Description("Resize: a shrink vs a worker publishing a fresh stop latch: it never waits above the parallelism.")
@Outcome(id = "0, .*, true", expect = Expect.ACCEPTABLE, desc = "X2 read the new parallelism: the worker leaves.")
@Outcome(id = "1, true, true", expect = Expect.ACCEPTABLE,
        desc = "X2 read 2, and the shrink set the latch the worker waits on: the wait ends and the worker leaves.")
@Outcome(id = "1, false, true", expect = Expect.FORBIDDEN,
        desc = "The worker waits on a fresh latch the shrink did not set, above the parallelism.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class ShrinkVsFreshLatch {
    private final ResizeRacePool pool = new ResizeRacePool();
    private final Resize resize = pool.resize(new Retirement(2), 2, 2);
    private SpinLatch waitedOn;

    public ShrinkVsFreshLatch() {
        resize.stop(1).set(); // set by an earlier shrink that a grow undid
    }

    @Actor
    public void worker(IZZ_Result r) {
        waitedOn = resize.topLevelLatch(1); // X1 when the latch is set and the worker in use
        r.r1 = resize.inUse(1) ? 1 : 0;     // X2
    }

    @Actor
    public void shrink() {
        resize.set(1); // N1, N2
    }

    @Arbiter
    public void arbiter(IZZ_Result r) {
        r.r2 = waitedOn.probe();
        r.r3 = resize.parallelism() == 1;
    }
}
