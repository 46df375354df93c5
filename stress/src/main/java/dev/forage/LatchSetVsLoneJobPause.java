package dev.forage;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * The lone-job pause's latch race ({@code docs/sleep.md} section 4.6): a worker that left a neighbour's only job
 * pauses in its search policy's latch-ended park ({@link Parker#parkUntilSet}), a bounded park outside the sleep protocol that no post ends,
 * against {@code SpinLatch.set} from another thread. Only the latch can end the pause early, so this race is its
 * whole liveness: the pauser publishes {@code pausing} and then CASes its latch to SLEEPING; the setter swaps in SET
 * and, if it saw SLEEPING, the waker (as {@code Registry.notifyWorkerLatchIsSet} does) tells the protocol, which
 * finds the worker not asleep, and the pause, which unparks it.
 *
 * <p>As in {@link LatchSetVsJecNap}: the pause is one second, the outcome is judged on the park itself (a park
 * that ran its whole length is a lost wake-up), and a spare permit left by an unpark of an earlier sample may end
 * a park before the set, which is allowed. The worker is counted idle by a real {@link JecSleep} throughout.
 *
 * <p>Result: r1 the owner parked (1) or its latch was SET before it could fall asleep (0), r2 the setter saw
 * SLEEPING and called the waker, r3 no park ran its whole length, the latch is SET, no sleeper is counted, the
 * owner is still counted idle, and the pause was neither a nap nor a sleep for the protocol.
 */
@JCStressTest
@Description("SpinLatch.set vs its owner in the search policy's lone-job pause: the set always ends the pause.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE, desc = "Set before SLEEPING: the owner does not park.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPING: the setter ended the pause.")
@Outcome(id = "1, 1, false", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the setter saw SLEEPING but the owner's park ran its whole length.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The park returned before the set (a spare permit from an earlier unpark of this thread, which "
                + "the park contract allows), so the owner was awake again when the setter looked.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a sleeper counted or the owner not idle.")
@State
public class LatchSetVsLoneJobPause {
    private static final long PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Parker parker = new ThreadParker();
    private final JecSleep sleep =
            new JecSleep(RaceIdleContext.NO_ROUNDS, new Parker[] {parker}, RaceIdleContext.NO_UNCLAIMED_WORK);
    /** The pool's waker for its workers' latches: the protocol, which ends a latch-ended park too. */
    private final RecordingWaker waker = new RecordingWaker(sleep::notifyWorkerLatchIsSet);
    private final SpinLatch latch = new SpinLatch(waker, 0);

    public LatchSetVsLoneJobPause() {
        sleep.startLooking(0); // the pausing worker is idle
    }

    @Actor
    public void owner() {
        parker.parkUntilSet(latch, PAUSE_NANOS, false); // getSleepy, latchParked, fallAsleep, park, wakeUp
    }

    @Actor
    public void setter() {
        latch.set();
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        long parked = parker.lastLatchParkNanos();
        r.r1 = parked >= 0 ? 1 : 0;
        r.r2 = waker.called ? 1 : 0;
        r.r3 = parked < PAUSE_NANOS && latch.probe() && sleep.sleepingThreads() == 0 && sleep.idleThreads() == 1
                && sleep.nappers() == 0;
    }
}
