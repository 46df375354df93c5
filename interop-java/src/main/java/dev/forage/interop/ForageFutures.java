package dev.forage.interop;

import dev.forage.ForagePool;
import dev.forage.TimerHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Entry points for {@link ForageFuture}s: {@code CompletableFuture}s whose work, async stages and timeouts run
 * on a Forage pool, and whose {@code join()}/{@code get()} help instead of blocking a pool worker.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.commonPool();
 * ForageFuture<Integer> a = ForageFutures.supplyAsync(() -> count("a.txt"), pool);
 * ForageFuture<Integer> b = ForageFutures.supplyAsync(() -> count("b.txt"), pool);
 * int total = a.thenCombineAsync(b, Integer::sum).join();   // the sum runs on the pool too
 * }</pre>
 *
 * The methods without a pool argument use {@link ForagePool#commonPool()}.
 */
public final class ForageFutures {
    private ForageFutures() {
    }

    /** A future completed with {@code supplier}'s value, computed on the common Forage pool. */
    public static <T> ForageFuture<T> supplyAsync(Supplier<T> supplier) {
        return supplyAsync(supplier, ForagePool.commonPool());
    }

    /**
     * A future completed with {@code supplier}'s value, computed on {@code pool} (called on a worker of
     * {@code pool}, the job goes to that worker's own deque). If the supplier throws, the future completes
     * exceptionally: {@code join()} throws a {@link java.util.concurrent.CompletionException} and
     * {@code get()} an {@link java.util.concurrent.ExecutionException}, both with the supplier's exception as
     * cause.
     *
     * <pre>{@code
     * ForageFuture<Image> thumbnail = ForageFutures.supplyAsync(() -> scale(image), pool);
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down
     */
    public static <T> ForageFuture<T> supplyAsync(Supplier<T> supplier, ForagePool pool) {
        Checks.notNull(supplier, "supplyAsync", "supplier");
        Checks.notNull(pool, "supplyAsync", "pool");
        ForageFuture<T> future = new ForageFuture<>(pool);
        pool.execute(new AsyncSupply<>(future, supplier));
        return future;
    }

    /** A future completed (with null) once {@code action} ran on the common Forage pool. */
    public static ForageFuture<Void> runAsync(Runnable action) {
        return runAsync(action, ForagePool.commonPool());
    }

    /**
     * A future completed (with null) once {@code action} ran on {@code pool}; exceptionally if it threw.
     *
     * <pre>{@code
     * ForageFutures.runAsync(() -> cache.refresh(), pool).thenRun(() -> log("refreshed"));
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down
     */
    public static ForageFuture<Void> runAsync(Runnable action, ForagePool pool) {
        Checks.notNull(action, "runAsync", "action");
        Checks.notNull(pool, "runAsync", "pool");
        ForageFuture<Void> future = new ForageFuture<>(pool);
        pool.execute(AsyncSupply.of(future, action));
        return future;
    }

    /**
     * A future completed with {@code supplier}'s value, computed on {@code pool}'s
     * {@linkplain ForagePool#blockingExecutor() blocking executor}: for a supplier that blocks (file or socket I/O,
     * JDBC). The supplier runs inside a blocking section, so the pool keeps its parallelism meanwhile; at most
     * {@link ForagePool#maxBlockingThreads()} such suppliers run at once, the rest wait in a FIFO queue. Called on
     * a worker of {@code pool}, the supplier usually runs on that same worker once its current job ends (no thread
     * hop). The future belongs to {@code pool}: its async stages without an executor argument run on the pool's
     * ordinary workers, so the CPU part of a chain leaves the blocking executor. Exceptions are stored as by
     * {@link #supplyAsync(Supplier, ForagePool)}.
     *
     * <pre>{@code
     * ForageFuture<Report> report = ForageFutures
     *         .supplyBlockingAsync(() -> jdbc.queryForList(sql), pool)   // blocking, compensated
     *         .thenApplyAsync(Report::of);                                // CPU work, on the pool
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down (and this is not one of
     *         its workers), or was built with {@code maxBlockingThreads(0)}
     */
    public static <T> ForageFuture<T> supplyBlockingAsync(Supplier<T> supplier, ForagePool pool) {
        Checks.notNull(supplier, "supplyBlockingAsync", "supplier");
        Checks.notNull(pool, "supplyBlockingAsync", "pool");
        ForageFuture<T> future = new ForageFuture<>(pool);
        pool.blockingExecutor().execute(new AsyncSupply<>(future, supplier));
        return future;
    }

    /**
     * A future completed (with null) once {@code action} ran on {@code pool}'s
     * {@linkplain ForagePool#blockingExecutor() blocking executor}; exceptionally if it threw. As
     * {@link #supplyBlockingAsync(Supplier, ForagePool)}, for an action without a result.
     *
     * <pre>{@code
     * ForageFutures.runBlockingAsync(() -> audit.append(entry), pool).thenRun(() -> log("audited"));
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down (and this is not one of
     *         its workers), or was built with {@code maxBlockingThreads(0)}
     */
    public static ForageFuture<Void> runBlockingAsync(Runnable action, ForagePool pool) {
        Checks.notNull(action, "runBlockingAsync", "action");
        Checks.notNull(pool, "runBlockingAsync", "pool");
        ForageFuture<Void> future = new ForageFuture<>(pool);
        pool.blockingExecutor().execute(AsyncSupply.of(future, action));
        return future;
    }

    /**
     * A new incomplete future on {@code pool}, to complete yourself (for example from a callback API).
     *
     * <pre>{@code
     * ForageFuture<Response> response = ForageFutures.newFuture(pool);
     * client.send(request, response::complete, response::completeExceptionally);
     * }</pre>
     */
    public static <T> ForageFuture<T> newFuture(ForagePool pool) {
        Checks.notNull(pool, "newFuture", "pool");
        return new ForageFuture<>(pool);
    }

    /** A future on {@code pool}, already completed with {@code value}. */
    public static <T> ForageFuture<T> completedFuture(T value, ForagePool pool) {
        ForageFuture<T> future = newFuture(pool);
        future.complete(value);
        return future;
    }

    /**
     * A future on {@code pool} that completes exactly as {@code stage} does (same value, same exception); use it
     * to continue a chain from another library on the pool. Completing or cancelling the returned future does
     * not affect {@code stage}.
     *
     * <pre>{@code
     * ForageFuture<HttpResponse<String>> r = ForageFutures.from(httpClient.sendAsync(req, ofString()), pool);
     * r.thenApplyAsync(HttpResponse::body);   // on the pool, not on the HTTP client's threads
     * }</pre>
     */
    public static <T> ForageFuture<T> from(CompletionStage<T> stage, ForagePool pool) {
        Checks.notNull(stage, "from", "stage");
        final ForageFuture<T> future = newFuture(pool);
        stage.whenComplete((value, error) -> {
            if (error == null) {
                future.complete(value);
            } else {
                future.completeExceptionally(error);
            }
        });
        return future;
    }

    /** {@link CompletableFuture#allOf} as a future on {@code pool}. */
    public static ForageFuture<Void> allOf(ForagePool pool, CompletableFuture<?>... futures) {
        return from(CompletableFuture.allOf(futures), pool);
    }

    /** {@link CompletableFuture#anyOf} as a future on {@code pool}. */
    public static ForageFuture<Object> anyOf(ForagePool pool, CompletableFuture<?>... futures) {
        return from(CompletableFuture.anyOf(futures), pool);
    }

    /**
     * Java 9's {@code future.orTimeout(timeout, unit)} for any {@code CompletableFuture}, on every Java version,
     * timed by {@code pool}'s timers ({@link ForagePool#scheduleTimeout}): completes {@code future} exceptionally
     * with a {@link java.util.concurrent.TimeoutException} unless something else completes it first, in which case
     * the timer is cancelled at once. Returns {@code future}. It fires on time even while every worker of
     * {@code pool} is busy or blocked: the pool's monitor thread completes the future then, as the JDK's delayer
     * thread does, so dependent stages that are not {@code *Async} run on that thread; keep them short or use the
     * {@code *Async} forms, as with the JDK's.
     *
     * <pre>{@code
     * CompletableFuture<Reply> reply = ForageFutures.orTimeout(client.call(request), 2, TimeUnit.SECONDS, pool);
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down
     */
    public static <T, F extends CompletableFuture<T>> F orTimeout(final F future, long timeout, TimeUnit unit,
            ForagePool pool) {
        Checks.notNull(future, "orTimeout", "future");
        Checks.notNull(unit, "orTimeout", "unit");
        Checks.notNull(pool, "orTimeout", "pool");
        if (!future.isDone()) {
            final String message = "timed out after " + timeout + " " + unit;
            cancelWhenDone(future, pool.scheduleTimeout(
                    () -> future.completeExceptionally(new TimeoutException(message)), timeout, unit));
        }
        return future;
    }

    /**
     * Java 9's {@code future.completeOnTimeout(value, timeout, unit)} for any {@code CompletableFuture}, on
     * every Java version, timed by {@code pool}'s timers: completes {@code future} with {@code value} unless
     * something else completes it first. Returns {@code future}.
     *
     * <pre>{@code
     * ForageFutures.completeOnTimeout(prices, Prices.CACHED, 100, TimeUnit.MILLISECONDS, pool);
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if {@code pool} is shut down
     */
    public static <T, F extends CompletableFuture<T>> F completeOnTimeout(final F future, final T value,
            long timeout, TimeUnit unit, ForagePool pool) {
        Checks.notNull(future, "completeOnTimeout", "future");
        Checks.notNull(unit, "completeOnTimeout", "unit");
        Checks.notNull(pool, "completeOnTimeout", "pool");
        if (!future.isDone()) {
            cancelWhenDone(future, pool.scheduleTimeout(() -> future.complete(value), timeout, unit));
        }
        return future;
    }

    private static void cancelWhenDone(CompletableFuture<?> future, final TimerHandle timer) {
        // A timer that outlived its future would keep a shut-down pool's last worker alive until it fires.
        future.whenComplete((value, error) -> timer.cancel());
    }

    /**
     * {@code future.join()} for any {@code CompletableFuture}, helping on a pool worker: a worker that calls it
     * runs other jobs until {@code future} completes. Elsewhere it is just {@code future.join()}.
     *
     * <pre>{@code
     * String body = ForageFutures.join(httpClient.sendAsync(req, ofString())).body();
     * }</pre>
     */
    public static <T> T join(CompletableFuture<T> future) {
        Checks.notNull(future, "join", "future");
        if (!future.isDone() && Waiting.onWorker() && !(future instanceof ForageFuture)) { // that one helps itself
            Waiting.awaitUninterruptibly(LatchStack.releasedWhenDone(future));
        }
        return future.join();
    }
}
