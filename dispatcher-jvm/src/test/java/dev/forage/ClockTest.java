package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The pool's timers read the injected clock, not {@link System#nanoTime()}: on a single-threaded pool driven by
 * hand, a timer fires exactly when the clock passes its deadline, whatever the real time.
 */
@Watchdog.Budget(seconds = 60)
class ClockTest {
    /** A clock that moves only when told. */
    static final class ManualClock implements Clock {
        private final AtomicLong now = new AtomicLong(1_000_000_000L);

        @Override
        public long nanoTime() {
            return now.get();
        }

        void advance(long nanos) {
            now.addAndGet(nanos);
        }
    }

    @Test
    void timersFireWhenTheInjectedClockPassesTheirDeadlineAndNotBefore() {
        ManualClock clock = new ManualClock();
        try (ForagePool pool = ForagePool.builder().singleThreaded().clock(clock).build()) {
            List<String> fired = new ArrayList<>();
            TimerHandle hour = pool.schedule(() -> fired.add("1h"), 1, TimeUnit.HOURS);
            pool.schedule(() -> fired.add("10ms"), 10, TimeUnit.MILLISECONDS);
            assertEquals(TimeUnit.HOURS.toNanos(1), hour.getDelay(TimeUnit.NANOSECONDS), "no time has passed");

            assertEquals(0, pool.runPending(), "nothing is due at time zero");
            clock.advance(TimeUnit.MILLISECONDS.toNanos(10) - 1);
            assertEquals(0, pool.runPending(), "one nanosecond before the deadline");
            clock.advance(1);
            assertEquals(1, pool.runPending());
            assertEquals(List.of("10ms"), fired);

            clock.advance(TimeUnit.MINUTES.toNanos(59));
            assertEquals(0, pool.runPending());
            assertTrue(hour.getDelay(TimeUnit.SECONDS) > 0);
            clock.advance(TimeUnit.MINUTES.toNanos(1));
            assertEquals(1, pool.runPending());
            assertEquals(List.of("10ms", "1h"), fired);
            assertTrue(hour.hasFired());
        }
    }

    @Test
    void aTimedWaitInsideThePoolEndsByTheInjectedClock() {
        ManualClock clock = new ManualClock();
        try (ForagePool pool = ForagePool.builder().singleThreaded().clock(clock).build()) {
            // The latch's job moves the clock past the wait's deadline: the wait must end unset, by the clock,
            // although almost no real time has passed.
            boolean set = pool.install(() -> {
                ForageLatch latch = ForageLatch.forCurrentThread();
                pool.execute(() -> clock.advance(TimeUnit.DAYS.toNanos(1)));
                try {
                    return latch.await(1, TimeUnit.HOURS);
                } catch (InterruptedException e) {
                    throw new AssertionError("nobody interrupts this thread", e);
                }
            });
            assertEquals(false, set);
        }
    }
}
