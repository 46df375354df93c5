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
 * The monitor's start against its exit ({@link MonitorGate}, {@code docs/monitor.md} "Races"): a worker becomes
 * busy (G1, its busy word's volatile store in {@link WorkerStatistics#busyStarts}) and reads the monitor's state
 * (G2, {@link MonitorGate#claimStart}); the monitor, which saw nothing to watch for its linger, sets NONE (X1) and
 * looks at the busy word once more (X2) before it ends. Either the worker starts a new monitor or the old one stays.
 *
 * <p>Result: r1 the worker claimed the start (1) or saw a monitor running (0); r2 the monitor ended (1) or stayed
 * (0); r3 the state is RUNNING at the end (a monitor runs for the busy worker).
 */
@JCStressTest
@Description("MonitorGate.exitUnless vs WorkerStatistics.busyStarts + MonitorGate.claimStart: a busy worker is never "
        + "left without a monitor, and two monitors never run.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE, desc = "X2 saw the busy worker: the monitor stayed.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "G2 saw NONE: the worker starts a new monitor.")
@Outcome(id = "0, 1, false", expect = Expect.FORBIDDEN,
        desc = "Lost: the monitor ended without seeing the busy worker, which saw it running.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: two monitors, or the state off.")
@State
public class MonitorExitVsBusyWorker {
    private final WorkerStatistics worker = new WorkerStatistics();
    private final MonitorGate gate = new MonitorGate(MonitorGate.RUNNING);

    @Actor
    public void worker(IIZ_Result r) {
        worker.busyStarts(System.nanoTime()); // G1
        r.r1 = gate.claimStart() ? 1 : 0;     // G2
    }

    @Actor
    public void monitor(IIZ_Result r) {
        r.r2 = gate.exitUnless(() -> (worker.busyWord() & 1L) != 0) ? 1 : 0; // X1..X3
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r3 = gate.isRunning();
    }
}
