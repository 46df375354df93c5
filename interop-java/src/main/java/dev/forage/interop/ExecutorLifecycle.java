package dev.forage.interop;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * What differs between an executor that owns its pool and a view of a shared pool: how a task is admitted and
 * handed to the pool, what the executor counts, and its life cycle. Everything else (submission,
 * {@code invokeAll}/{@code invokeAny}, scheduling in the pool's timers) is done once, by {@link ExecutorCore},
 * which asks this strategy where the two differ; no code asks which kind of executor it serves.
 *
 * <ul>
 *   <li>{@link OwnerLifecycle}: the pool's state is the executor's. It keeps no books: an immediate task goes to
 *       the pool as it is, and shutdown, termination and {@code shutdownNow} are the pool's.</li>
 *   <li>{@link ViewLifecycle}: a life cycle of its own over a shared pool. It wraps every task in a
 *       {@link Dispatch} and counts the live ones, so that it can take them back and await only them.</li>
 * </ul>
 *
 * <p>Every method that reports a state ({@link #isShutdown()}, {@link #isTerminated()},
 * {@link #awaitTermination}) first adopts the pool's shutdown, whichever face shut the pool down.
 */
interface ExecutorLifecycle {
    /** True for an executor that owns its pool ({@code ForageExecutorService.ownsPool()}). */
    boolean ownsPool();

    /** How messages name the executor, with its pool as the pool's own messages do: "view of pool NAME". */
    String who();

    /** Hands {@code command} ({@code execute}) to the pool now, or throws {@link RejectedExecutionException}. */
    void execute(Runnable command);

    /** Hands {@code task} ({@code submit}, {@code invokeAll}) to the pool now, or throws as {@link #execute}. */
    void dispatch(SubmittedTask<?> task);

    /**
     * Admits a task about to be handed over ({@code what} names it in the message): throws
     * {@link RejectedExecutionException} once shut down; a view counts the task.
     */
    void admit(Object what);

    /**
     * Counts the next run of a periodic task without the shutdown check: its current run is still live, so the
     * count cannot reach zero meanwhile, and the task checks shutdown itself.
     */
    void admitNextRun();

    /** The exception for a task that was admitted but that the pool refused. */
    RejectedExecutionException rejectedByPool(Object what, RejectedExecutionException cause);

    /** A dispatch ended: it ran, or it was withdrawn. Called exactly once per dispatch (its claim decides). */
    void dispatchEnded(Dispatch d);

    /** As {@code ExecutorService.shutdown()}; cancels the periodic tasks waiting in a timer. Idempotent. */
    void shutdown();

    /** As {@code ExecutorService.shutdownNow()}: the tasks taken back, neither run nor cancelled. */
    List<Runnable> shutdownNow();

    boolean isShutdown();

    boolean isTerminated();

    /** As {@code ExecutorService.awaitTermination}; a timeout of zero or less does not wait. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException;

    /** The executor for {@code toString}, given its {@code state}: "view of pool NAME, running, tasks=2". */
    String describe(String state);
}
