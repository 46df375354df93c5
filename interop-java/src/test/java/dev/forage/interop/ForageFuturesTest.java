package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The CompletableFuture facade as a Java user sees it: where work runs, waiting, outcomes, timeouts. */
@ExtendWith(Watchdog.class)
class ForageFuturesTest {
    private final ForagePool pool = ForagePool.builder().threads(2).name("futures").build();
    /** One worker: any wait that blocked it instead of helping would deadlock (and the watchdog would fail). */
    private final ForagePool one = ForagePool.builder().threads(1).name("one").build();

    @AfterEach
    void close() {
        pool.close();
        one.close();
    }

    // Where work runs.

    @Test
    void supplyAsyncAndRunAsyncRunOnTheGivenPool() {
        assertSame(pool, ForageFutures.supplyAsync(ForagePool::current, pool).join());
        AtomicReference<ForagePool> ranOn = new AtomicReference<>();
        ForageFutures.runAsync(() -> ranOn.set(ForagePool.current()), pool).join();
        assertSame(pool, ranOn.get());
        assertSame(pool, ForageFutures.supplyAsync(() -> 1, pool).pool());
    }

    @Test
    void withoutAPoolTheCommonPoolIsUsed() {
        assertSame(ForagePool.commonPool(), ForageFutures.supplyAsync(ForagePool::current).join());
        AtomicReference<ForagePool> ranOn = new AtomicReference<>();
        ForageFutures.runAsync(() -> ranOn.set(ForagePool.current())).join();
        assertSame(ForagePool.commonPool(), ranOn.get());
    }

    @Test
    void jdk9AndLaterMethodsUseThePoolToo() {
        ForageFuture<Integer> failed = ForageFutures.newFuture(pool);
        failed.completeExceptionally(new IllegalStateException("x"));
        // exceptionallyAsync is a Java 12 method this library does not override: the JDK runs it on
        // defaultExecutor() and makes its stage with newIncompleteFuture().
        CompletableFuture<ForagePool> recovered = failed.thenApply(x -> (ForagePool) null)
                .exceptionallyAsync(e -> ForagePool.current());
        assertSame(pool, recovered.join());
        assertInstanceOf(ForageFuture.class, recovered);
        ForageFuture<ForagePool> f = ForageFutures.newFuture(pool);
        f.completeAsync(ForagePool::current);
        assertSame(pool, f.join());
    }

    @Test
    void aChainSharesOneDefaultExecutorThatRunsOnThePool() throws Exception {
        ForageFuture<Integer> root = ForageFutures.supplyAsync(() -> 1, pool);
        Executor executor = root.defaultExecutor();
        assertSame(executor, root.defaultExecutor(), "a new executor per call");
        ForageFuture<Integer> next = root.thenApplyAsync(x -> x + 1);
        assertSame(executor, next.defaultExecutor(), "a dependent stage made its own executor");
        assertSame(executor, next.thenCompose(x -> root).defaultExecutor());
        assertEquals(2, next.join());
        CompletableFuture<ForagePool> ranOn = new CompletableFuture<>();
        executor.execute(() -> ranOn.complete(ForagePool.current()));
        assertSame(pool, ranOn.get(10, TimeUnit.SECONDS));
        // Java 8's relayed stages share it as well.
        ForageFuture<Integer> java8 = new ForageFuture<>(pool, true);
        assertSame(java8.defaultExecutor(), java8.thenApply(x -> x).defaultExecutor());
    }

    @Test
    void fromAndAllOfContinueForeignStagesOnThePool() {
        CompletableFuture<Integer> foreign = new CompletableFuture<>();
        ForageFuture<Integer> mirrored = ForageFutures.from(foreign, pool);
        ForageFuture<ForagePool> next = mirrored.thenApplyAsync(x -> ForagePool.current());
        foreign.complete(1);
        assertSame(pool, next.join());
        ForageFuture<Void> all = ForageFutures.allOf(pool, mirrored, ForageFutures.completedFuture(2, pool));
        all.join();
        assertSame(pool, all.pool());
        assertEquals(2, ForageFutures.anyOf(pool, ForageFutures.completedFuture(2, pool)).join());
        CompletableFuture<Integer> failing = new CompletableFuture<>();
        IllegalStateException boom = new IllegalStateException("boom");
        failing.completeExceptionally(boom);
        ExecutionException e = assertThrows(ExecutionException.class, () -> ForageFutures.from(failing, pool).get());
        assertSame(boom, e.getCause());
    }

    // Outcomes.

    @Test
    void exceptionsAreReportedAsCompletableFutureReportsThem() {
        IllegalStateException boom = new IllegalStateException("boom");
        ForageFuture<Integer> f = ForageFutures.supplyAsync(() -> {
            throw boom;
        }, pool);
        CompletionException joined = assertThrows(CompletionException.class, f::join);
        assertSame(boom, joined.getCause());
        ExecutionException got = assertThrows(ExecutionException.class, f::get);
        assertSame(boom, got.getCause());
        ExecutionException timed = assertThrows(ExecutionException.class, () -> f.get(1, TimeUnit.SECONDS));
        assertSame(boom, timed.getCause());
        assertTrue(f.isCompletedExceptionally());
        assertFalse(f.isCancelled());
        AtomicReference<Throwable> seen = new AtomicReference<>();
        assertEquals(0, f.exceptionally(e -> {
            seen.set(e);
            return 0;
        }).join());
        assertInstanceOf(CompletionException.class, seen.get());
        assertSame(boom, seen.get().getCause());
    }

    @Test
    void cancellationIsReportedAsCompletableFutureReportsIt() {
        ForageFuture<Integer> f = ForageFutures.newFuture(pool);
        ForageFuture<Integer> dependent = f.thenApply(x -> x + 1);
        assertTrue(f.cancel(true));
        assertTrue(f.isCancelled());
        assertThrows(CancellationException.class, f::join);
        assertThrows(CancellationException.class, f::get);
        assertThrows(CancellationException.class, () -> f.get(1, TimeUnit.SECONDS));
        CompletionException e = assertThrows(CompletionException.class, dependent::join);
        assertInstanceOf(CancellationException.class, e.getCause());
        assertFalse(dependent.isCancelled());
        assertTrue(dependent.isCompletedExceptionally());
    }

    @Test
    void cancellingAFutureWhoseJobIsQueuedSkipsTheJob() {
        CountDownLatch release = new CountDownLatch(1);
        ForageFuture<Void> blocker = ForageFutures.runAsync(() -> awaitUninterruptibly(release), one);
        AtomicBoolean ran = new AtomicBoolean();
        ForageFuture<Boolean> queued = ForageFutures.supplyAsync(() -> ran.getAndSet(true), one);
        assertTrue(queued.cancel(false));
        release.countDown();
        blocker.join();
        ForageFutures.runAsync(() -> { }, one).join(); // FIFO behind the queued job: it has had its turn
        assertFalse(ran.get());
    }

    // Timeouts.

    @Test
    void timedGetThrowsTimeoutExceptionOnAndOffThePool() throws Exception {
        ForageFuture<Integer> never = ForageFutures.newFuture(pool);
        assertThrows(TimeoutException.class, () -> never.get(10, TimeUnit.MILLISECONDS));
        Throwable onWorker = ForageFutures.supplyAsync(() -> {
            try {
                never.get(10, TimeUnit.MILLISECONDS);
                return null;
            } catch (Exception e) {
                return e;
            }
        }, pool).join();
        assertInstanceOf(TimeoutException.class, onWorker);
        assertFalse(never.isDone(), "get(timeout) must not complete the future");
    }

    @Test
    void orTimeoutFailsTheFutureFromThePoolsTimers() throws Exception {
        // Called through the CompletableFuture type: on Java 9+ this is the JDK method, overridden.
        CompletableFuture<Integer> f = ForageFutures.newFuture(pool);
        AtomicReference<String> completedOn = new AtomicReference<>();
        CountDownLatch completed = new CountDownLatch(1);
        f.whenComplete((v, e) -> {
            completedOn.set(Thread.currentThread().getName());
            completed.countDown();
        });
        assertSame(f, f.orTimeout(10, TimeUnit.MILLISECONDS));
        // Not join(): a joining thread may run the dependents itself. Nobody waits on f, so the completing
        // thread runs the callback: it must be a pool worker (the JDK's own orTimeout uses a timer thread).
        completed.await();
        assertTrue(completedOn.get().startsWith("futures-worker-"),
                "timed out on " + completedOn.get() + ", not by a pool timer");
        CompletionException joined = assertThrows(CompletionException.class, f::join);
        assertInstanceOf(TimeoutException.class, joined.getCause());
        ExecutionException got = assertThrows(ExecutionException.class, f::get);
        assertInstanceOf(TimeoutException.class, got.getCause());
    }

    @Test
    void completeOnTimeoutCompletesWithTheValue() {
        ForageFuture<String> f = ForageFutures.newFuture(pool);
        f.completeOnTimeout("fallback", 10, TimeUnit.MILLISECONDS);
        assertEquals("fallback", f.join());
    }

    @Test
    void anyCompletableFutureCanTimeOutOnThePoolsTimers() {
        CompletableFuture<Integer> plain = new CompletableFuture<>();
        assertSame(plain, ForageFutures.orTimeout(plain, 10, TimeUnit.MILLISECONDS, pool));
        CompletionException e = assertThrows(CompletionException.class, plain::join);
        assertInstanceOf(TimeoutException.class, e.getCause());
        CompletableFuture<String> late = ForageFutures.completeOnTimeout(new CompletableFuture<>(), "fallback", 10,
                TimeUnit.MILLISECONDS, pool);
        assertEquals("fallback", late.join());
    }

    @Test
    void aTimeoutThatDidNotFireLeavesThePoolsTimers() {
        ForagePool owned = ForagePool.builder().threads(1).name("owned").build();
        ForageFuture<Integer> a = ForageFutures.newFuture(owned);
        a.orTimeout(1, TimeUnit.HOURS);
        ForageFuture<Integer> b = ForageFutures.newFuture(owned);
        b.completeOnTimeout(0, 1, TimeUnit.HOURS);
        CompletableFuture<Integer> plain = ForageFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.HOURS, owned);
        a.complete(1);
        b.complete(2);
        plain.complete(3);
        assertEquals(1, a.join());
        assertEquals(2, b.join());
        // A shut-down pool keeps a worker until its pending timers fire: a stale timer would hang here.
        owned.close();
        assertTrue(owned.isTerminated());
    }

    // Helping waits.

    @Test
    void joinOnTheOnlyWorkerRunsTheFutureQueuedBehindIt() {
        ForageFuture<Integer> outer = ForageFutures.supplyAsync(
                () -> ForageFutures.supplyAsync(() -> 41, one).join() + 1, one);
        assertEquals(42, outer.join());
    }

    @Test
    void getAndTimedGetOnTheOnlyWorkerHelpToo() throws Exception {
        ForageFuture<Integer> outer = ForageFutures.supplyAsync(() -> {
            try {
                int a = ForageFutures.supplyAsync(() -> 1, one).get();
                int b = ForageFutures.supplyAsync(() -> 2, one).get(1, TimeUnit.HOURS);
                return a + b;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, one);
        assertEquals(3, outer.get());
    }

    @Test
    void aWaitingWorkerRunsJobsSubmittedFromOutsideMeanwhile() {
        ForageFuture<Integer> inner = ForageFutures.newFuture(one);
        CountDownLatch waiting = new CountDownLatch(1);
        ForageFuture<Integer> outer = ForageFutures.supplyAsync(() -> {
            waiting.countDown();
            return inner.join() + 1;
        }, one);
        awaitUninterruptibly(waiting);
        one.execute(() -> inner.complete(9)); // can only run if the waiting worker picks it up
        assertEquals(10, outer.join());
    }

    @Test
    void completionFromOutsideWakesTheSleepingWaiterThroughItsLatch() {
        ForageFuture<Integer> inner = ForageFutures.newFuture(one);
        CountDownLatch waiting = new CountDownLatch(1);
        ForageFuture<Integer> outer = ForageFutures.supplyAsync(() -> {
            waiting.countDown();
            return inner.join() * 2;
        }, one);
        awaitUninterruptibly(waiting);
        Eventually.until("the only worker sleeps while its job waits",
                () -> one.statistics().sleepingWorkers() == 1);
        long latchWakeups = one.statistics().latchWakeups();
        inner.complete(21);
        assertEquals(42, outer.join());
        assertTrue(one.statistics().latchWakeups() > latchWakeups,
                "the worker was not woken by the latch its completion set");
    }

    @Test
    void joinOfAnyCompletableFutureHelpsOnAWorker() {
        ForageFuture<Integer> outer = ForageFutures.supplyAsync(() -> {
            CompletableFuture<Integer> plain = new CompletableFuture<>();
            one.execute(() -> plain.complete(5)); // queued behind this job on the only worker
            return ForageFutures.join(plain);
        }, one);
        assertEquals(5, outer.join());
    }

    @Test
    void aHelpingJoinRethrowsTheFailureAsCompletionException() {
        IllegalStateException boom = new IllegalStateException("inner");
        ForageFuture<Throwable> outer = ForageFutures.supplyAsync(() -> {
            try {
                ForageFutures.supplyAsync(() -> {
                    throw boom;
                }, one).join();
                return null;
            } catch (CompletionException e) {
                return e.getCause();
            }
        }, one);
        assertSame(boom, outer.join());
    }

    @Test
    void aHelpingGetEndsWithInterruptedExceptionWhenItsTaskIsCancelled() throws Exception {
        ForageExecutorService executor = ForageExecutorService.viewOf(one);
        ForageFuture<Integer> never = ForageFutures.newFuture(pool);
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Future<?> task = executor.submit(() -> {
            waiting.countDown();
            try {
                never.get();
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        awaitUninterruptibly(waiting);
        Eventually.until("the worker sleeps in get()", () -> one.statistics().sleepingWorkers() == 1);
        assertTrue(task.cancel(true)); // an interrupt alone would not wake a worker sleeping in a helping wait
        assertInstanceOf(InterruptedException.class, outcome.get(30, TimeUnit.SECONDS));
        executor.shutdown();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
    }

    // Exactly once.

    @Test
    void aHundredThousandFuturesEachCompleteExactlyOnce() {
        int n = 100_000;
        AtomicIntegerArray supplied = new AtomicIntegerArray(n);
        AtomicIntegerArray completed = new AtomicIntegerArray(n);
        ForageFuture<?>[] all = new ForageFuture<?>[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            all[i] = ForageFutures.supplyAsync(() -> {
                supplied.incrementAndGet(index);
                return index;
            }, pool).thenApplyAsync(x -> 2 * x).whenComplete((v, e) -> {
                if (e == null && v == 2 * index) {
                    completed.incrementAndGet(index);
                }
            });
        }
        ForageFutures.allOf(pool, all).join();
        for (int i = 0; i < n; i++) {
            assertEquals(1, supplied.get(i), "supplier " + i);
            assertEquals(1, completed.get(i), "completion " + i);
        }
    }

    @Test
    void racingCompletersOfAHundredThousandFuturesWinExactlyOnceEach() {
        int n = 100_000;
        AtomicIntegerArray wins = new AtomicIntegerArray(n);
        AtomicIntegerArray callbacks = new AtomicIntegerArray(n);
        CountDownLatch completers = new CountDownLatch(2 * n);
        ForageFuture<?>[] observed = new ForageFuture<?>[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            ForageFuture<Integer> f = ForageFutures.newFuture(pool);
            observed[i] = f.whenComplete((v, e) -> callbacks.incrementAndGet(index));
            for (int k = 0; k < 2; k++) {
                int value = k;
                pool.execute(() -> {
                    if (f.complete(value)) {
                        wins.incrementAndGet(index);
                    }
                    completers.countDown();
                });
            }
        }
        awaitUninterruptibly(completers);
        ForageFutures.allOf(pool, observed).join();
        for (int i = 0; i < n; i++) {
            assertEquals(1, wins.get(i), "winners of future " + i);
            assertEquals(1, callbacks.get(i), "callbacks of future " + i);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
