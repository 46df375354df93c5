package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Delayed and periodic tasks across shutdown, from every face, with {@code ScheduledThreadPoolExecutor}'s
 * defaults: a run in progress finishes and only then is its periodic task cancelled; a periodic task never
 * starts a run after shutdown; a one-shot delayed task still runs at its deadline.
 */
@ExtendWith(Watchdog.class)
class ScheduledAcrossShutdownTest {

    /** Which executor schedules, and which face shuts the pool (or the view) down. */
    enum Setup {
        OWNER_SHUTS_DOWN(true, false),
        VIEW_SHUTS_DOWN(false, false),
        POOL_SHUTS_DOWN_UNDER_OWNER(true, true),
        POOL_SHUTS_DOWN_UNDER_VIEW(false, true);

        final boolean owning;
        final boolean throughPool;

        Setup(boolean owning, boolean throughPool) {
            this.owning = owning;
            this.throughPool = throughPool;
        }

        ForageExecutorService executor(ForagePool pool) {
            return owning ? ForageExecutorService.owning(pool) : ForageExecutorService.viewOf(pool);
        }

        void shutdown(ForagePool pool, ForageExecutorService executor) {
            if (throughPool) {
                pool.shutdown();
            } else {
                executor.shutdown();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aPeriodicRunInProgressAtShutdownFinishesBeforeItsTaskIsCancelled(Setup setup) throws Exception {
        ForagePool pool = ForagePool.builder().threads(2).name("periodic").build();
        ForageExecutorService executor = setup.executor(pool);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        try {
            started.await();
            setup.shutdown(pool, executor);
            assertFalse(f.isCancelled(), "cancelled while its run is still in progress");
            assertFalse(f.isDone(), "done while its run is still in progress");
        } finally {
            release.countDown();
        }
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), executor.toString());
        assertTrue(f.isCancelled(), "a periodic task outlived shutdown");
        assertEquals(1, runs.get(), "a periodic task started a run after shutdown");
        assertEquals(0, interrupted.get(), "shutdown() must not interrupt a running task");
        pool.close();
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aOneShotDelayedTaskStillRunsAtItsDeadlineAfterShutdown(Setup setup) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("delayed").build();
        ForageExecutorService executor = setup.executor(pool);
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 20, TimeUnit.MILLISECONDS);
        setup.shutdown(pool, executor);
        assertFalse(delayed.isCancelled());
        assertEquals("ran", delayed.get(30, TimeUnit.SECONDS));
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), executor.toString());
        pool.close();
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aWaitingPeriodicTaskIsCancelledAtShutdownAndHoldsNothingUp(Setup setup) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("waiting").build();
        ForageExecutorService executor = setup.executor(pool);
        ScheduledFuture<?> hourly = executor.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        setup.shutdown(pool, executor);
        // Through the pool's own face: an owner hears of it from the pool (ForagePool.whenShutdown), a view when
        // it is next asked.
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "a periodic timer held up termination");
        assertTrue(hourly.isCancelled());
        pool.close();
        assertTrue(pool.isTerminated());
    }

    @Test
    void closingAnOwnedPoolDirectlyCancelsTheOwnersWaitingPeriodicTasksAtOnce() {
        // Without the pool telling its owner about the shutdown, close() would wait for the hourly deadline and
        // the watchdog would fail this test with a thread dump.
        ForagePool pool = ForagePool.builder().threads(1).name("closed-directly").build();
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        ScheduledFuture<?> hourly = executor.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        pool.close();
        assertTrue(pool.isTerminated());
        assertTrue(hourly.isCancelled(), "the owner's periodic task was cancelled when its pool shut down");
        assertTrue(executor.isTerminated());
    }
}
