package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * invokeAll, invokeAny and Future.get clause by clause: null tasks, expired and negative timeouts, the shape
 * and order of invokeAll's result, interrupts of the caller, and tasks that all fail.
 */
@ExtendWith(Watchdog.class)
class InvocationContractTest {
    private final ForageExecutorService executor =
            ForageExecutorService.owning(ForagePool.builder().threads(2).name("invocations").build());
    /** Released in @AfterEach, so that no blocked task outlives its test. */
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void close() {
        never.countDown();
        executor.shutdownNow();
        executor.close();
    }

    private Callable<String> blocker(CountDownLatch started) {
        return () -> {
            started.countDown();
            never.await();
            return "released";
        };
    }

    // invokeAll.

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE, 30_000})
    void invokeAllRejectsANullTaskWhateverTheTimeout(long timeoutMillis) {
        List<Callable<Integer>> tasks = Arrays.asList(() -> 1, null);
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> executor.invokeAll(tasks, timeoutMillis, TimeUnit.MILLISECONDS));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void invokeAllWithAnExpiredTimeoutReturnsOneDoneFuturePerTaskInOrder(long timeout) throws Exception {
        List<Callable<Integer>> tasks = List.of(() -> 0, () -> 1, () -> 2);
        List<Future<Integer>> results = executor.invokeAll(tasks, timeout, TimeUnit.SECONDS);
        assertEquals(3, results.size(), "one future per task");
        for (int i = 0; i < 3; i++) {
            Future<Integer> f = results.get(i);
            assertTrue(f.isDone(), "future " + i + " is not done");
            if (!f.isCancelled()) {
                assertEquals(i, f.get(), "futures out of order");
            }
        }
    }

    @Test
    void invokeAllKeepsTheOrderOfTheTasksWhateverOrderTheyFinishIn() throws Exception {
        List<Callable<Integer>> tasks = new ArrayList<>();
        CountDownLatch later = new CountDownLatch(1);
        tasks.add(() -> {
            later.await(); // the first task finishes last
            return 0;
        });
        for (int i = 1; i < 20; i++) {
            int n = i;
            tasks.add(() -> {
                if (n == 19) {
                    later.countDown();
                }
                return n;
            });
        }
        List<Future<Integer>> results = executor.invokeAll(tasks, 30, TimeUnit.SECONDS);
        for (int i = 0; i < 20; i++) {
            assertEquals(i, results.get(i).get());
        }
    }

    @Test
    void invokeAllWithATimeoutNeedsAUnit() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> executor.invokeAll(List.of(() -> 1), 1, null));
        assertTrue(e.getMessage().contains("unit"), e.getMessage());
    }

    @Test
    void anInterruptedInvokeAllThrowsAndCancelsEveryTask() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        List<Callable<String>> tasks = List.of(blocker(started), () -> "quick");
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                executor.invokeAll(tasks);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "invokeAll caller");
        caller.start();
        started.await();
        caller.interrupt();
        assertInstanceOf(InterruptedException.class, outcome.get(30, TimeUnit.SECONDS));
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "the blocked task was not cancelled");
    }

    // invokeAny.

    @Test
    void invokeAnyRejectsNullAndEmptyInputWhateverTheTimeout() {
        assertThrows(NullPointerException.class, () -> executor.invokeAny(Arrays.asList(() -> 1, null)));
        assertThrows(NullPointerException.class,
                () -> executor.invokeAny(Arrays.asList(() -> 1, null), 0, TimeUnit.SECONDS));
        assertThrows(NullPointerException.class, () -> executor.invokeAny(List.of(() -> 1), 1, null));
        assertThrows(IllegalArgumentException.class, () -> executor.invokeAny(List.of(), 1, TimeUnit.SECONDS));
    }

    @Test
    void invokeAnyWithAllTasksFailingThrowsExecutionExceptionEvenWithATimeout() {
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            tasks.add(() -> {
                throw new IllegalStateException("failure " + n);
            });
        }
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> executor.invokeAny(tasks, 30, TimeUnit.SECONDS));
        Set<String> failures = new HashSet<>();
        failures.add(e.getCause().getMessage());
        for (Throwable s : e.getCause().getSuppressed()) {
            failures.add(s.getMessage());
        }
        for (Throwable s : e.getSuppressed()) {
            failures.add(s.getMessage());
        }
        assertEquals(Set.of("failure 0", "failure 1", "failure 2"), failures, "every failure is reported");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void invokeAnyWithAnExpiredTimeoutAndNoSuccessThrowsTimeoutException(long timeout) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        assertThrows(TimeoutException.class,
                () -> executor.invokeAny(List.of(blocker(started)), timeout, TimeUnit.SECONDS));
    }

    @Test
    void anInterruptedInvokeAnyThrowsAndCancelsItsTasks() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                executor.invokeAny(List.of(blocker(started), blocker(started)));
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "invokeAny caller");
        caller.start();
        started.await();
        caller.interrupt();
        assertInstanceOf(InterruptedException.class, outcome.get(30, TimeUnit.SECONDS));
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "the blocked tasks were not cancelled");
    }

    // Future.get.

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void aTimedGetWithAnExpiredTimeoutThrowsTimeoutExceptionOnAWorkerToo(long timeout) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Future<String> blocked = executor.submit(blocker(started));
        ForageFuture<Object> pending = ForageFutures.newFuture(executor.pool());
        // Off the pool: FutureTask's and CompletableFuture's own rule.
        assertThrows(TimeoutException.class, () -> blocked.get(timeout, TimeUnit.NANOSECONDS));
        assertThrows(TimeoutException.class, () -> pending.get(timeout, TimeUnit.NANOSECONDS));
        // On a worker, where get helps instead of blocking: the same rule.
        Future<String> onWorker = executor.submit(() -> {
            String a = timedOut(() -> blocked.get(timeout, TimeUnit.NANOSECONDS));
            String b = timedOut(() -> pending.get(timeout, TimeUnit.NANOSECONDS));
            return a + " " + b;
        });
        assertEquals("timed out timed out", onWorker.get(30, TimeUnit.SECONDS));
    }

    private static String timedOut(Callable<?> get) throws Exception {
        try {
            return "returned " + get.call();
        } catch (TimeoutException e) {
            return "timed out";
        }
    }

    @Test
    void anInterruptedGetThrowsInterruptedExceptionAndLeavesTheTaskRunning() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Future<String> blocked = executor.submit(blocker(started));
        started.await();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, blocked::get);
        assertTrue(!blocked.isDone(), "get's interrupt must not touch the task");
        never.countDown();
        assertEquals("released", blocked.get());
    }

    @Test
    void aCancelledFutureReportsCancellationEverywhere() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Future<String> blocked = executor.submit(blocker(started));
        started.await();
        Future<Integer> queuedBehind = executor.submit(() -> 1);
        assertTrue(blocked.cancel(true));
        assertTrue(blocked.isCancelled());
        assertTrue(blocked.isDone());
        assertThrows(CancellationException.class, blocked::get);
        assertThrows(CancellationException.class, () -> blocked.get(1, TimeUnit.SECONDS));
        assertTrue(!blocked.cancel(true), "a second cancel must report false");
        assertEquals(1, queuedBehind.get(), "the interrupt of the cancelled task leaked into the next one");
    }
}
