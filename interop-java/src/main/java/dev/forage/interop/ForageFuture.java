package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link CompletableFuture} bound to a {@link ForagePool}: its {@code *Async} stages without an explicit
 * executor run on that pool, every stage derived from it is again a {@code ForageFuture} on the same pool,
 * and waiting for it on a pool worker keeps the worker running other jobs.
 *
 * <pre>{@code
 * ForageFuture<String> page = ForageFutures.supplyAsync(() -> fetch(url), pool);
 * ForageFuture<Integer> words = page
 *         .thenApplyAsync(Parser::parse)            // on the pool, not on ForkJoinPool.commonPool()
 *         .thenApply(doc -> doc.words().size());    // still a ForageFuture
 * words.orTimeout(2, TimeUnit.SECONDS);             // timed by the pool's timers, on Java 8 too
 * int n = words.join();                             // on a pool worker: runs other jobs until done
 * }</pre>
 *
 * <h2>Waiting</h2>
 * {@link #join()}, {@link #get()} and {@link #get(long, TimeUnit)} called on a worker of any Forage pool do not
 * block the worker: it runs other jobs until this future completes, and the completion wakes exactly that
 * worker. So a pool of one worker whose job joins a future queued behind it does not deadlock. Called on any
 * other thread they block as {@code CompletableFuture}'s do. Outcomes are reported exactly as
 * {@code CompletableFuture} reports them: {@code join()} throws {@link CompletionException},
 * {@code get()} throws {@link ExecutionException}, both throw {@link java.util.concurrent.CancellationException}
 * after {@code cancel}, and {@code get(timeout)} throws {@link TimeoutException}. {@code join()} ignores
 * interrupts; {@code get()} on a worker throws {@link InterruptedException} when the interrupt flag is set on
 * entry or when the task it runs in is interrupted by its executor ({@code shutdownNow}, {@code cancel(true)}).
 *
 * <h2>Every Java version</h2>
 * On Java 9 and later, {@code CompletableFuture} creates dependent stages with {@link #newIncompleteFuture()}
 * and runs executor-less async stages on {@link #defaultExecutor()}; this class declares both (without
 * {@code @Override}, as it is compiled for Java 8). On Java 8 (and Android) those hooks do not exist, so this
 * class also overrides every stage-returning method of Java 8 to return a {@code ForageFuture} and every
 * executor-less {@code *Async} method to use the pool. {@link #orTimeout}, {@link #completeOnTimeout},
 * {@link #completeAsync(Supplier)} and {@link #copy()} are Java 9 methods, provided here for Java 8 and
 * replacing the JDK's on Java 9+ so that timeouts fire from the pool's timers; they too return a
 * {@code ForageFuture}, also when called through a {@code CompletableFuture} reference (the JDK's signature
 * is kept by bridge methods, see the package-private superclass).
 *
 * <p>The stage methods below behave as documented in {@link CompletableFuture} and {@link CompletionStage};
 * only the return type (and, for the executor-less {@code *Async} methods, the executor) differs.
 */
public final class ForageFuture<T> extends ForageFutureBase<T> {
    private final ForagePool pool;
    /**
     * Behave as on Java 8, where the JDK makes plain {@code CompletableFuture}s for dependent stages and this
     * class relays them (see {@link #stage}); package-private so that tests on Java 17+ can cover that path.
     */
    private final boolean java8Stages;
    /**
     * The executor of executor-less async stages (the pool, with {@link StageExecutor}'s caller-runs rule after
     * shutdown): made once with the future that starts a chain and shared by every stage made from it, so that
     * neither a stage nor {@link #defaultExecutor()} allocates one.
     */
    private final StageExecutor stages;

    ForageFuture(ForagePool pool) {
        this(pool, false);
    }

    ForageFuture(ForagePool pool, boolean java8Stages) {
        this(new StageExecutor(nonNull(pool)), java8Stages);
    }

    /** A stage made from a future whose executor is {@code stages}: the chain shares that one object. */
    private ForageFuture(StageExecutor stages, boolean java8Stages) {
        this.pool = stages.pool;
        this.stages = stages;
        this.java8Stages = java8Stages;
    }

    private static ForagePool nonNull(ForagePool pool) {
        if (pool == null) {
            throw new NullPointerException("ForageFuture: pool must not be null");
        }
        return pool;
    }

    /** The pool that runs this future's executor-less async stages and serves its timeouts. */
    public ForagePool pool() {
        return pool;
    }

    // Java 9+ hooks (declared without @Override: this class compiles for Java 8, where they do not exist).

    /** A new incomplete {@code ForageFuture} on the same pool; the JDK (9+) uses it for every dependent stage. */
    public <U> CompletableFuture<U> newIncompleteFuture() {
        if (java8Stages) {
            return new CompletableFuture<>();
        }
        return new ForageFuture<>(stages, false);
    }

    /**
     * The executor of this future's executor-less async stages, which the JDK (9+) also uses for the async methods
     * this class does not override: it runs each stage on {@link #pool()}, except that a stage triggered on one of
     * the pool's workers after shutdown runs on that worker, so that work the pool accepted still completes. Not the
     * pool object itself, and not a new object per call: one executor for this future and every stage made from it.
     *
     * <pre>{@code
     * ForageFuture<Page> page = ForageFutures.supplyAsync(this::fetch, pool);
     * page.defaultExecutor() == page.thenApplyAsync(Page::title).defaultExecutor();  // true
     * }</pre>
     */
    public Executor defaultExecutor() {
        return stages;
    }

    /** The executor of this future's executor-less async stages (see {@link #defaultExecutor()}). */
    private Executor stages() {
        return stages;
    }

    /**
     * Makes {@code source} (a dependent stage the JDK created) a {@code ForageFuture}. On Java 9+ the JDK made
     * it with {@link #newIncompleteFuture()}, so it already is one. On Java 8 it is a plain
     * {@code CompletableFuture}: return a {@code ForageFuture} that completes with exactly its outcome, and
     * cancel the source when the returned future is completed first (by {@code cancel} or {@code complete}),
     * so that the stage's action is skipped as it would be for a directly dependent stage.
     */
    @SuppressWarnings("unchecked")
    private <U> ForageFuture<U> stage(final CompletableFuture<U> source) {
        if (source instanceof ForageFuture) {
            return (ForageFuture<U>) source;
        }
        final ForageFuture<U> relay = new ForageFuture<>(stages, java8Stages);
        source.whenComplete((value, error) -> {
            if (error == null) {
                relay.complete(value);
            } else {
                relay.completeExceptionally(error); // already wrapped by the JDK as a dependent stage wraps it
            }
        });
        relay.cancelWhenDone(source);
        return relay;
    }

    private void cancelWhenDone(final CompletableFuture<?> source) {
        super.whenComplete((value, error) -> source.cancel(false)); // a no-op once the source is done
    }

    // Java 9 methods, driven by the pool (on Java 9+ they replace the JDK's, which use a timer thread of their own).

    /**
     * Completes this future exceptionally with a {@link TimeoutException} if nothing else completed it within
     * {@code timeout}; returns this future. The timeout is one of the pool's timers (no extra thread); it is
     * cancelled as soon as this future completes.
     *
     * <pre>{@code
     * ForageFuture<Reply> reply = ForageFutures.supplyAsync(this::slowCall, pool);
     * ForageFuture<Reply> safe = reply.orTimeout(1, TimeUnit.SECONDS)  // reply itself, still a ForageFuture
     *         .exceptionally(e -> fallback());                         // e is the TimeoutException itself
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool is shut down
     */
    @Override
    public ForageFuture<T> orTimeout(long timeout, TimeUnit unit) {
        return ForageFutures.orTimeout(this, timeout, unit, pool);
    }

    /**
     * Completes this future with {@code value} if nothing else completed it within {@code timeout}; returns
     * this future. Timed by the pool's timers, as {@link #orTimeout}.
     *
     * <pre>{@code
     * ForageFuture<Prices> prices = ForageFutures.supplyAsync(this::fetchPrices, pool)
     *         .completeOnTimeout(Prices.CACHED, 100, TimeUnit.MILLISECONDS);
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool is shut down
     */
    @Override
    public ForageFuture<T> completeOnTimeout(T value, long timeout, TimeUnit unit) {
        return ForageFutures.completeOnTimeout(this, value, timeout, unit, pool);
    }

    /** Completes this future with {@code supplier}'s value, computed on the pool; returns this future. */
    @Override
    public ForageFuture<T> completeAsync(Supplier<? extends T> supplier) {
        return completeAsync(supplier, stages());
    }

    /** Completes this future with {@code supplier}'s value, computed on {@code executor}; returns this future. */
    @Override
    public ForageFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        if (supplier == null || executor == null) {
            throw new NullPointerException("completeAsync: supplier and executor must not be null (supplier="
                    + supplier + ", executor=" + executor + ")");
        }
        executor.execute(new AsyncSupply<T>(this, supplier));
        return this;
    }

    /**
     * A new future completed with this one's value, or exceptionally with a {@link CompletionException}
     * around this one's failure; completing it does not complete this one.
     */
    @Override
    public ForageFuture<T> copy() {
        return thenApply(value -> value);
    }

    // Java 8's stage methods: ForageFutures on every runtime, and the pool as the default executor.

    @Override
    public <U> ForageFuture<U> thenApply(Function<? super T, ? extends U> fn) {
        return stage(super.thenApply(fn));
    }

    @Override
    public <U> ForageFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn) {
        return stage(super.thenApplyAsync(fn, stages()));
    }

    @Override
    public <U> ForageFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn, Executor executor) {
        return stage(super.thenApplyAsync(fn, executor));
    }

    @Override
    public ForageFuture<Void> thenAccept(Consumer<? super T> action) {
        return stage(super.thenAccept(action));
    }

    @Override
    public ForageFuture<Void> thenAcceptAsync(Consumer<? super T> action) {
        return stage(super.thenAcceptAsync(action, stages()));
    }

    @Override
    public ForageFuture<Void> thenAcceptAsync(Consumer<? super T> action, Executor executor) {
        return stage(super.thenAcceptAsync(action, executor));
    }

    @Override
    public ForageFuture<Void> thenRun(Runnable action) {
        return stage(super.thenRun(action));
    }

    @Override
    public ForageFuture<Void> thenRunAsync(Runnable action) {
        return stage(super.thenRunAsync(action, stages()));
    }

    @Override
    public ForageFuture<Void> thenRunAsync(Runnable action, Executor executor) {
        return stage(super.thenRunAsync(action, executor));
    }

    @Override
    public <U, V> ForageFuture<V> thenCombine(CompletionStage<? extends U> other,
            BiFunction<? super T, ? super U, ? extends V> fn) {
        return stage(super.thenCombine(other, fn));
    }

    @Override
    public <U, V> ForageFuture<V> thenCombineAsync(CompletionStage<? extends U> other,
            BiFunction<? super T, ? super U, ? extends V> fn) {
        return stage(super.thenCombineAsync(other, fn, stages()));
    }

    @Override
    public <U, V> ForageFuture<V> thenCombineAsync(CompletionStage<? extends U> other,
            BiFunction<? super T, ? super U, ? extends V> fn, Executor executor) {
        return stage(super.thenCombineAsync(other, fn, executor));
    }

    @Override
    public <U> ForageFuture<Void> thenAcceptBoth(CompletionStage<? extends U> other,
            BiConsumer<? super T, ? super U> action) {
        return stage(super.thenAcceptBoth(other, action));
    }

    @Override
    public <U> ForageFuture<Void> thenAcceptBothAsync(CompletionStage<? extends U> other,
            BiConsumer<? super T, ? super U> action) {
        return stage(super.thenAcceptBothAsync(other, action, stages()));
    }

    @Override
    public <U> ForageFuture<Void> thenAcceptBothAsync(CompletionStage<? extends U> other,
            BiConsumer<? super T, ? super U> action, Executor executor) {
        return stage(super.thenAcceptBothAsync(other, action, executor));
    }

    @Override
    public ForageFuture<Void> runAfterBoth(CompletionStage<?> other, Runnable action) {
        return stage(super.runAfterBoth(other, action));
    }

    @Override
    public ForageFuture<Void> runAfterBothAsync(CompletionStage<?> other, Runnable action) {
        return stage(super.runAfterBothAsync(other, action, stages()));
    }

    @Override
    public ForageFuture<Void> runAfterBothAsync(CompletionStage<?> other, Runnable action, Executor executor) {
        return stage(super.runAfterBothAsync(other, action, executor));
    }

    @Override
    public <U> ForageFuture<U> applyToEither(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return stage(super.applyToEither(other, fn));
    }

    @Override
    public <U> ForageFuture<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return stage(super.applyToEitherAsync(other, fn, stages()));
    }

    @Override
    public <U> ForageFuture<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn,
            Executor executor) {
        return stage(super.applyToEitherAsync(other, fn, executor));
    }

    @Override
    public ForageFuture<Void> acceptEither(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return stage(super.acceptEither(other, action));
    }

    @Override
    public ForageFuture<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return stage(super.acceptEitherAsync(other, action, stages()));
    }

    @Override
    public ForageFuture<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action,
            Executor executor) {
        return stage(super.acceptEitherAsync(other, action, executor));
    }

    @Override
    public ForageFuture<Void> runAfterEither(CompletionStage<?> other, Runnable action) {
        return stage(super.runAfterEither(other, action));
    }

    @Override
    public ForageFuture<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action) {
        return stage(super.runAfterEitherAsync(other, action, stages()));
    }

    @Override
    public ForageFuture<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action, Executor executor) {
        return stage(super.runAfterEitherAsync(other, action, executor));
    }

    @Override
    public <U> ForageFuture<U> thenCompose(Function<? super T, ? extends CompletionStage<U>> fn) {
        return stage(super.thenCompose(fn));
    }

    @Override
    public <U> ForageFuture<U> thenComposeAsync(Function<? super T, ? extends CompletionStage<U>> fn) {
        return stage(super.thenComposeAsync(fn, stages()));
    }

    @Override
    public <U> ForageFuture<U> thenComposeAsync(Function<? super T, ? extends CompletionStage<U>> fn,
            Executor executor) {
        return stage(super.thenComposeAsync(fn, executor));
    }

    @Override
    public ForageFuture<T> whenComplete(BiConsumer<? super T, ? super Throwable> action) {
        return stage(super.whenComplete(action));
    }

    @Override
    public ForageFuture<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action) {
        return stage(super.whenCompleteAsync(action, stages()));
    }

    @Override
    public ForageFuture<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        return stage(super.whenCompleteAsync(action, executor));
    }

    @Override
    public <U> ForageFuture<U> handle(BiFunction<? super T, Throwable, ? extends U> fn) {
        return stage(super.handle(fn));
    }

    @Override
    public <U> ForageFuture<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn) {
        return stage(super.handleAsync(fn, stages()));
    }

    @Override
    public <U> ForageFuture<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn, Executor executor) {
        return stage(super.handleAsync(fn, executor));
    }

    @Override
    public ForageFuture<T> exceptionally(Function<Throwable, ? extends T> fn) {
        return stage(super.exceptionally(fn));
    }

    @Override
    public ForageFuture<T> toCompletableFuture() {
        return this;
    }
}
