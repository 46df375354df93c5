package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link ForageLatch}: waiting on a worker keeps the worker working; only the owner may wait. */
@Watchdog.Budget(seconds = 120)
class ForageLatchTest {
    /**
     * One worker: job A waits for a latch that job B sets, and B is queued behind A. A blocking wait would
     * deadlock; the latch's wait runs B meanwhile.
     */
    @Test
    void waitingOnAWorkerRunsTheJobThatSetsTheLatch() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            CountDownLatch aDone = new CountDownLatch(1);
            pool.execute(() -> {
                ForageLatch latch = ForageLatch.forCurrentThread();
                pool.execute(latch::set); // behind A, on A's own deque
                latch.awaitUninterruptibly();
                aDone.countDown();
            });
            Watchdog.awaitLatch("A's wait ran the job that set its latch", Watchdog.LIMIT, aDone, pool::toString);

            CountDownLatch aDoneAgain = new CountDownLatch(1);
            pool.execute(() -> {
                ForageLatch latch = ForageLatch.forCurrentThread();
                pool.executeFair(latch::set); // behind A: on its own deque, the injector being empty
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                aDoneAgain.countDown();
            });
            Watchdog.awaitLatch("A's interruptible wait ran the job that set its latch", Watchdog.LIMIT, aDoneAgain,
                    pool::toString);
        }
    }

    /** A job on the pool that creates a latch and waits on it; {@link #done} counts down when the wait ends. */
    private static final class WaitingJob {
        final CountDownLatch done = new CountDownLatch(1);
        private final CountDownLatch created = new CountDownLatch(1);
        private volatile ForageLatch latch;

        WaitingJob(ForagePool pool) throws InterruptedException {
            pool.execute(() -> {
                ForageLatch l = ForageLatch.forCurrentThread();
                latch = l;
                created.countDown();
                l.awaitUninterruptibly();
                done.countDown();
            });
            Watchdog.awaitLatch("the waiting job made its latch", Watchdog.LIMIT, created, pool::toString);
        }

        ForageLatch latch() {
            return latch;
        }
    }

    /** The owner sleeps on its latch; an outside job then arrives, runs on the waiting worker, and sets it. */
    @Test
    void aWaitingWorkerSleepsAndWakesForNewWork() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            WaitingJob job = new WaitingJob(pool);
            Pools.awaitAllAsleep(pool); // asleep inside the wait
            pool.execute(() -> job.latch().set());
            Watchdog.awaitLatch("the sleeping owner woke for new work and its wait ended", Watchdog.LIMIT, job.done,
                    pool::toString);
        }
    }

    /** The owner sleeps on its latch; a set from outside wakes exactly that worker (a latch wake-up). */
    @Test
    void aSetFromOutsideWakesTheSleepingOwner() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            WaitingJob job = new WaitingJob(pool);
            Pools.awaitAllAsleep(pool);
            long latchWakeups = pool.statistics().latchWakeups();
            job.latch().set();
            Watchdog.awaitLatch("the set from outside woke the sleeping owner", Watchdog.LIMIT, job.done,
                    pool::toString);
            assertEquals(latchWakeups + 1, pool.statistics().latchWakeups(), pool.statistics().toString());
            assertTrue(job.latch().isSet());
        }
    }

    @Test
    void onlyTheOwnerMayWait() throws Exception {
        ForageLatch mine = ForageLatch.forCurrentThread();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                mine.await();
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "not-the-owner");
        other.start();
        other.join(Watchdog.scaled(Watchdog.LIMIT).toMillis());
        assertFalse(other.isAlive(), "a thread that is not the owner is still waiting on the latch");
        assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
        assertTrue(thrown.get().getMessage().contains("not-the-owner")
                && thrown.get().getMessage().contains("only its owner"), thrown.get().getMessage());

        try (ForagePool pool = Pools.pool(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> pool.install(() -> {
                        mine.awaitUninterruptibly();
                        return null;
                    }));
            assertTrue(e.getMessage().contains("only its owner"), e.getMessage());
            // Any thread may set it.
            pool.install(() -> {
                mine.set();
                return null;
            });
            assertTrue(mine.isSet());
            mine.await();
        }
    }

    @Test
    void timedAwaitReturnsFalseOnTimeoutOffAndOnThePool() throws Exception {
        ForageLatch outside = ForageLatch.forCurrentThread();
        assertFalse(outside.await(10, TimeUnit.MILLISECONDS));
        assertFalse(outside.await(0, TimeUnit.MILLISECONDS));
        outside.set();
        assertTrue(outside.await(0, TimeUnit.MILLISECONDS));

        try (ForagePool pool = Pools.pool(2)) {
            boolean[] results = pool.install(() -> {
                ForageLatch l = ForageLatch.forCurrentThread();
                try {
                    boolean timedOut = l.await(20, TimeUnit.MILLISECONDS);
                    pool.execute(l::set);
                    boolean set = l.await(1, TimeUnit.HOURS);
                    return new boolean[] {timedOut, set};
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            assertFalse(results[0], "nobody set the latch: the timed wait must report a timeout");
            assertTrue(results[1]);
            assertEquals(7, pool.install(() -> 7), "the worker is back to normal after a timed wait");
        }
    }

    @Test
    void aTimedWaitOnAWorkerReturnsWhileTheWorkerSleeps() throws Exception {
        // One worker, nothing else to do: it must sleep inside the timed wait and still wake at the deadline.
        try (ForagePool pool = Pools.pool(1)) {
            for (int i = 0; i < 3; i++) {
                boolean result = pool.install(() -> {
                    try {
                        return ForageLatch.forCurrentThread().await(30, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                });
                assertFalse(result);
            }
        }
    }

    @Test
    void anInterruptBeforeAwaitThrows() {
        ForageLatch latch = ForageLatch.forCurrentThread();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, latch::await);
        } finally {
            Thread.interrupted();
        }
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> latch.await(1, TimeUnit.SECONDS));
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void describesItself() {
        ForageLatch latch = ForageLatch.forCurrentThread();
        assertTrue(latch.toString().contains("unset") && latch.toString().contains(Thread.currentThread().getName()));
        latch.set();
        latch.set();
        assertTrue(latch.isSet());
        assertTrue(latch.toString().contains("[set"));
    }
}
