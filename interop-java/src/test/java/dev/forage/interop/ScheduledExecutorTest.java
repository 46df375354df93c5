package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Delayed and periodic tasks, served by the pool's own timers. */
@ExtendWith(Watchdog.class)
class ScheduledExecutorTest {
    private final ForageExecutorService executor =
            ForageExecutorService.owning(ForagePool.builder().threads(2).name("timers").build());

    @AfterEach
    void close() {
        executor.shutdownNow();
        executor.close();
    }

    @Test
    void aDelayedCallableRunsOnThePoolNoSoonerThanItsDelay() throws Exception {
        long start = System.nanoTime();
        ScheduledFuture<Long> f = executor.schedule(System::nanoTime, 30, TimeUnit.MILLISECONDS);
        assertTrue(f.get() - start >= TimeUnit.MILLISECONDS.toNanos(30), "ran before its delay");
        assertSame(executor.pool(), executor.schedule(ForagePool::current, 0, TimeUnit.SECONDS).get());
        AtomicInteger ran = new AtomicInteger();
        executor.schedule(ran::incrementAndGet, -5, TimeUnit.SECONDS).get(); // negative delay: run now
        executor.schedule((Runnable) ran::incrementAndGet, 1, TimeUnit.MILLISECONDS).get();
        assertEquals(2, ran.get());
    }

    @Test
    void getDelayCountsDownToTheDeadline() {
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
        long seconds = f.getDelay(TimeUnit.SECONDS);
        assertTrue(seconds > 3500 && seconds <= 3600, "getDelay = " + seconds + " s");
        ScheduledFuture<?> due = executor.schedule(() -> { }, 0, TimeUnit.SECONDS);
        assertTrue(due.getDelay(TimeUnit.NANOSECONDS) <= 0);
        f.cancel(false);
    }

    @Test
    void compareToOrdersByDeadlineThenBySchedulingOrder() {
        ScheduledFuture<?> late = executor.schedule(() -> { }, 2, TimeUnit.HOURS);
        ScheduledFuture<?> early = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
        ScheduledFuture<?> earliest = executor.schedule(() -> { }, 30, TimeUnit.MINUTES);
        List<ScheduledFuture<?>> list = new ArrayList<>(List.of(late, early, earliest));
        Collections.sort(list);
        assertEquals(List.of(earliest, early, late), list);
        assertEquals(0, late.compareTo(late));
        assertTrue(early.compareTo(late) < 0 && late.compareTo(early) > 0);
    }

    @Test
    void aCancelledDelayedTaskNeverRunsAndDoesNotHoldUpTermination() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> f = executor.schedule(ran::incrementAndGet, 1, TimeUnit.HOURS);
        assertTrue(f.cancel(false));
        assertTrue(f.isCancelled());
        assertThrows(CancellationException.class, f::get);
        executor.shutdown();
        // The pool keeps a worker alive for pending timers: the cancelled one must have left them.
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, ran.get());
    }

    @Test
    void fixedRateRunsRepeatedlyNeverBeforeItsSlotUntilCancelled() throws Exception {
        int runs = 5;
        long period = TimeUnit.MILLISECONDS.toNanos(5);
        long[] starts = new long[runs];
        AtomicInteger count = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(runs);
        long scheduled = System.nanoTime();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            int i = count.getAndIncrement();
            if (i < runs) {
                starts[i] = System.nanoTime();
                done.countDown();
            }
        }, 0, 5, TimeUnit.MILLISECONDS);
        done.await();
        assertTrue(f.cancel(false));
        for (int i = 0; i < runs; i++) {
            assertTrue(starts[i] - scheduled >= i * period, "run " + i + " started before its slot");
        }
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "a cancelled periodic task stayed live");
    }

    @Test
    void fixedDelayWaitsTheDelayAfterEachRun() throws Exception {
        int runs = 4;
        long delay = TimeUnit.MILLISECONDS.toNanos(5);
        long[] starts = new long[runs];
        long[] ends = new long[runs];
        AtomicInteger count = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(runs);
        ScheduledFuture<?> f = executor.scheduleWithFixedDelay(() -> {
            int i = count.getAndIncrement();
            if (i < runs) {
                starts[i] = System.nanoTime();
                ends[i] = System.nanoTime();
                done.countDown();
            }
        }, 0, 5, TimeUnit.MILLISECONDS);
        done.await();
        f.cancel(false);
        for (int i = 1; i < runs; i++) {
            assertTrue(starts[i] - ends[i - 1] >= delay, "run " + i + " started less than the delay after run "
                    + (i - 1) + " ended");
        }
    }

    @Test
    void aPeriodicTaskThatThrowsStopsAndKeepsItsException() throws Exception {
        AtomicInteger count = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("third run");
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            if (count.incrementAndGet() == 3) {
                throw boom;
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertSame(boom, e.getCause());
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(3, count.get());
    }

    @Test
    void shutdownCancelsPeriodicTasksButStillRunsDelayedOnes() throws Exception {
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.HOURS);
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 20, TimeUnit.MILLISECONDS);
        executor.shutdown();
        assertTrue(periodic.isCancelled());
        assertEquals("ran", delayed.get());
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
    }

    @Test
    void shutdownStopsARunningPeriodicTaskAfterItsCurrentRun() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        started.await();
        executor.shutdown();
        release.countDown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(f.isCancelled());
        assertEquals(1, runs.get());
    }

    @Test
    void shutdownNowReturnsPendingDelayedTasksUnrun() throws Exception {
        ScheduledFuture<?> a = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
        ScheduledFuture<Integer> b = executor.schedule(() -> 1, 2, TimeUnit.HOURS);
        ScheduledFuture<?> c = executor.scheduleAtFixedRate(() -> { }, 3, 1, TimeUnit.HOURS);
        List<Runnable> neverStarted = executor.shutdownNow();
        assertEquals(Set.of(a, b, c), Set.copyOf(neverStarted));
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "pending timers kept the pool alive");
        assertFalse(b.isDone());
    }

    @Test
    void aScheduledTaskWaitingInGetOnAWorkerHelps() throws Exception {
        ForageExecutorService one = ForageExecutorService.owning(ForagePool.builder().threads(1).build());
        try {
            Future<Integer> f = one.submit(() -> one.schedule(() -> 20, 5, TimeUnit.MILLISECONDS).get() + 1);
            assertEquals(21, f.get());
        } finally {
            one.close();
        }
    }

    @Test
    void badArgumentsAreRejectedWithTheRule() {
        IllegalArgumentException rate = assertThrows(IllegalArgumentException.class,
                () -> executor.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS));
        assertTrue(rate.getMessage().contains("period must be > 0"), rate.getMessage());
        IllegalArgumentException delay = assertThrows(IllegalArgumentException.class,
                () -> executor.scheduleWithFixedDelay(() -> { }, 0, -1, TimeUnit.SECONDS));
        assertTrue(delay.getMessage().contains("delay must be > 0"), delay.getMessage());
        assertThrows(NullPointerException.class, () -> executor.schedule(() -> { }, 1, null));
        assertThrows(NullPointerException.class, () -> executor.schedule((Runnable) null, 1, TimeUnit.SECONDS));
    }
}
