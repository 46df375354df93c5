package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ScheduledExecutorService} over a {@link ForagePool}: tasks run on the pool's workers, delayed and
 * periodic tasks wait in the pool's own timers (no timer thread), and every blocking method ({@code get},
 * {@code invokeAll}, {@code invokeAny}, {@code awaitTermination}) called on a pool worker keeps that worker
 * running other jobs instead of blocking it.
 *
 * <pre>{@code
 * try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(4).build())) {
 *     Future<Integer> answer = executor.submit(() -> 6 * 7);
 *     ScheduledFuture<?> tick = executor.scheduleAtFixedRate(() -> System.out.println("tick"),
 *             0, 100, TimeUnit.MILLISECONDS);
 *     System.out.println(answer.get());
 *     tick.cancel(false);
 * } // close(): shutdown() and wait; the pool is owned, so it is shut down too
 * }</pre>
 *
 * <h2>Owning a pool, or viewing a shared one</h2>
 * The pool is the source of truth about its own life: whichever face shuts it down ({@link ForagePool#close()},
 * {@link ForagePool#shutdown()}, this executor, a Kotlin {@code ForageDispatcher} over it), every executor over
 * it reports shut down from then on and rejects new tasks.
 * <ul>
 *   <li>{@link #owning(ForagePool)}: the executor is the pool's face, and its state is the pool's state:
 *       {@code isShutdown()} and {@code isTerminated()} are the pool's, {@code shutdown()} shuts the pool down,
 *       {@code shutdownNow()} also returns the pool's own never-started jobs and interrupts its workers, and
 *       {@code awaitTermination} waits until the pool's threads have ended. It keeps no books of its own for
 *       {@code execute}, which costs what {@link ForagePool#execute} costs plus one read of the pool's
 *       shutdown state.</li>
 *   <li>{@link #viewOf(ForagePool)}: one of possibly many executors over a shared pool (for example
 *       {@link ForagePool#commonPool()}). Its life cycle is its own: {@code shutdown()} only stops <i>this
 *       view</i> accepting tasks, {@code shutdownNow()} withdraws and interrupts only this view's tasks, and
 *       {@code awaitTermination} waits only for the tasks this view accepted. The pool keeps running. A view
 *       over a pool that was shut down is shut down too, and terminated once its tasks ended or the pool
 *       terminated (whoever called {@link ForagePool#shutdownNow()} got the tasks that never started).</li>
 * </ul>
 *
 * <h2>Contract details</h2>
 * <ul>
 *   <li>After {@code shutdown()}, submissions throw {@link RejectedExecutionException}; accepted tasks still
 *       run, one-shot delayed tasks still run at their deadlines, and periodic tasks are cancelled (the
 *       defaults of {@code ScheduledThreadPoolExecutor}).</li>
 *   <li>{@code shutdownNow()} returns the tasks that never started, as they were given to {@code execute}
 *       or as the futures that {@code submit}/{@code schedule} returned (neither run nor cancelled: run them
 *       elsewhere or cancel them), and interrupts the threads running this executor's tasks. A task waiting in
 *       an interruptible {@code get()} on a worker gets its {@link InterruptedException} even though the
 *       worker ran other jobs meanwhile.</li>
 *   <li>{@code cancel} on a future that has not started takes it back from the pool at once (a delayed one
 *       leaves the pool's timers), so it never delays termination.</li>
 *   <li>A task given to {@code execute} that throws goes to the pool's uncaught-exception handler; a task
 *       given to {@code submit} keeps its exception in its future.</li>
 *   <li>{@code invokeAny} starts all tasks, returns the first successful result, and cancels (interrupting)
 *       the others; when all fail it throws {@link ExecutionException} whose cause is the last failure (the
 *       others are attached as suppressed exceptions).</li>
 * </ul>
 */
public final class ForageExecutorService implements ScheduledExecutorService, AutoCloseable {
    /** Submission, invocation and scheduling: the same for both kinds of executor. */
    private final ExecutorCore core;
    /** What differs between an owner and a view: admission, counting, and the life cycle. */
    private final ExecutorLifecycle lifecycle;

    private ForageExecutorService(ForagePool pool, ExecutorLifecycle lifecycle, LiveDispatches live) {
        this.core = new ExecutorCore(pool, lifecycle, live);
        this.lifecycle = lifecycle;
    }

    /**
     * An executor that owns {@code pool}: its state is the pool's (shutting either down shuts both down, and
     * termination means the pool's threads have ended). Do not give the pool to another owner.
     *
     * <pre>{@code
     * ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(8).build());
     * }</pre>
     *
     * @throws IllegalArgumentException for the common pool, which lives as long as the JVM (use
     *     {@link #viewOf})
     */
    public static ForageExecutorService owning(ForagePool pool) {
        if (pool == null) {
            throw new NullPointerException("owning: pool must not be null");
        }
        if (isCommonPool(pool)) {
            throw new IllegalArgumentException("owning: the common pool cannot be owned (it lives as long as the "
                    + "JVM); use ForageExecutorService.viewOf(ForagePool.commonPool()), or own a private pool "
                    + "from ForagePool.builder()");
        }
        LiveDispatches live = new LiveDispatches();
        return new ForageExecutorService(pool, OwnerLifecycle.of(pool, live), live);
    }

    /**
     * An executor over a shared {@code pool} with a life cycle of its own: shutting it down stops only this
     * view, and awaiting its termination waits only for the tasks it accepted. When the pool itself is shut
     * down (by its owner, through any face), the view is shut down too.
     *
     * <pre>{@code
     * ForageExecutorService requests = ForageExecutorService.viewOf(ForagePool.commonPool());
     * requests.submit(() -> handle(request));
     * requests.shutdown();                                 // the common pool keeps running
     * requests.awaitTermination(10, TimeUnit.SECONDS);     // waits for this view's tasks only
     * }</pre>
     */
    public static ForageExecutorService viewOf(ForagePool pool) {
        if (pool == null) {
            throw new NullPointerException("viewOf: pool must not be null");
        }
        LiveDispatches live = new LiveDispatches();
        return new ForageExecutorService(pool, new ViewLifecycle(pool, live), live);
    }

    /** A new {@linkplain #viewOf view} of {@link ForagePool#commonPool()}. */
    public static ForageExecutorService viewOfCommonPool() {
        return viewOf(ForagePool.commonPool());
    }

    private static boolean isCommonPool(ForagePool pool) {
        // Compare by name first, so that owning a private pool never creates the common pool's threads.
        return "forage-common".equals(pool.name()) && pool == ForagePool.commonPool();
    }

    /** The pool the tasks run on; use it for {@link ForageFutures} too. */
    public ForagePool pool() {
        return core.pool;
    }

    /** True for an executor made by {@link #owning}, false for a {@link #viewOf view}. */
    public boolean ownsPool() {
        return lifecycle.ownsPool();
    }

    // Submission.

    /**
     * Runs {@code command} on the pool. An exception it throws goes to the pool's uncaught-exception handler.
     *
     * @throws RejectedExecutionException after shutdown (of this executor, or of its pool through any face),
     *     also when called from a task running on the pool
     */
    @Override
    public void execute(Runnable command) {
        core.execute(command);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return core.submit(task);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return core.submit(task, null);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return core.submit(task, result);
    }

    // Invocation of many.

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return core.invokeAll(tasks, Waiting.FOREVER);
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAll(Collection, long, TimeUnit)}: one future per
     * task, in the tasks' order, every one done on return; those not done by the timeout are cancelled (a
     * timeout of zero or less cancels every task not done at once).
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return core.invokeAll(tasks, core.timeoutNanos("invokeAll", timeout, unit));
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return core.invokeAny(tasks, Waiting.FOREVER);
        } catch (TimeoutException e) {
            throw new AssertionError("invokeAny without a timeout timed out", e);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return core.invokeAny(tasks, core.timeoutNanos("invokeAny", timeout, unit));
    }

    // Scheduling.

    /**
     * Runs {@code command} once after {@code delay}, from the pool's timers. A delay of zero or less runs it as
     * soon as a worker looks.
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return core.schedule(command, delay, unit);
    }

    /** Runs {@code callable} once after {@code delay}, from the pool's timers. */
    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return core.schedule(callable, delay, unit);
    }

    /**
     * Runs {@code command} after {@code initialDelay} and then every {@code period} (measured from the
     * scheduled start of each run, so runs do not drift; a late run is followed at once by the next due one,
     * never overlapping). It stops when a run throws (the future then holds the exception), when the future
     * is cancelled, or at shutdown (a run in progress then finishes first).
     *
     * @throws IllegalArgumentException if {@code period} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return core.schedulePeriodic("scheduleAtFixedRate", "period", command, initialDelay, period, unit, true);
    }

    /**
     * Runs {@code command} after {@code initialDelay} and then again {@code delay} after each run ends. Stops
     * as {@link #scheduleAtFixedRate} does.
     *
     * @throws IllegalArgumentException if {@code delay} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return core.schedulePeriodic("scheduleWithFixedDelay", "delay", command, initialDelay, delay, unit, false);
    }

    // Life cycle.

    /**
     * Stops accepting tasks; accepted ones still run, one-shot delayed ones at their deadlines; periodic tasks
     * are cancelled (one whose run is in progress once that run ends). An owning executor shuts its pool down
     * too; a view leaves the pool running. Idempotent.
     */
    @Override
    public void shutdown() {
        lifecycle.shutdown();
    }

    /**
     * Shuts down, takes back every task that has not started, and interrupts the threads running this
     * executor's tasks. Returns the tasks taken back: the {@code Runnable}s given to {@code execute}, and the
     * futures returned by {@code submit} and {@code schedule} (they are neither run nor cancelled). An owning
     * executor also returns the pool's other never-started jobs and interrupts all its workers.
     */
    @Override
    public List<Runnable> shutdownNow() {
        return lifecycle.shutdownNow();
    }

    /** True once this executor, or (for either kind) its pool through any face, was shut down. */
    @Override
    public boolean isShutdown() {
        return lifecycle.isShutdown();
    }

    /**
     * True once shut down and every accepted task ended: for an owning executor, once the pool terminated (its
     * threads have ended); for a view, once its tasks ended or its pool terminated.
     */
    @Override
    public boolean isTerminated() {
        return lifecycle.isTerminated();
    }

    /**
     * Waits until {@linkplain #isTerminated() terminated} or the timeout elapses (a timeout of zero or less
     * does not wait). On a worker of a view's pool it keeps running other jobs while it waits.
     *
     * @throws IllegalStateException if this executor owns the pool and the caller is one of its workers (it
     *     would wait for itself)
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        core.notNull(unit, "awaitTermination", "unit");
        return lifecycle.awaitTermination(timeout, unit);
    }

    /**
     * Shuts down and waits for termination; interrupted while waiting, it calls {@link #shutdownNow()} and
     * keeps waiting, then re-asserts the interrupt (as {@code ExecutorService.close()} of Java 19 does). Called
     * on a worker of the pool it only shuts down: a task cannot wait for the executor that runs it.
     */
    @Override
    public void close() {
        shutdown();
        if (core.pool.isCurrentThreadWorker()) {
            return;
        }
        boolean interrupted = false;
        while (!isTerminated()) {
            try {
                awaitTermination(1L, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        String state = isTerminated() ? "terminated" : isShutdown() ? "shut down" : "running";
        return "ForageExecutorService[" + lifecycle.describe(state) + "]";
    }
}
