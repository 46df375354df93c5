package dev.forage.interop;

import dev.forage.ForagePool;
import dev.forage.TaskNames;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The machinery of a {@link ForageExecutorService} that is the same whether it owns its pool or views a shared
 * one: submission, {@code invokeAll}/{@code invokeAny}, scheduling delayed and periodic tasks in the pool's
 * timers, and the argument checks and messages. Where the two kinds differ (admission, counting, life cycle) it
 * asks its {@link ExecutorLifecycle}.
 *
 * <p>A delayed task waits in the pool's timers in a {@link Dispatch} (a timer must be cancellable, and a periodic
 * task must be found at shutdown); a periodic task gets a new dispatch for every period.
 */
final class ExecutorCore {
    /** Delays and periods are capped here so that deadline arithmetic cannot overflow (about 73 years). */
    private static final long MAX_NANOS = Long.MAX_VALUE >> 2;

    final ForagePool pool;
    final ExecutorLifecycle lifecycle;
    private final LiveDispatches live;

    ExecutorCore(ForagePool pool, ExecutorLifecycle lifecycle, LiveDispatches live) {
        this.pool = pool;
        this.lifecycle = lifecycle;
        this.live = live;
    }

    // Submission.

    void execute(Runnable command) {
        notNull(command, "execute", "command");
        lifecycle.execute(command);
    }

    <T> Future<T> submit(Callable<T> task) {
        notNull(task, "submit", "task");
        return dispatch(new SubmittedTask<>(task));
    }

    <T> Future<T> submit(Runnable task, T result) {
        notNull(task, "submit", "task");
        return dispatch(new SubmittedTask<>(task, result));
    }

    /** Hands {@code task} to the pool now (invokeAll creates its tasks first and dispatches them after). */
    <T> SubmittedTask<T> dispatch(SubmittedTask<T> task) {
        lifecycle.dispatch(task);
        return task;
    }

    // Invocation of many.

    <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeoutNanos)
            throws InterruptedException {
        return Invocations.invokeAll(this, tasks, timeoutNanos);
    }

    <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeoutNanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        return Invocations.invokeAny(this, tasks, timeoutNanos);
    }

    // Scheduling.

    ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        notNull(command, "schedule", "command");
        notNull(unit, "schedule", "unit");
        long nanos = clampNanos(unit.toNanos(delay));
        return scheduleFirstRun(new ScheduledTask<Void>(this, command, null, System.nanoTime() + nanos, 0L), nanos);
    }

    <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        notNull(callable, "schedule", "callable");
        notNull(unit, "schedule", "unit");
        long nanos = clampNanos(unit.toNanos(delay));
        return scheduleFirstRun(new ScheduledTask<>(this, callable, System.nanoTime() + nanos), nanos);
    }

    /** {@code what} names {@code every} in messages: "period" (fixed rate) or "delay" (fixed delay). */
    ScheduledFuture<?> schedulePeriodic(String method, String what, Runnable command, long initialDelay,
            long every, TimeUnit unit, boolean fixedRate) {
        notNull(command, method, "command");
        notNull(unit, method, "unit");
        if (every <= 0) {
            throw new IllegalArgumentException(method + " on the " + who() + ": " + what + " must be > 0, was "
                    + every + " " + unit);
        }
        long nanos = clampNanos(unit.toNanos(initialDelay));
        long everyNanos = Math.max(1L, clampNanos(unit.toNanos(every)));
        // ScheduledTask's encoding: a positive period is a fixed rate, a negative one a fixed delay.
        return scheduleFirstRun(new ScheduledTask<Void>(this, command, null, System.nanoTime() + nanos,
                fixedRate ? everyNanos : -everyNanos), nanos);
    }

    private <V> ScheduledTask<V> scheduleFirstRun(ScheduledTask<V> task, long delayNanos) {
        lifecycle.admit(task);
        Dispatch d = new Dispatch(lifecycle, task);
        task.current = d;
        live.add(d);
        try {
            d.setTimer(pool.schedule(d, delayNanos, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            d.withdraw();
            throw lifecycle.rejectedByPool(task, e);
        } catch (RuntimeException | Error e) {
            d.withdraw(); // the pool's task decorator failed: nothing was queued
            throw e;
        }
        return task;
    }

    /**
     * The next run of a periodic task, in the dispatch {@code d}: admitted without the shutdown check
     * ({@link ExecutorLifecycle#admitNextRun()}). False if the pool rejects it; the exception of the pool's task
     * decorator, which decorates every run, passes through (nothing is queued).
     */
    boolean scheduleNextRun(Dispatch d, long delayNanos) {
        lifecycle.admitNextRun();
        live.add(d);
        try {
            d.setTimer(pool.schedule(d, delayNanos, TimeUnit.NANOSECONDS));
            return true;
        } catch (RejectedExecutionException e) {
            d.withdraw();
            return false;
        } catch (RuntimeException | Error e) {
            d.withdraw();
            throw e;
        }
    }

    /** True once the executor, or its pool through any face, was shut down. */
    boolean isShutdown() {
        return lifecycle.isShutdown();
    }

    /** A timeout argument in nanoseconds, clamped as {@link #clampNanos}; {@code unit} must not be null. */
    long timeoutNanos(String method, long timeout, TimeUnit unit) {
        notNull(unit, method, "unit");
        return clampNanos(unit.toNanos(timeout));
    }

    // Messages: each names the pool, as the pool's own messages do ("pool NAME").

    /** "executor owning pool NAME" or "view of pool NAME". */
    String who() {
        return lifecycle.who();
    }

    void notNull(Object value, String method, String name) {
        if (value == null) {
            throw new NullPointerException(method + " on the " + who() + ": " + name + " must not be null");
        }
    }

    static RejectedExecutionException rejectedAfterShutdown(String who, Object what,
            RejectedExecutionException cause) {
        return new RejectedExecutionException("the " + who + " is shut down, rejected " + TaskNames.brief(what)
                + "; allowed: tasks submitted before shutdown or close", cause);
    }

    /**
     * The pool refused a task while running: its queue is full ({@code ForagePoolBuilder.queueCapacity}, under
     * {@code QueueFullPolicy.REJECT}). The pool's own exception, which names the queue that was full, is the cause;
     * its message is not repeated here, since it names the same task again.
     */
    static RejectedExecutionException rejectedByFullQueue(String who, ForagePool pool, Object what,
            RejectedExecutionException cause) {
        return new RejectedExecutionException("the " + who + " rejected " + TaskNames.brief(what) + ": queue capacity "
                + "exceeded (queueCapacity " + pool.queueCapacity() + "); allowed: a producer that waits for its "
                + "tasks, or whenQueueFull CALLER_RUNS", cause);
    }

    /** A timeout or delay in nanoseconds, at least zero and at most {@link #MAX_NANOS}. */
    static long clampNanos(long nanos) {
        return Math.min(Math.max(nanos, 0L), MAX_NANOS);
    }
}
