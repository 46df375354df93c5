package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.PoolStatistics;
import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blocking calls from pool jobs: each is a blocking section of the caller's own pool, run inline on the caller's
 * thread and compensated by that pool within its builder's {@code maxBlockingThreads}; the call's outcome comes
 * back unchanged. Every check reads statistics or waits for work that only a compensated pool can finish.
 */
@ExtendWith(Watchdog.class)
class ForageBlockingTest {
    private static final long LIMIT_SECONDS = Watchdog.LIMIT.getSeconds();

    @Test
    void outsideAPoolTheCallJustRuns() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).name("outside").build()) {
            assertSame(Thread.currentThread(), ForageBlocking.call(Thread::currentThread));
            Thread[] ranOn = new Thread[1];
            ForageBlocking.run(() -> ranOn[0] = Thread.currentThread());
            assertSame(Thread.currentThread(), ranOn[0]);
            assertEquals(0, pool.statistics().blockingSections());
        }
    }

    @Test
    void onAWorkerTheCallRunsOnTheCallersThreadInsideItsPool() {
        try (ForagePool pool = ForagePool.builder().threads(2).name("inline").build()) {
            List<Object> seen = ForageFutures.supplyAsync(() -> {
                List<Object> inCall = call(() -> {
                    List<Object> s = new ArrayList<>();
                    s.add(Thread.currentThread());
                    s.add(ForagePool.current());
                    return s;
                });
                inCall.add(Thread.currentThread());
                return inCall;
            }, pool).join();
            assertSame(seen.get(2), seen.get(0), "the call ran on another thread than its job");
            assertSame(pool, seen.get(1));
        }
    }

    @Test
    void aWorkerBlockedInACallIsCompensatedByItsPool() {
        // One worker: the job it pushes before blocking can only run if a stand-in takes the worker's place.
        try (ForagePool pool = ForagePool.builder().threads(1).name("compensated").build()) {
            CountDownLatch pushedRan = new CountDownLatch(1);
            int[] pushedRanOnIndex = {-2};
            Boolean released = ForageFutures.supplyAsync(() -> {
                pool.execute(() -> {
                    pushedRanOnIndex[0] = ForagePool.currentWorkerIndex();
                    pushedRan.countDown();
                }); // on this worker's own deque
                return call(() -> pushedRan.await(LIMIT_SECONDS, TimeUnit.SECONDS));
            }, pool).join();
            PoolStatistics s = pool.statistics();
            assertTrue(released, "the job pushed by the blocked worker never ran: " + s);
            assertTrue(pushedRanOnIndex[0] >= pool.parallelism(),
                    "the pushed job ran on worker " + pushedRanOnIndex[0] + ", not on a stand-in: " + s);
            assertEquals(1, s.blockingSections(), s::toString);
            assertEquals(1, s.compensations(), s::toString);
        }
    }

    @Test
    void statisticsShowTheSectionWhileItBlocks() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("statistics").build()) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ForageFuture<Void> blocker = ForageFutures.runAsync(() -> ForageBlocking.run(() -> {
                // Nested sections count once.
                call(() -> {
                    entered.countDown();
                    return release.await(LIMIT_SECONDS, TimeUnit.SECONDS);
                });
            }), pool);
            assertTrue(entered.await(LIMIT_SECONDS, TimeUnit.SECONDS), pool.statistics()::toString);
            PoolStatistics during = pool.statistics();
            release.countDown();
            blocker.join();
            assertEquals(1, during.blockedWorkers(), during::toString);
            assertEquals(1, during.compensatingThreads(), during::toString);
            PoolStatistics after = pool.statistics();
            assertEquals(0, after.blockedWorkers(), after::toString);
            assertEquals(1, after.blockingSections(), after::toString);
            assertEquals(1, after.mostBlockedWorkers(), after::toString);
        }
    }

    @Test
    void theLimitIsThePoolsOwn() throws Exception {
        // Two pools at once, each with one worker blocked in a call: only the one that allows a stand-in gets one.
        try (ForagePool none = ForagePool.builder().threads(2).maxBlockingThreads(0).name("none").build();
                ForagePool some = ForagePool.builder().threads(2).maxBlockingThreads(1).name("some").build()) {
            CountDownLatch entered = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            List<ForageFuture<Boolean>> blockers = new ArrayList<>();
            for (ForagePool pool : new ForagePool[] {none, some}) {
                blockers.add(ForageFutures.supplyAsync(() -> call(() -> {
                    entered.countDown();
                    return release.await(LIMIT_SECONDS, TimeUnit.SECONDS);
                }), pool));
            }
            assertTrue(entered.await(LIMIT_SECONDS, TimeUnit.SECONDS), none.statistics() + " / " + some.statistics());
            PoolStatistics withNone = none.statistics();
            PoolStatistics withSome = some.statistics();
            release.countDown();
            for (ForageFuture<Boolean> b : blockers) {
                assertTrue(b.join());
            }
            assertEquals(0, none.maxBlockingThreads());
            assertEquals(1, withNone.blockedWorkers(), withNone::toString);
            assertEquals(0, withNone.compensatingThreads(), withNone::toString);
            assertEquals(1, withSome.blockedWorkers(), withSome::toString);
            assertEquals(1, withSome.compensatingThreads(), withSome::toString);
            assertEquals(0, none.statistics().compensations());
            assertEquals(1, none.statistics().blockingSections());
        }
    }

    @Test
    void beyondMaxBlockingThreadsACallStillRunsWithoutAStandIn() throws Exception {
        // One worker, one stand-in: the worker blocks, its stand-in takes the second blocker and blocks too.
        try (ForagePool pool = ForagePool.builder().threads(1).maxBlockingThreads(1).name("beyond").build()) {
            CountDownLatch entered = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            ForageFuture<Boolean> second = ForageFutures.newFuture(pool);
            ForageFuture<Boolean> first = ForageFutures.supplyAsync(() -> {
                pool.execute(() -> second.complete(call(() -> {
                    entered.countDown();
                    return release.await(LIMIT_SECONDS, TimeUnit.SECONDS);
                })));
                return call(() -> {
                    entered.countDown();
                    return release.await(LIMIT_SECONDS, TimeUnit.SECONDS);
                });
            }, pool);
            assertTrue(entered.await(LIMIT_SECONDS, TimeUnit.SECONDS), pool.statistics()::toString);
            PoolStatistics s = pool.statistics();
            release.countDown();
            assertTrue(first.join());
            assertTrue(second.join());
            assertEquals(2, s.blockedWorkers(), s::toString);
            assertEquals(1, s.compensatingThreads(), s::toString);
        }
    }

    @Test
    void onASingleThreadedPoolTheCallRunsWithoutAStandIn() throws Exception {
        try (ForagePool pool = ForagePool.builder().singleThreaded().name("single").build()) {
            PoolStatistics[] during = new PoolStatistics[1];
            Thread[] ranOn = new Thread[1];
            pool.execute(() -> ForageBlocking.run(() -> {
                during[0] = pool.statistics();
                ranOn[0] = Thread.currentThread();
            }));
            pool.runPending();
            assertSame(Thread.currentThread(), ranOn[0]);
            assertEquals(0, during[0].compensatingThreads(), during[0]::toString);
        }
    }

    @Test
    void theCallsExceptionComesBackUnchanged() {
        try (ForagePool pool = ForagePool.builder().threads(1).name("throws").build()) {
            IOException io = new IOException("disk");
            Throwable seen = ForageFutures.supplyAsync(() -> {
                try {
                    ForageBlocking.call(() -> {
                        throw io;
                    });
                    return null;
                } catch (Exception e) {
                    return e;
                }
            }, pool).join();
            assertSame(io, seen);
            assertSame(io, assertThrows(IOException.class, () -> ForageBlocking.call(() -> {
                throw io;
            })));

            IllegalStateException unchecked = new IllegalStateException("state");
            CompletableFuture<Void> run = ForageFutures.runAsync(() -> ForageBlocking.run(() -> {
                throw unchecked;
            }), pool);
            assertSame(unchecked, assertThrows(CompletionException.class, run::join).getCause());
            AssertionError error = new AssertionError("error");
            assertSame(error, assertThrows(AssertionError.class, () -> ForageBlocking.run(() -> {
                throw error;
            })));
            // A checked exception that a Runnable throws anyway is not wrapped either.
            assertSame(io, assertThrows(IOException.class, () -> ForageBlocking.run(() -> sneakyThrow(io))));

            PoolStatistics after = pool.statistics();
            assertEquals(0, after.blockedWorkers(), after::toString); // a failed call leaves its section
        }
    }

    @Test
    void shutdownNowInterruptsTheBlockingCallOfARunningTask() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).name("interrupted").build()) {
            ForageExecutorService executor = ForageExecutorService.viewOf(pool);
            CountDownLatch callStarted = new CountDownLatch(1);
            CompletableFuture<Throwable> seenByTheCall = new CompletableFuture<>();
            Future<?> task = executor.submit(() -> ForageBlocking.call(() -> {
                callStarted.countDown();
                try {
                    new CountDownLatch(1).await();
                    return null;
                } catch (InterruptedException e) {
                    seenByTheCall.complete(e);
                    throw e;
                }
            }));
            assertTrue(callStarted.await(LIMIT_SECONDS, TimeUnit.SECONDS), pool.statistics()::toString);
            executor.shutdownNow();
            assertInstanceOf(InterruptedException.class, seenByTheCall.get(LIMIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(executor.awaitTermination(LIMIT_SECONDS, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class,
                    assertThrows(ExecutionException.class, task::get).getCause());
        }
    }

    @Test
    void anInterruptPendingOnTheWorkerReachesTheCallAndStays() {
        try (ForagePool pool = ForagePool.builder().threads(1).name("flag").build()) {
            boolean[] seen = ForageFutures.supplyAsync(() -> {
                Thread.currentThread().interrupt();
                boolean inCall = call(() -> Thread.currentThread().isInterrupted());
                return new boolean[] {inCall, Thread.interrupted()};
            }, pool).join();
            assertTrue(seen[0], "the call did not see the interrupt set before it");
            assertTrue(seen[1], "the interrupt the call left set did not come back to the job");
        }
    }

    @Test
    void supplyBlockingAsyncRunsOnThePoolsBlockingExecutor() {
        try (ForagePool pool = ForagePool.builder().threads(1).name("supply").build()) {
            // The supplier waits for a job on the pool's only worker: it runs only if its section is compensated.
            CountDownLatch other = new CountDownLatch(1);
            ForageFuture<Boolean> value = ForageFutures.supplyBlockingAsync(() -> {
                pool.execute(other::countDown);
                return uninterruptedAwait(other);
            }, pool);
            assertTrue(value.join(), pool.statistics()::toString);
            assertSame(pool, value.pool());
            assertEquals(1, pool.statistics().blockingSections(), pool.statistics()::toString);

            IllegalStateException boom = new IllegalStateException("boom");
            ForageFuture<Void> failed = ForageFutures.runBlockingAsync(() -> {
                throw boom;
            }, pool);
            assertSame(boom, assertThrows(CompletionException.class, failed::join).getCause());
        }
    }

    @Test
    void blockingFuturesAreRejectedByAPoolWithoutBlockingThreads() {
        try (ForagePool pool = ForagePool.builder().threads(1).maxBlockingThreads(0).name("zero").build()) {
            assertThrows(RejectedExecutionException.class, () -> ForageFutures.supplyBlockingAsync(() -> 1, pool));
            assertThrows(RejectedExecutionException.class, () -> ForageFutures.runBlockingAsync(() -> { }, pool));
        }
    }

    @Test
    void nullArgumentsAreRejectedWithAClearMessage() {
        NullPointerException call = assertThrows(NullPointerException.class, () -> ForageBlocking.call(null));
        assertEquals("ForageBlocking.call: blocking must not be null", call.getMessage());
        NullPointerException run = assertThrows(NullPointerException.class, () -> ForageBlocking.run(null));
        assertEquals("ForageBlocking.run: blocking must not be null", run.getMessage());
        ForagePool common = ForagePool.commonPool();
        assertThrows(NullPointerException.class, () -> ForageFutures.supplyBlockingAsync(null, common));
        assertThrows(NullPointerException.class, () -> ForageFutures.runBlockingAsync(() -> { }, null));
    }

    /** {@link ForageBlocking#call} for a job: a checked exception would fail the test. */
    private static <T> T call(java.util.concurrent.Callable<T> blocking) {
        try {
            return ForageBlocking.call(blocking);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static boolean uninterruptedAwait(CountDownLatch latch) {
        try {
            return latch.await(LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }
}
