package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The life cycle: what runs, what is rejected, and that nothing is left behind. */
@Watchdog.Budget(seconds = 120)
class ShutdownTest {
    @Test
    void everyJobAcceptedBeforeShutdownRuns() throws Exception {
        int outside = 20_000;
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ForagePool pool = Pools.pool(4);
        for (int i = 0; i < outside; i++) {
            int id = i;
            pool.execute(() -> {
                ran.incrementAndGet();
                if (id % 10 == 0) {
                    // A running job's submission is accepted before shutdown and runs, or refused after it and
                    // the job is told: never accepted and dropped.
                    try {
                        pool.execute(ran::incrementAndGet);
                    } catch (RejectedExecutionException e) {
                        refused.incrementAndGet();
                    }
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.isShutdown());
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "did not terminate: " + pool.statistics());
        assertTrue(pool.isTerminated());
        assertEquals(outside + outside / 10, ran.get() + refused.get(), "jobs accepted before shutdown were dropped");
        assertEquals(List.of(), Pools.liveThreadsOf(pool), "pool threads alive after awaitTermination");
    }

    /**
     * Outside submitters race the shutdown: each job is either accepted, and then runs, or rejected; none is
     * accepted and dropped. The admission is the injector's claim CAS against its close (jcstress
     * {@code InjectorCloseVsPush}); here through the whole pool, with the workers draining while it closes.
     */
    @Test
    void submissionsRacingShutdownEitherRunOrAreRejected() throws Exception {
        for (int round = 0; round < 20; round++) {
            ForagePool pool = Pools.pool(2);
            AtomicInteger ran = new AtomicInteger();
            int submitters = 3;
            AtomicInteger[] accepted = new AtomicInteger[submitters];
            CountDownLatch started = new CountDownLatch(submitters);
            AtomicInteger rejected = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < submitters; t++) {
                AtomicInteger mine = accepted[t] = new AtomicInteger();
                Thread thread = new Thread(() -> {
                    try {
                        // Bounded, so that a pool that never rejects fails the test instead of filling the heap.
                        while (mine.get() < 5_000_000) {
                            pool.execute(ran::incrementAndGet);
                            if (mine.incrementAndGet() == 1_000) {
                                started.countDown();
                            }
                        }
                    } catch (RejectedExecutionException expected) {
                        rejected.incrementAndGet(); // the pool is shut down: this submitter is done
                    }
                });
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            started.await();
            pool.shutdown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(submitters, rejected.get(), "round " + round + ": submitters accepted after shutdown");
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "did not terminate: " + pool.statistics());
            int total = 0;
            for (AtomicInteger a : accepted) {
                total += a.get();
            }
            assertEquals(total, ran.get(), "round " + round + ": accepted jobs that did not run (or ran twice)");
        }
    }

    @Test
    void outsideSubmissionsAfterShutdownAreRejectedWithAClearMessage() throws Exception {
        ForagePool pool = Pools.pool(2);
        pool.shutdown();
        List<Executable> submissions = List.of(
                () -> pool.execute(() -> { }),
                () -> pool.executeFair(() -> { }),
                () -> pool.schedule(() -> { }, 1, TimeUnit.MILLISECONDS),
                () -> pool.install(() -> 1),
                () -> pool.join(() -> 1, () -> 2),
                () -> pool.scope(s -> 1));
        for (Executable submission : submissions) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, submission);
            assertTrue(e.getMessage().contains(pool.name()) && e.getMessage().contains("shut down"),
                    e.getMessage());
        }
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
    }

    /** A job that submits itself again, forever: ForkJoinPool would run it after shutdown and never terminate. */
    static final class Resubmitting implements Runnable {
        final ForagePool pool;
        final CountDownLatch running = new CountDownLatch(1);
        final AtomicInteger runs = new AtomicInteger();
        final List<RejectedExecutionException> refused = new CopyOnWriteArrayList<>();
        final boolean fair;

        Resubmitting(ForagePool pool, boolean fair) {
            this.pool = pool;
            this.fair = fair;
        }

        @Override
        public void run() {
            runs.incrementAndGet();
            running.countDown();
            try {
                if (fair) {
                    pool.executeFair(this);
                } else {
                    pool.execute(this);
                }
            } catch (RejectedExecutionException e) {
                refused.add(e);
            }
        }
    }

    @ParameterizedTest(name = "fair {0}")
    @ValueSource(booleans = {false, true})
    void closeReturnsWhileAJobResubmitsItselfBecauseItsResubmissionIsRefused(boolean fair) throws Exception {
        ForagePool pool = Pools.pool(2);
        Resubmitting job = new Resubmitting(pool, fair);
        pool.execute(job);
        job.running.await();
        pool.close(); // never returned while workers' own submissions were accepted after shutdown
        assertTrue(pool.isTerminated());
        assertEquals(1, job.refused.size(), "the one run after shutdown is told so, once");
        RejectedExecutionException e = job.refused.get(0);
        assertTrue(e.getMessage().contains(pool.name()) && e.getMessage().contains("shut down"), e.getMessage());
    }

    @Test
    void afterShutdownAcceptedJobsStillJoinAndSpawnIntoTheirScopes() throws Exception {
        ForagePool pool = Pools.pool(2);
        CountDownLatch shutDown = new CountDownLatch(1);
        AtomicLong result = new AtomicLong();
        pool.execute(() -> {
            await(shutDown);
            // Structured work a running job waits for is not a new submission: it still runs.
            long sum = pool.scope(s -> {
                AtomicLong inScope = new AtomicLong();
                for (int i = 0; i < 10; i++) {
                    s.spawn(() -> inScope.addAndGet(pool.join(() -> 1L, () -> 2L).second()));
                }
                return inScope;
            }).get();
            result.set(sum);
        });
        pool.shutdown();
        shutDown.countDown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        assertEquals(20L, result.get());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void closeIsIdempotentAndLeavesNoThreadAlive() throws Exception {
        ForagePool pool = Pools.pool(3);
        assertEquals(3, Pools.liveThreadsOf(pool).size());
        assertEquals(2, pool.install(() -> 2));
        pool.close();
        assertTrue(pool.isTerminated());
        assertEquals(List.of(), Pools.liveThreadsOf(pool));
        pool.close();
        pool.shutdown();
        assertTrue(pool.shutdownNow().isEmpty());
        assertTrue(pool.awaitTermination(0, TimeUnit.SECONDS));
        assertTrue(pool.isTerminated());
    }

    @Test
    void awaitTerminationWaitsOnlyAfterShutdown() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            assertFalse(pool.awaitTermination(20, TimeUnit.MILLISECONDS), "a running pool is not terminated");
            assertFalse(pool.isTerminated());
            assertFalse(pool.isShutdown());
        }
    }

    @Test
    void closeFromInsideAWorkerShutsDownWithoutWaitingForItself() throws Exception {
        ForagePool pool = Pools.pool(2);
        CountDownLatch closed = new CountDownLatch(1);
        pool.execute(() -> {
            pool.close();
            closed.countDown();
        });
        closed.await();
        assertTrue(pool.isShutdown());
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        assertEquals(List.of(), Pools.liveThreadsOf(pool));
    }

    @Test
    void awaitTerminationOnAWorkerIsRefused() {
        try (ForagePool pool = Pools.pool(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.install(() -> {
                try {
                    return pool.awaitTermination(1, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    throw new AssertionError(ex);
                }
            }));
            assertTrue(e.getMessage().contains("would wait for itself"), e.getMessage());
        }
    }

    @Test
    void shutdownNowReturnsQueuedInjectedJobsAndPendingTimers() throws Exception {
        ForagePool pool = Pools.pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        pool.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                // shutdownNow interrupts the workers: this job ends
            }
        });
        started.await();
        Set<Runnable> queued = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < 5; i++) {
            Runnable job = ran::incrementAndGet;
            queued.add(job);
            pool.execute(job);
        }
        Runnable fair = ran::incrementAndGet;
        queued.add(fair);
        pool.executeFair(fair);
        for (int i = 0; i < 3; i++) {
            Runnable timed = ran::incrementAndGet;
            queued.add(timed);
            pool.schedule(timed, 1, TimeUnit.HOURS);
        }
        List<Runnable> never = pool.shutdownNow();
        release.countDown();
        Set<Runnable> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(never);
        assertEquals(never.size(), returned.size(), "a job was returned twice");
        assertEquals(queued, returned);
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        assertEquals(0, ran.get(), "a job returned by shutdownNow ran anyway");
        assertEquals(List.of(), Pools.liveThreadsOf(pool));
    }

    @Test
    void aPendingTimerStillFiresAfterShutdown() throws Exception {
        ForagePool pool = Pools.pool(2);
        CountDownLatch fired = new CountDownLatch(1);
        pool.schedule(fired::countDown, 30, TimeUnit.MILLISECONDS);
        pool.shutdown();
        fired.await();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
    }

    @Test
    void theCommonPoolRefusesShutdownAndKeepsWorking() {
        ForagePool common = ForagePool.commonPool();
        List<Executable> attempts = new ArrayList<>();
        attempts.add(common::shutdown);
        attempts.add(common::shutdownNow);
        attempts.add(common::close);
        for (Executable attempt : attempts) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, attempt);
            assertTrue(e.getMessage().contains("common pool"), e.getMessage());
        }
        assertFalse(common.isShutdown());
        assertEquals(4, common.install(() -> 4));
        assertTrue(common.name().startsWith("forage-common"));
    }

    @Test
    void aThreadFactorysThreadsAreWorkersAndEndOnShutdown() throws Exception {
        AtomicInteger made = new AtomicInteger();
        List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "custom-" + made.incrementAndGet());
            t.setDaemon(true);
            threads.add(t);
            return t;
        };
        ForagePool pool = ForagePool.builder().threads(2).threadFactory(factory).build();
        assertEquals(2, made.get());
        assertTrue(threads.contains(pool.install(Thread::currentThread)));
        assertTrue(pool.install(pool::isCurrentThreadWorker));
        assertEquals(1, pool.install(() -> pool.install(() -> 1)), "inline install needs the worker lookup");
        pool.close();
        for (Thread t : threads) {
            assertFalse(t.isAlive());
        }
    }

    @Test
    void aThreadFactoryReturningNullFailsTheBuildClearly() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ForagePool.builder().threads(2).threadFactory(r -> null).build());
        assertTrue(e.getMessage().contains("returned null"), e.getMessage());
    }
}
