package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Fib;
import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Blocking sections and compensation ({@link ForagePool#managedBlock}, {@link ForagePool#blockingExecutor()}): the
 * pool keeps its running parallelism while workers block, within {@code maxBlockingThreads}, and the threads that
 * stood in end after their keep-alive. Every check reads statistics or waits for work that only a compensated
 * pool can finish; none times anything.
 */
@Watchdog.Budget(seconds = 120)
class BlockingSectionTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void runningParallelismHoldsWhileWorkersBlock() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).maxBlockingThreads(8).name("hold").build()) {
            int blockers = 4;
            CountDownLatch entered = new CountDownLatch(blockers);
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch blockersDone = new CountDownLatch(blockers);
            for (int i = 0; i < blockers; i++) {
                pool.execute(() -> {
                    blockUntil(entered, gate);
                    blockersDone.countDown();
                });
            }
            // Four blocked workers on a 2-thread pool: only stand-ins can have started blockers 3 and 4.
            assertTrue(entered.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
            PoolStatistics s = pool.statistics();
            assertEquals(blockers, s.blockedWorkers(), s::toString);
            assertEquals(blockers, s.compensatingThreads(), s::toString);

            // Two CPU jobs that can only finish together: they need two running workers besides the blocked ones.
            CyclicBarrier pair = new CyclicBarrier(2);
            CountDownLatch pairDone = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    try {
                        pair.await();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    pairDone.countDown();
                });
            }
            assertTrue(pairDone.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);

            gate.countDown();
            assertTrue(blockersDone.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
            Watchdog.awaitCondition("stand-ins released", LIMIT,
                    () -> pool.statistics().compensatingThreads() == 0, pool.statistics()::toString);
            PoolStatistics after = pool.statistics();
            assertEquals(0, after.blockedWorkers(), after::toString);
            assertEquals(blockers, after.mostBlockedWorkers(), after::toString);
            assertEquals(blockers, after.blockingSections(), after::toString);
            assertEquals(blockers, after.compensations(), after::toString);
        }
    }

    @Test
    void standInsAreBoundedByMaxBlockingThreads() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).maxBlockingThreads(2).name("bound").build()) {
            int blockers = 5;
            CountDownLatch entered = new CountDownLatch(blockers);
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(blockers);
            for (int i = 0; i < blockers; i++) {
                pool.execute(() -> {
                    blockUntil(entered, gate);
                    done.countDown();
                });
            }
            // 2 core workers + 2 stand-ins block; the fifth blocker has no thread until one returns.
            Watchdog.awaitCondition("four blocked", LIMIT, () -> entered.getCount() == 1, pool.statistics()::toString);
            PoolStatistics s = pool.statistics();
            assertEquals(4, s.blockedWorkers(), s::toString);
            assertEquals(2, s.compensatingThreads(), s::toString);
            assertEquals(1, entered.getCount(), s::toString);
            gate.countDown();
            assertTrue(done.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
        }
    }

    @Test
    void blockingExecutorRunsAtMostItsParallelismAndQueuesTheRest() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("limited").build()) {
            Executor io = pool.blockingExecutor(2);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch twoIn = new CountDownLatch(2);
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(6);
            for (int i = 0; i < 6; i++) {
                io.execute(() -> {
                    int now = running.incrementAndGet();
                    most.accumulateAndGet(now, Math::max);
                    twoIn.countDown();
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            assertTrue(twoIn.await(LIMIT.getSeconds(), TimeUnit.SECONDS));
            assertEquals(4, ((BlockingExecutor) io).queued(), pool.statistics()::toString);
            gate.countDown();
            assertTrue(done.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
            assertEquals(2, most.get());
        }
    }

    @Test
    void aBlockedWorkersDequeIsDrainedByItsStandIn() throws Exception {
        // One worker: the jobs it pushes before blocking can only run if its stand-in steals them.
        try (ForagePool pool = ForagePool.builder().threads(1).name("drain").build()) {
            int jobs = 100;
            CountDownLatch ran = new CountDownLatch(jobs);
            AtomicReference<Boolean> allRan = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                for (int i = 0; i < jobs; i++) {
                    pool.execute(ran::countDown); // on this worker's own deque
                }
                try {
                    allRan.set(ForagePool.managedBlock(() -> ran.await(LIMIT.getSeconds(), TimeUnit.SECONDS)));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                done.countDown();
            });
            assertTrue(done.await(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
            assertTrue(allRan.get(), pool.statistics()::toString);
        }
    }

    @Test
    void nestedSectionsCountOnce() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("nested").build()) {
            List<PoolStatistics> seen = new ArrayList<>();
            int result = pool.install(() -> block(() -> block(() -> {
                seen.add(pool.statistics());
                return 42;
            })));
            assertEquals(42, result);
            PoolStatistics s = seen.get(0);
            assertEquals(1, s.blockedWorkers(), s::toString);
            assertEquals(1, s.compensatingThreads(), s::toString);
            Watchdog.awaitCondition("released", LIMIT, () -> pool.statistics().compensatingThreads() == 0,
                    pool.statistics()::toString);
            assertEquals(1, pool.statistics().blockingSections());
        }
    }

    @Test
    void anExceptionLeavesTheSectionAndReachesTheCaller() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("throws").build()) {
            IOException boom = new IOException("disk gone");
            Exception thrown = pool.install(() -> {
                try {
                    ForagePool.managedBlock(() -> {
                        throw boom;
                    });
                    return null;
                } catch (Exception e) {
                    return e;
                }
            });
            assertSame(boom, thrown);
            Watchdog.awaitCondition("released", LIMIT, () -> pool.statistics().compensatingThreads() == 0,
                    pool.statistics()::toString);
            assertEquals(0, pool.statistics().blockedWorkers());
        }
    }

    @Test
    void outsideAWorkerASectionJustRuns() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("outside").build()) {
            Thread caller = Thread.currentThread();
            assertSame(caller, ForagePool.managedBlock(Thread::currentThread));
            assertEquals(0, pool.statistics().blockingSections());
        }
    }

    @Test
    void forkJoinStaysCorrectWhileWorkersBlock() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("fib").build()) {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> blockUntil(entered, gate));
            }
            assertTrue(entered.await(LIMIT.getSeconds(), TimeUnit.SECONDS));
            // Both core workers are blocked: the whole tree runs on the stand-ins.
            assertEquals(6765L, (long) pool.install(() -> Fib.join(pool, 20)));
            gate.countDown();
        }
    }


    @Test
    void shutdownWaitsForBlockedWorkAndEndsEveryThread() throws Exception {
        ForagePool pool = ForagePool.builder().threads(2).name("closing-blocked").build();
        CountDownLatch entered = new CountDownLatch(3);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger followUps = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> {
                blockUntil(entered, gate);
                followUps.incrementAndGet();
                try {
                    pool.execute(() -> { }); // from a worker, after shutdown: refused like any submission
                } catch (RejectedExecutionException e) {
                    refused.incrementAndGet();
                }
            });
        }
        assertTrue(entered.await(LIMIT.getSeconds(), TimeUnit.SECONDS));
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.blockingExecutor().execute(() -> { }));
        assertFalse(pool.awaitTermination(0, TimeUnit.SECONDS));
        gate.countDown();
        assertTrue(pool.awaitTermination(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
        assertEquals(3, followUps.get());
        assertEquals(3, refused.get());
        assertEquals(0, liveThreadsNamed("closing-blocked-"));
    }

    @Test
    void standInsEndAfterTheirKeepAlive() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).blockingKeepAlive(1, TimeUnit.MILLISECONDS)
                .name("keep-alive").build()) {
            for (int round = 0; round < 3; round++) {
                assertEquals(1, (int) pool.install(() -> block(() -> 1)));
                Watchdog.awaitCondition("stand-in ended", LIMIT,
                        () -> pool.statistics().compensatingThreads() == 0 && pool.statistics().spareThreads() == 0
                                && liveThreadsNamed("keep-alive-blocking-") == 0,
                        pool.statistics()::toString);
            }
            assertEquals(3, pool.statistics().compensations());
            // Ended stand-ins are not kept: only the last one started is still tracked for awaitTermination.
            assertEquals(1, ((ThreadedRunner) pool.registry().runner).extraThreadsSnapshot().length);
        }
    }

    @Test
    void shutdownEndsSparesWhateverStateTheirLastActivationLeftThem() throws Exception {
        // A keep-alive far beyond the budget: a spare that missed a wake-up would keep the pool from terminating.
        // Short sections make activations and releases race with the spare's own wake-up.
        for (int pools = 0; pools < 20; pools++) {
            ForagePool pool = ForagePool.builder().threads(1).blockingKeepAlive(1, TimeUnit.HOURS)
                    .name("spare-race").build();
            for (int round = 0; round < 50; round++) {
                assertEquals(round, (int) pool.install(() -> block(() -> 0)) + round);
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(LIMIT.getSeconds(), TimeUnit.SECONDS), pool.statistics()::toString);
        }
        assertEquals(0, liveThreadsNamed("spare-race-"));
    }

    @Test
    void badInputIsRejectedWithAClearMessage() {
        NullPointerException npe = assertThrows(NullPointerException.class, () -> ForagePool.managedBlock(null));
        assertTrue(npe.getMessage().contains("managedBlock"), npe.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().maxBlockingThreads(-1));
        assertTrue(negative.getMessage().contains("maxBlockingThreads must be between 0"), negative.getMessage());
        IllegalArgumentException keepAlive = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().blockingKeepAlive(0, TimeUnit.SECONDS));
        assertTrue(keepAlive.getMessage().contains("at least 1 ms"), keepAlive.getMessage());
        assertThrows(NullPointerException.class, () -> ForagePool.builder().blockingKeepAlive(1, null));
        try (ForagePool pool = ForagePool.builder().threads(1).maxBlockingThreads(0).name("no-blocking").build()) {
            IllegalArgumentException view = assertThrows(IllegalArgumentException.class,
                    () -> pool.blockingExecutor(0));
            assertTrue(view.getMessage().contains("at least 1"), view.getMessage());
            RejectedExecutionException none = assertThrows(RejectedExecutionException.class,
                    () -> pool.blockingExecutor().execute(() -> { }));
            assertTrue(none.getMessage().contains("maxBlockingThreads 0"), none.getMessage());
            assertThrows(NullPointerException.class, () -> pool.blockingExecutor().execute(null));
        }
    }

    /** A blocking section that counts {@code entered} down, then waits for {@code gate}. */
    private static void blockUntil(CountDownLatch entered, CountDownLatch gate) {
        block(() -> {
            entered.countDown();
            gate.await();
            return null;
        });
    }

    /** {@link ForagePool#managedBlock} for a body that throws no checked exception. */
    private static <T> T block(java.util.concurrent.Callable<T> body) {
        try {
            return ForagePool.managedBlock(body);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static int liveThreadsNamed(String prefix) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                n++;
            }
        }
        return n;
    }
}
