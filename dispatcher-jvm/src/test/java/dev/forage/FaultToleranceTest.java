package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.ChildJvm;
import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Faults that come from user code: Errors thrown by jobs (a real stack overflow, an OutOfMemoryError thrown by
 * the job itself), a thread factory that fails or returns null, an uncaught-exception handler that throws, and
 * jobs that interrupt worker threads. In every case the pool keeps running, every accepted job still runs
 * exactly once, and whatever is reported says what happened.
 */
@Watchdog.Budget(seconds = 120)
class FaultToleranceTest {
    private final List<Throwable> handled = new CopyOnWriteArrayList<>();

    private ForagePool pool(int threads) {
        return ForagePool.builder().threads(threads).name(Pools.uniqueName())
                .uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
    }

    /** Recurses until the stack runs out: a real StackOverflowError, not one constructed by the test. */
    private static int overflow(int depth) {
        return overflow(depth + 1) + 1;
    }

    /** Runs {@code jobs} counting jobs from outside and waits until all ran; fails if any is lost. */
    private static void assertRunsEveryJob(ForagePool pool, int jobs) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(jobs);
        for (int i = 0; i < jobs; i++) {
            pool.execute(ran::countDown);
        }
        assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " of " + jobs + " accepted jobs never ran");
    }

    // Errors in jobs.

    @Test
    void errorsInFireAndForgetJobsReachTheHandlerAndLoseNoOtherJob() throws Exception {
        try (ForagePool pool = pool(2)) {
            Set<Thread> before = Pools.runOnEveryWorker(pool, () -> { });
            OutOfMemoryError oom = new OutOfMemoryError("thrown by the job, not by the heap");
            int jobs = 2_000;
            CountDownLatch ran = new CountDownLatch(jobs);
            for (int i = 0; i < jobs; i++) {
                if (i == 10) {
                    pool.execute(() -> overflow(0));
                } else if (i == 20) {
                    pool.execute(() -> {
                        throw oom;
                    });
                }
                pool.execute(ran::countDown);
            }
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " accepted jobs never ran");
            Poll.until("both errors handled", () -> handled.size() == 2, handled::toString);
            assertTrue(handled.get(0) instanceof StackOverflowError || handled.get(1) instanceof StackOverflowError,
                    handled.toString());
            assertTrue(handled.contains(oom), handled.toString());
            assertEquals(before, Pools.runOnEveryWorker(pool, () -> { }), "a worker died of an Error");
        }
    }

    @Test
    void anErrorInAJoinedJobReachesTheJoinerAfterItsSiblingRan() throws Exception {
        try (ForagePool pool = pool(2)) {
            AtomicInteger siblingRuns = new AtomicInteger();
            assertThrows(StackOverflowError.class, () -> pool.install(() -> pool.join(
                    () -> overflow(0),
                    () -> siblingRuns.incrementAndGet())));
            assertEquals(1, siblingRuns.get(), "the sibling of the failed job must run exactly once");
            OutOfMemoryError oom = new OutOfMemoryError("thrown by the job");
            OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> pool.install(() -> pool.join(
                    () -> 1,
                    () -> {
                        throw oom;
                    })));
            assertSame(oom, thrown, "the joiner must get the job's own Error");
            assertEquals(3, pool.install(() -> 3));
            assertRunsEveryJob(pool, 1_000);
            assertTrue(handled.isEmpty(), "an Error someone waits for is not uncaught: " + handled);
        }
    }

    @Test
    void anErrorInAScopeJobReachesTheScopeAfterEveryOtherSpawnedJobRan() throws Exception {
        try (ForagePool pool = pool(2)) {
            AtomicInteger others = new AtomicInteger();
            OutOfMemoryError oom = new OutOfMemoryError("thrown by a spawned job");
            OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> pool.scope(scope -> {
                for (int i = 0; i < 100; i++) {
                    int n = i;
                    scope.spawn(() -> {
                        if (n == 50) {
                            throw oom;
                        }
                        others.incrementAndGet();
                    });
                }
                return null;
            }));
            assertSame(oom, thrown, "the scope must get the job's own Error");
            assertEquals(99, others.get(), "every other spawned job runs exactly once");
            assertThrows(StackOverflowError.class, () -> pool.scope(scope -> {
                scope.spawn(() -> overflow(0));
                scope.spawn(others::incrementAndGet);
                return null;
            }));
            assertEquals(100, others.get());
            assertRunsEveryJob(pool, 1_000);
        }
    }

    // Thread factories.

    @Test
    void aThreadFactoryThatThrowsFailsBuildClearlyAndStartsNoThread() {
        List<Thread> made = new ArrayList<>();
        IllegalStateException failure = new IllegalStateException("no more threads allowed");
        ThreadFactory factory = r -> {
            if (made.size() == 1) {
                throw failure;
            }
            Thread t = new Thread(r, "made-" + made.size());
            made.add(t);
            return t;
        };
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> ForagePool.builder().threads(3).name("factory-throws").threadFactory(factory).build());
        assertTrue(e == failure || e.getCause() == failure, "the factory's own failure is lost: " + e);
        for (Thread t : made) {
            assertEquals(Thread.State.NEW, t.getState(), "a worker thread started though build() failed");
        }
        try (ForagePool after = pool(1)) {
            assertEquals(1, after.install(() -> 1));
        }
    }

    @Test
    void aThreadFactoryThatThrowsIsNamedInTheMessage() {
        ThreadFactory factory = r -> {
            throw new IllegalStateException("no more threads allowed");
        };
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> ForagePool.builder().threads(2).name("factory-named").threadFactory(factory).build());
        assertTrue(e.getMessage() != null && e.getMessage().contains("thread factory")
                && e.getMessage().contains("factory-named"),
                "the message does not say that the pool's thread factory failed: " + e);
    }

    @Test
    void aThreadFactoryThatReturnsNullFailsBuildWithTheRule() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ForagePool.builder().threads(2).name("factory-null").threadFactory(r -> null).build());
        assertTrue(e.getMessage().contains("thread factory returned null"), e.getMessage());
    }

    @Test
    void aThreadFactoryThatReturnsAStartedThreadFailsBuildAndNothingKeepsRunning() throws Exception {
        List<Thread> made = new CopyOnWriteArrayList<>();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "prestarted-" + made.size());
            t.setDaemon(true);
            made.add(t);
            t.start(); // the factory's mistake: the pool must still get a NEW thread
            return t;
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ForagePool.builder().threads(2).name("factory-started").threadFactory(factory).build());
        assertTrue(e.getMessage().contains("started already") && e.getMessage().contains("factory-started"),
                e.getMessage());
        assertFalse(made.isEmpty());
        for (Thread t : made) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive(), t.getName() + " still runs a worker loop of the pool that failed to build");
        }
    }

    @Test
    void aStartedThreadForAStandInIsRefusedAndTheSectionStillRuns() throws Exception {
        List<Thread> prestarted = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "factory-" + calls.get());
            t.setDaemon(true);
            if (calls.getAndIncrement() >= 2) { // the core workers get good threads, a stand-in a started one
                prestarted.add(t);
                t.start();
            }
            return t;
        };
        try (ForagePool pool = ForagePool.builder().threads(2).name(Pools.uniqueName()).threadFactory(factory)
                .uncaughtExceptionHandler((t, e) -> handled.add(e)).build()) {
            assertEquals("blocked", pool.install(() -> {
                try {
                    return ForagePool.managedBlock(() -> "blocked");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }));
            assertEquals(1, prestarted.size(), "no stand-in was asked for");
            Poll.until("the refusal reached the handler", () -> !handled.isEmpty(), handled::toString);
            assertTrue(handled.get(0) instanceof IllegalStateException
                    && handled.get(0).getMessage().contains("started already"), handled.toString());
            prestarted.get(0).join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(prestarted.get(0).isAlive(), "the refused thread runs the stand-in's loop");
            assertRunsEveryJob(pool, 100);
        }
    }

    // Handlers.

    @Test
    void aHandlerThatThrowsReportsBothFailuresOnSystemErr() throws Exception {
        String out = ChildJvm.run(2, Collections.<String>emptyList(), ThrowingHandlerMain.class);
        assertTrue(out.contains(ThrowingHandlerMain.DONE), out);
        assertTrue(out.contains("thrown from the UncaughtExceptionHandler in thread \"throwing-handler-worker-0\""),
                "the handler's failure is not reported as the JVM reports it:\n" + out);
        assertTrue(out.contains(ThrowingHandlerMain.JOB_FAILURE), "the job's failure vanished:\n" + out);
        assertTrue(out.contains(ThrowingHandlerMain.HANDLER_FAILURE), "the handler's failure vanished:\n" + out);
    }

    @Test
    void aHandlerThatThrowsAnErrorKillsNoWorkerAndLosesNoJob() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        // Without blocked-job detection: each failure is printed to System.err, and a worker slowed by that write
        // may rightly get a stand-in, which would be another thread than the ones this test compares.
        try (ForagePool pool = ForagePool.builder().threads(2).name(Pools.uniqueName())
                .blockingDetection(0, TimeUnit.MILLISECONDS)
                .uncaughtExceptionHandler((t, e) -> {
                    calls.incrementAndGet();
                    throw new OutOfMemoryError("thrown by the handler");
                }).build()) {
            Set<Thread> before = Pools.runOnEveryWorker(pool, () -> { });
            int jobs = 1_000;
            CountDownLatch ran = new CountDownLatch(jobs);
            for (int i = 0; i < jobs; i++) {
                if (i % 100 == 0) {
                    pool.execute(() -> {
                        throw new IllegalStateException("job");
                    });
                }
                pool.execute(ran::countDown);
            }
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " accepted jobs never ran");
            Poll.until("the handler saw every failure", () -> calls.get() == 10, () -> calls + " calls");
            assertEquals(before, Pools.runOnEveryWorker(pool, () -> { }), "a worker died of its handler");
        }
    }

    // Interrupts from user code.

    @Test
    void aJobThatInterruptsItsOwnWorkerLeavesNoInterruptForTheNextJob() throws Exception {
        try (ForagePool pool = pool(1)) {
            int jobs = 1_000;
            AtomicInteger sawInterrupt = new AtomicInteger();
            CountDownLatch ran = new CountDownLatch(jobs);
            for (int i = 0; i < jobs; i++) {
                pool.execute(() -> Thread.currentThread().interrupt());
                pool.execute(() -> {
                    if (Thread.currentThread().isInterrupted()) {
                        sawInterrupt.incrementAndGet();
                    }
                    ran.countDown();
                });
            }
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " accepted jobs never ran");
            assertEquals(0, sawInterrupt.get(), "an interrupt leaked from one job into the next");
        }
    }

    @Test
    void jobsThatInterruptOtherWorkersLoseNoJobAndTheWorkersSurvive() throws Exception {
        try (ForagePool pool = pool(4)) {
            List<Thread> workers = Pools.workerThreads(pool);
            int jobs = 20_000;
            CountDownLatch ran = new CountDownLatch(jobs);
            CountDownLatch interrupters = new CountDownLatch((jobs + 6) / 7);
            AtomicInteger runs = new AtomicInteger();
            for (int i = 0; i < jobs; i++) {
                Thread victim = workers.get(i % workers.size());
                if (i % 7 == 0) {
                    pool.execute(() -> { // hits a worker that runs, searches or sleeps right now
                        victim.interrupt();
                        interrupters.countDown();
                    });
                }
                pool.execute(() -> {
                    runs.incrementAndGet();
                    ran.countDown();
                });
            }
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " accepted jobs never ran");
            assertTrue(interrupters.await(60, TimeUnit.SECONDS), interrupters.getCount() + " jobs never ran");
            // Interrupt the workers once more from outside, asleep: they must go back to sleep and still wake.
            Pools.awaitAllAsleep(pool);
            for (Thread w : workers) {
                w.interrupt();
            }
            assertRunsEveryJob(pool, 1_000);
            assertEquals(jobs, runs.get(), "a job ran twice or not at all");
            for (Thread w : workers) {
                assertTrue(w.isAlive(), "an interrupt killed " + w);
            }
        }
        assertTrue(handled.isEmpty(), "interrupts are not failures: " + handled);
    }

    @Test
    void anInterruptOfAnIdleWorkerDoesNotReachTheNextJob() throws Exception {
        try (ForagePool pool = pool(1)) {
            Thread worker = Pools.workerThreads(pool).get(0);
            for (int round = 0; round < 20; round++) {
                Pools.awaitAllAsleep(pool);
                worker.interrupt();
                CountDownLatch ran = new CountDownLatch(1);
                AtomicInteger sawInterrupt = new AtomicInteger();
                pool.execute(() -> {
                    if (Thread.currentThread().isInterrupted()) {
                        sawInterrupt.incrementAndGet();
                    }
                    ran.countDown();
                });
                assertTrue(ran.await(60, TimeUnit.SECONDS), "the job never ran");
                assertEquals(0, sawInterrupt.get(), "round " + round + ": the idle worker's interrupt reached a job");
            }
        }
    }

    @Test
    void aJoinWhoseWorkerIsInterruptedStillCompletesWithBothResults() throws Exception {
        try (ForagePool pool = pool(2)) {
            for (int round = 0; round < 200; round++) {
                JoinResult<Integer, Integer> r = pool.install(() -> pool.join(
                        () -> {
                            Thread.currentThread().interrupt(); // the joiner's own thread, while it waits
                            return 1;
                        },
                        () -> 2));
                assertEquals(1, r.first());
                assertEquals(2, r.second());
            }
            assertRunsEveryJob(pool, 1_000);
        }
    }

    @Test
    void aPoolShutDownAfterFaultsStillTerminates() throws Exception {
        ForagePool pool = pool(2);
        pool.execute(() -> overflow(0));
        pool.execute(() -> Thread.currentThread().interrupt());
        pool.execute(() -> {
            throw new OutOfMemoryError("thrown by the job");
        });
        assertRunsEveryJob(pool, 100);
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "faults kept the pool from terminating");
        assertFalse(pool.isCurrentThreadWorker());
    }
}
