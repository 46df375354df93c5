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
 * The last timer cancelled against a sleeper taking the timer watch ({@link TimerQueue#watch},
 * {@link TimerQueue#remove}; {@code docs/monitor.md} "Races"): the sleeper claims the watch (W1) and reads the
 * earliest deadline (W2), which it would park until; the canceller removes the only timer (C1, the earliest
 * deadline's volatile write) and reads the watcher (C2), which {@code PoolTimers} then unparks. Either the sleeper
 * sees no deadline (and parks for its keep-alive), or the canceller tells it; a sleeper parked until a cancelled
 * deadline would outstay the keep-alive and keep a non-daemon JVM alive.
 *
 * <p>Result: r1 the sleeper parks until the old deadline (1) or not (0); r2 the canceller tells the watcher (1) or
 * nobody (0); r3 the queue is empty at the end.
 */
@JCStressTest
@Description("TimerQueue.watch vs TimerTask.cancel: a watcher never parks until a cancelled deadline untold.")
@Outcome(id = {"0, 0, true", "0, 1, true"}, expect = Expect.ACCEPTABLE, desc = "W2 saw the queue empty.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "C2 saw the watcher: it is told to re-read.")
@Outcome(id = "1, 0, true", expect = Expect.FORBIDDEN,
        desc = "Lost: the watcher parks until the cancelled deadline and nobody tells it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class CancelVsTimerWatch {
    private final TimerQueue queue = new TimerQueue();
    private volatile int told = TimerQueue.NO_WATCHER;
    private final TimerTask timer = new TimerTask(Jobs.A, 1000) {
        @Override
        void removed(int watcher) {
            told = watcher;
        }
    };

    {
        queue.add(timer);
    }

    @Actor
    public void sleeper(IIZ_Result r) {
        r.r1 = queue.watch(0) != TimerQueue.NO_DEADLINE ? 1 : 0; // W1, W2
    }

    @Actor
    public void canceller(IIZ_Result r) {
        timer.cancel(); // C1, C2
        r.r2 = told == 0 ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r3 = queue.isEmpty();
    }
}
