package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The ExecutorService contract, as a Java user relies on it, on an executor that owns its pool. */
@ExtendWith(Watchdog.class)
class ExecutorServiceContractTest {
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Released in @AfterEach, so that no blocked task outlives its test. */
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void closeAll() throws Exception {
        never.countDown();
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private ForageExecutorService owning(int threads) {
        ForageExecutorService executor = ForageExecutorService.owning(
                ForagePool.builder().threads(threads).name("contract").build());
        toClose.add(executor);
        return executor;
    }

    /** A task that blocks until released, and reports being interrupted. */
    private static final class Blocker implements Callable<String> {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release;
        final CompletableFuture<Boolean> interrupted = new CompletableFuture<>();

        Blocker(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public String call() throws InterruptedException {
            started.countDown();
            try {
                release.await();
                interrupted.complete(false);
                return "released";
            } catch (InterruptedException e) {
                interrupted.complete(true);
                throw e;
            }
        }
    }

    // Submission.

    @Test
    void submitRunsCallablesAndRunnablesOnThePool() throws Exception {
        ForageExecutorService executor = owning(2);
        assertSame(executor.pool(), executor.submit(ForagePool::current).get());
        AtomicInteger ran = new AtomicInteger();
        assertNull(executor.submit((Runnable) ran::incrementAndGet).get());
        assertEquals("given", executor.submit(ran::incrementAndGet, "given").get());
        assertEquals(2, ran.get());
    }

    @Test
    void aSubmittedTaskKeepsItsExceptionInItsFuture() throws Exception {
        ForageExecutorService executor = owning(2);
        IllegalStateException boom = new IllegalStateException("boom");
        Future<Object> f = executor.submit(() -> {
            throw boom;
        });
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertSame(boom, e.getCause());
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
    }

    @Test
    void anExecutedTaskThatThrowsReachesThePoolsHandler() throws Exception {
        CompletableFuture<Throwable> handled = new CompletableFuture<>();
        ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(1)
                .uncaughtExceptionHandler((thread, error) -> handled.complete(error)).build());
        toClose.add(executor);
        IllegalStateException boom = new IllegalStateException("boom");
        executor.execute(() -> {
            throw boom;
        });
        assertSame(boom, handled.get(30, TimeUnit.SECONDS));
        assertEquals(7, executor.submit(() -> 7).get(), "the worker survived the exception");
    }

    @Test
    void nullArgumentsAreRejectedWithTheirName() {
        ForageExecutorService executor = owning(1);
        NullPointerException e = assertThrows(NullPointerException.class, () -> executor.submit((Callable<?>) null));
        assertTrue(e.getMessage().contains("task"), e.getMessage());
        assertThrows(NullPointerException.class, () -> executor.execute(null));
        assertThrows(NullPointerException.class, () -> executor.invokeAll(null));
    }

    // invokeAll.

    @Test
    void invokeAllWaitsForAllAndKeepsTheOrder() throws Exception {
        ForageExecutorService executor = owning(2);
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int n = i;
            tasks.add(() -> {
                if (n == 17) {
                    throw new IllegalArgumentException("seventeen");
                }
                return n * n;
            });
        }
        List<Future<Integer>> results = executor.invokeAll(tasks);
        assertEquals(50, results.size());
        for (int i = 0; i < 50; i++) {
            Future<Integer> f = results.get(i);
            assertTrue(f.isDone(), "invokeAll returned before task " + i + " was done");
            if (i == 17) {
                ExecutionException e = assertThrows(ExecutionException.class, f::get);
                assertEquals("seventeen", e.getCause().getMessage());
            } else {
                assertEquals(i * i, f.get());
            }
        }
    }

    @Test
    void invokeAllWithATimeoutCancelsAndInterruptsWhatIsNotDone() throws Exception {
        ForageExecutorService executor = owning(2);
        Blocker blocker = new Blocker(never);
        List<Future<String>> results = executor.invokeAll(List.<Callable<String>>of(() -> "quick", blocker), 50,
                TimeUnit.MILLISECONDS);
        assertEquals("quick", results.get(0).get());
        assertTrue(results.get(1).isCancelled());
        assertTrue(results.get(1).isDone());
        if (blocker.started.getCount() == 0) {
            assertTrue(blocker.interrupted.get(30, TimeUnit.SECONDS), "the running task was not interrupted");
        }
    }

    // invokeAny.

    @Test
    void invokeAnyReturnsTheSuccessDespiteEarlierFailures() throws Exception {
        ForageExecutorService executor = owning(2);
        CountDownLatch failures = new CountDownLatch(3);
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            tasks.add(() -> {
                failures.countDown();
                throw new IllegalStateException("failure " + n);
            });
        }
        tasks.add(() -> {
            failures.await(); // succeed only after every other task failed
            return "success";
        });
        assertEquals("success", executor.invokeAny(tasks));
    }

    @Test
    void invokeAnyThrowsExecutionExceptionWhenAllFail() {
        ForageExecutorService executor = owning(2);
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            tasks.add(() -> {
                throw new IllegalStateException("failure " + n);
            });
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> executor.invokeAny(tasks));
        Set<String> messages = new HashSet<>();
        messages.add(e.getCause().getMessage());
        for (Throwable s : e.getSuppressed()) {
            messages.add(s.getMessage());
        }
        assertEquals(Set.of("failure 0", "failure 1", "failure 2", "failure 3"), messages);
    }

    @Test
    void invokeAnyCancelsAndInterruptsTheOthers() throws Exception {
        ForageExecutorService executor = owning(2);
        Blocker slow = new Blocker(never);
        Callable<String> fast = () -> {
            slow.started.await(); // return only once the slow one is running, so it must be interrupted
            return "fast";
        };
        assertEquals("fast", executor.invokeAny(List.<Callable<String>>of(slow, fast)));
        assertTrue(slow.interrupted.get(30, TimeUnit.SECONDS), "the losing task was not interrupted");
    }

    @Test
    void invokeAnyTimesOutWhenNothingSucceeds() throws Exception {
        ForageExecutorService executor = owning(2);
        Blocker a = new Blocker(never);
        assertThrows(TimeoutException.class,
                () -> executor.invokeAny(List.<Callable<String>>of(a, () -> {
                    throw new IllegalStateException("fails");
                }), 50, TimeUnit.MILLISECONDS));
        if (a.started.getCount() == 0) {
            assertTrue(a.interrupted.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void invokeAnyRejectsAnEmptyCollection() {
        ForageExecutorService executor = owning(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> executor.invokeAny(List.<Callable<String>>of()));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    // Helping waits on a pool of one worker.

    @Test
    void getInsideATaskOnOneWorkerRunsTheAwaitedTaskInsteadOfDeadlocking() throws Exception {
        ForageExecutorService executor = owning(1);
        Future<Integer> outer = executor.submit(() -> executor.submit(() -> 41).get() + 1);
        assertEquals(42, outer.get());
        Future<Integer> timed = executor.submit(() -> executor.submit(() -> 1).get(1, TimeUnit.HOURS) + 1);
        assertEquals(2, timed.get());
    }

    @Test
    void invokeAllAndInvokeAnyInsideATaskOnOneWorker() throws Exception {
        ForageExecutorService executor = owning(1);
        Future<Integer> sum = executor.submit(() -> {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                int n = i;
                tasks.add(() -> n);
            }
            int total = 0;
            for (Future<Integer> f : executor.invokeAll(tasks)) {
                total += f.get();
            }
            return total;
        });
        assertEquals(55, sum.get());
        Future<String> any = executor.submit(() -> executor.invokeAny(List.of(() -> {
            throw new IllegalStateException("no");
        }, () -> "yes")));
        assertEquals("yes", any.get());
    }

    // Shutdown.

    @Test
    void shutdownRejectsNewTasksWithAClearMessageButFinishesAcceptedOnes() throws Exception {
        ForageExecutorService executor = owning(2);
        CountDownLatch release = new CountDownLatch(1);
        Blocker blocker = new Blocker(release);
        Future<String> accepted = executor.submit(blocker);
        blocker.started.await();
        executor.shutdown();
        assertTrue(executor.isShutdown());
        assertTrue(executor.pool().isShutdown(), "an owning executor shuts its pool down");
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> executor.submit(() -> 1));
        assertTrue(e.getMessage().contains("shut down"), e.getMessage());
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> executor.schedule(() -> { }, 1, TimeUnit.SECONDS));
        assertFalse(executor.isTerminated());
        assertFalse(executor.awaitTermination(1, TimeUnit.MILLISECONDS));
        release.countDown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(executor.isTerminated());
        assertEquals("released", accepted.get());
        executor.shutdown(); // idempotent
    }

    @Test
    void aTaskCannotSubmitAfterShutdownEither() throws Exception {
        ForageExecutorService executor = owning(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<Throwable> f = executor.submit(() -> {
            release.await();
            try {
                executor.submit(() -> 1);
                return null;
            } catch (RejectedExecutionException e) {
                return e;
            }
        });
        executor.shutdown();
        release.countDown();
        assertInstanceOf(RejectedExecutionException.class, f.get());
    }

    @Test
    void shutdownNowReturnsTheTasksThatNeverStartedAndInterruptsTheRunningOne() throws Exception {
        ForageExecutorService executor = owning(1);
        Blocker running = new Blocker(never);
        executor.submit(running);
        running.started.await();
        AtomicInteger ran = new AtomicInteger();
        Set<Object> queued = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < 5; i++) {
            queued.add(executor.submit(ran::incrementAndGet));
            Runnable r = ran::incrementAndGet;
            executor.execute(r);
            queued.add(r);
        }
        List<Runnable> neverStarted = executor.shutdownNow();
        Set<Object> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(neverStarted);
        assertEquals(queued, returned);
        assertEquals(10, neverStarted.size());
        assertTrue(running.interrupted.get(30, TimeUnit.SECONDS), "the running task was not interrupted");
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, ran.get(), "a task returned by shutdownNow also ran");
        // The returned futures still work: run one here.
        for (Runnable r : neverStarted) {
            r.run();
        }
        assertEquals(10, ran.get());
    }

    @Test
    void shutdownNowEndsAHelpingGetWithInterruptedException() throws Exception {
        ForageExecutorService executor = owning(1);
        ForageExecutorService other = owning(1);
        Future<String> neverDone = other.submit(new Blocker(never));
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        executor.execute(() -> {
            waiting.countDown();
            try {
                neverDone.get(); // helps on its worker: runs the job below meanwhile
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        waiting.await();
        // Make the interrupt hard to see: the worker sleeps in its helping wait (where an interrupt does not
        // wake it), and it ran a job meanwhile (which ends by clearing the interrupt flag).
        Eventually.until("the worker sleeps in get()", () -> executor.pool().statistics().sleepingWorkers() == 1);
        CountDownLatch helped = new CountDownLatch(1);
        executor.pool().execute(helped::countDown);
        helped.await();
        Eventually.until("the worker sleeps again", () -> executor.pool().statistics().sleepingWorkers() == 1);
        executor.shutdownNow();
        assertInstanceOf(InterruptedException.class, outcome.get(30, TimeUnit.SECONDS));
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
    }

    // Interrupts.

    @Test
    void cancelTrueInterruptsTheRunningTask() throws Exception {
        ForageExecutorService executor = owning(1);
        Blocker blocker = new Blocker(never);
        Future<String> f = executor.submit(blocker);
        blocker.started.await();
        assertTrue(f.cancel(true));
        assertTrue(blocker.interrupted.get(30, TimeUnit.SECONDS));
        assertTrue(f.isCancelled());
        assertThrows(CancellationException.class, f::get);
        // The interrupt meant for the cancelled task does not leak into the next task on the same worker.
        assertFalse(executor.submit(() -> Thread.currentThread().isInterrupted()).get());
    }

    @Test
    void anInterruptATaskLeavesBehindDoesNotReachTheNextTask() throws Exception {
        ForageExecutorService executor = owning(1);
        executor.submit(() -> Thread.currentThread().interrupt()).get();
        assertFalse(executor.submit(() -> Thread.currentThread().isInterrupted()).get());
    }

    @Test
    void cancellingATaskThatHasNotStartedMeansItNeverRuns() throws Exception {
        ForageExecutorService executor = owning(1);
        CountDownLatch release = new CountDownLatch(1);
        Blocker blocker = new Blocker(release);
        executor.submit(blocker);
        blocker.started.await();
        AtomicInteger ran = new AtomicInteger();
        Future<Integer> queued = executor.submit(ran::incrementAndGet);
        assertTrue(queued.cancel(false));
        assertTrue(queued.isCancelled());
        assertThrows(CancellationException.class, queued::get);
        release.countDown();
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, ran.get());
    }

    @Test
    void getFromOutsideThePoolIsInterruptible() throws Exception {
        ForageExecutorService executor = owning(1);
        Future<String> f = executor.submit(new Blocker(never));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, f::get);
        assertFalse(Thread.currentThread().isInterrupted());
        assertThrows(TimeoutException.class, () -> f.get(1, TimeUnit.MILLISECONDS));
    }

    @Test
    void aTimedGetOnAWorkerTimesOut() throws Exception {
        ForageExecutorService executor = owning(2);
        Future<String> blocked = executor.submit(new Blocker(never));
        Future<Throwable> f = executor.submit(() -> {
            try {
                blocked.get(20, TimeUnit.MILLISECONDS);
                return null;
            } catch (TimeoutException e) {
                return e;
            }
        });
        assertInstanceOf(TimeoutException.class, f.get());
    }

    // Close.

    @Test
    void closeWaitsForAcceptedTasks() {
        ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(2).build());
        AtomicReference<String> result = new AtomicReference<>();
        executor.execute(() -> {
            Eventually.until("close() shut the executor down", executor::isShutdown);
            result.set("done"); // only after close() started: close() must wait for this
        });
        executor.close();
        assertTrue(executor.isTerminated());
        assertTrue(executor.pool().isTerminated());
        assertEquals("done", result.get());
    }
}
