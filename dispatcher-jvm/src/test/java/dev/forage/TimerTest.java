package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Timers, served by sleeping workers. "No earlier than asked" is checked against {@link System#nanoTime()}: that
 * is a correctness property, not a speed assertion. A timer that has not fired within the wait's bound fails the
 * test with a thread dump.
 */
@Watchdog.Budget(seconds = 120)
class TimerTest {
    @Test
    void aTimerFiresNoEarlierThanAsked() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            for (long delayMillis : new long[] {0, 1, 15, 40}) {
                AtomicLong firedAt = new AtomicLong();
                CountDownLatch fired = new CountDownLatch(1);
                long scheduledAt = System.nanoTime();
                TimerHandle h = pool.schedule(() -> {
                    firedAt.set(System.nanoTime());
                    fired.countDown();
                }, delayMillis, TimeUnit.MILLISECONDS);
                Watchdog.awaitLatch("the timer of " + delayMillis + " ms fired", Watchdog.LIMIT, fired, pool::toString);
                assertTrue(firedAt.get() - scheduledAt >= TimeUnit.MILLISECONDS.toNanos(delayMillis),
                        "fired " + (firedAt.get() - scheduledAt) + " ns after scheduling, asked "
                                + delayMillis + " ms");
                assertTrue(h.hasFired());
                assertFalse(h.isCancelled());
                assertFalse(h.cancel(), "a fired timer cannot be cancelled");
                assertTrue(h.getDelay(TimeUnit.NANOSECONDS) <= 0);
            }
        }
    }

    @Test
    void aCancelledTimerNeverRuns() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            AtomicBoolean ran = new AtomicBoolean();
            TimerHandle h = pool.schedule(() -> ran.set(true), 20, TimeUnit.MILLISECONDS);
            assertTrue(h.getDelay(TimeUnit.NANOSECONDS) > 0);
            assertTrue(h.cancel());
            assertTrue(h.isCancelled());
            assertFalse(h.cancel());
            // A later timer: once it fired, the cancelled one's deadline is long past.
            CountDownLatch later = new CountDownLatch(1);
            pool.schedule(later::countDown, 60, TimeUnit.MILLISECONDS);
            Watchdog.awaitLatch("the later timer fired", Watchdog.LIMIT, later, pool::toString);
            assertFalse(ran.get(), "the cancelled timer ran");
            assertFalse(h.hasFired());
            assertEquals(0, pool.registry().timers.size());
        }
    }

    @Test
    void manyTimersFromInsideAndOutsideFireExactlyOnceAndNeverEarly() throws Exception {
        int n = Pools.longRun() ? 100_000 : 10_000;
        try (ForagePool pool = Pools.pool(4)) {
            AtomicIntegerArray fired = new AtomicIntegerArray(n);
            long[] notBefore = new long[n];
            AtomicIntegerArray early = new AtomicIntegerArray(n);
            CountDownLatch all = new CountDownLatch(n);
            SplittableRandom random = new SplittableRandom(3);
            List<Runnable> fromInside = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                long delay = random.nextInt(30_000); // microseconds
                Runnable job = () -> {
                    if (System.nanoTime() - notBefore[id] < 0) {
                        early.set(id, 1);
                    }
                    fired.incrementAndGet(id);
                    all.countDown();
                };
                Runnable schedule = () -> {
                    notBefore[id] = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(delay);
                    pool.schedule(job, delay, TimeUnit.MICROSECONDS);
                };
                if (i % 2 == 0) {
                    schedule.run();
                } else {
                    fromInside.add(schedule);
                }
            }
            pool.scope(s -> {
                for (Runnable r : fromInside) {
                    s.spawn(r);
                }
                return null;
            });
            Watchdog.awaitLatch("every timer fired", Watchdog.LIMIT, all,
                    () -> all.getCount() + " of " + n + " left; " + pool);
            for (int i = 0; i < n; i++) {
                assertEquals(1, fired.get(i), "timer " + i);
                assertEquals(0, early.get(i), "timer " + i + " fired early");
            }
            assertEquals(0, pool.registry().timers.size());
        }
    }

    @Test
    void aTimerFiresWhileEveryWorkerSleeps() throws Exception {
        try (ForagePool pool = Pools.pool(4)) {
            for (int round = 0; round < 5; round++) {
                Pools.awaitAllAsleep(pool);
                CountDownLatch fired = new CountDownLatch(1);
                pool.schedule(fired::countDown, 10, TimeUnit.MILLISECONDS);
                Watchdog.awaitLatch("a timer set while every worker slept fired", Watchdog.LIMIT, fired,
                        pool::toString);
            }
        }
    }

    /**
     * The watcher sleeps until a far deadline; an earlier timer must make it re-read its deadline. If it did
     * not, the second timer would wait for the first (an hour), and the bounded wait for it fails.
     */
    @Test
    void anEarlierTimerWakesTheWatcherSleepingOnALaterOne() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            TimerHandle far = pool.schedule(() -> { }, 1, TimeUnit.HOURS);
            dev.forage.testing.Poll.until("a worker watches the far timer",
                    () -> pool.registry().timers.watcher() != dev.forage.TimerQueue.NO_WATCHER,
                    pool::toString);
            CountDownLatch fired = new CountDownLatch(1);
            pool.schedule(fired::countDown, 10, TimeUnit.MILLISECONDS);
            // Bounded far below the far timer's hour: a watcher that did not re-read its deadline fails here.
            Watchdog.awaitLatch("the earlier timer fired before the far one", Watchdog.LIMIT, fired, pool::toString);
            assertTrue(far.cancel());
        }
    }

    @Test
    void aTimerScheduledFromAWorkerFires() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            CountDownLatch fired = new CountDownLatch(1);
            pool.install(() -> pool.schedule(fired::countDown, 5, TimeUnit.MILLISECONDS));
            Watchdog.awaitLatch("the timer scheduled from a worker fired", Watchdog.LIMIT, fired, pool::toString);
        }
    }

    @Test
    void timersFireWhileEveryWorkerIsBusy() throws Exception {
        // Busy workers check the timers every few jobs: a timer must not wait for the pool to go idle.
        try (ForagePool pool = Pools.pool(2)) {
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch fired = new CountDownLatch(1);
            pool.execute(() -> pool.scope(s -> {
                for (int w = 0; w < 2; w++) {
                    s.spawn(inner -> keepBusy(inner, stop));
                }
                return null;
            }));
            pool.schedule(fired::countDown, 5, TimeUnit.MILLISECONDS);
            try {
                Watchdog.awaitLatch("a timer fired while every worker was busy", Watchdog.LIMIT, fired,
                        pool::toString);
            } finally {
                stop.set(true);
            }
        }
    }

    private static void keepBusy(Scope scope, AtomicBoolean stop) {
        if (!stop.get()) {
            Pools.burn(1000);
            scope.spawn(inner -> keepBusy(inner, stop));
        }
    }
}
