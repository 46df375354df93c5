package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A timer nobody watches against the monitor's park ({@link MonitorGate}, {@code docs/monitor.md} "Races"): the
 * monitor publishes that it sleeps until 1000 (M1) and reads the timers (M2, {@link MonitorGate#planWake}); a
 * poster adds a timer due at 500 to the real {@link TimerQueue} (P1, the earliest deadline's volatile write), sees
 * no watcher, and asks whether the monitor must be woken (P2, {@link MonitorGate#wakeNeeded}), as
 * {@code PoolTimers.schedule} does. Either the monitor plans to wake at 500, or the poster unparks it.
 *
 * <p>Result: r1 the monitor's wake-up, 500 or 1000; r2 the poster unparks it (1) or not (0).
 */
@JCStressTest
@Description("MonitorGate.planWake vs TimerQueue.add + MonitorGate.wakeNeeded: the monitor never sleeps past a timer "
        + "nobody watches.")
@Outcome(id = {"500, 0", "500, 1"}, expect = Expect.ACCEPTABLE, desc = "M2 saw the timer: the monitor wakes for it.")
@Outcome(id = "1000, 1", expect = Expect.ACCEPTABLE, desc = "P2 saw the plan: the poster unparks the monitor.")
@Outcome(id = "1000, 0", expect = Expect.FORBIDDEN,
        desc = "Lost: the monitor sleeps past the deadline and nobody wakes it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class UnwatchedTimerVsMonitorPark {
    private final TimerQueue queue = new TimerQueue();
    private final MonitorGate gate = new MonitorGate(MonitorGate.RUNNING);
    private final MonitorGate.Timers view = new MonitorGate.Timers() {
        @Override
        public boolean unwatched() {
            return !queue.isEmpty() && queue.watcher() == TimerQueue.NO_WATCHER;
        }

        @Override
        public long earliestNanos() {
            return queue.earliestDeadline();
        }
    };

    {
        gate.planWake(0, view); // the plan the monitor just woke from: in the past
    }

    @Actor
    public void monitor(II_Result r) {
        r.r1 = (int) gate.planWake(1000, view); // M1, M2
    }

    @Actor
    public void poster(II_Result r) {
        queue.add(new TimerTask(Jobs.A, 500)); // P1
        r.r2 = queue.watcher() == TimerQueue.NO_WATCHER && gate.wakeNeeded(500) ? 1 : 0; // P2
    }
}
