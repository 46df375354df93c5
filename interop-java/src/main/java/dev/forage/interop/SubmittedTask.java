package dev.forage.interop;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of a task submitted to a {@link ForageExecutorService}: a {@link FutureTask} (so run, cancel and
 * get keep their well-known semantics) whose {@code get} helps on a pool worker instead of blocking it, and
 * whose {@code cancel} takes a never-started task back from the pool at once.
 */
class SubmittedTask<V> extends FutureTask<V> {
    /** The dispatch that currently carries this task to the pool (the latest one for a periodic task). */
    volatile Dispatch current;
    /** Workers helping in {@code get} (other threads block in FutureTask.get); released when done. */
    private final LatchStack waiters = new LatchStack();

    SubmittedTask(Callable<V> callable) {
        super(callable);
    }

    SubmittedTask(Runnable runnable, V result) {
        super(runnable, result);
    }

    /** Runs the task for its dispatch (the pool-side run; {@link #run()} stays the user's). */
    void runDispatched() {
        run();
    }

    @Override
    protected void done() {
        waiters.releaseAll();
    }

    /**
     * Cancels as {@link FutureTask#cancel} does; a task that has not started is also withdrawn from the pool,
     * so it stops counting towards {@code awaitTermination} at once (a delayed one leaves the pool's timers).
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            Dispatch d = current;
            if (d != null) {
                if (mayInterruptIfRunning) {
                    d.wakeRunner(); // FutureTask interrupted it; a helping wait also needs its frame woken
                }
                d.withdraw();
            }
        }
        return cancelled;
    }

    /** As {@link FutureTask#get()}; on a pool worker, runs other jobs until the task is done. */
    @Override
    public V get() throws InterruptedException, ExecutionException {
        if (!isDone() && Waiting.onWorker()) {
            Waiting.await(waiters, Waiting.FOREVER);
        }
        return super.get();
    }

    /** As {@link FutureTask#get(long, TimeUnit)}; on a pool worker, runs other jobs while it waits. */
    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Checks.notNull(unit, "get", "unit");
        if (!isDone() && Waiting.onWorker()) {
            if (!Waiting.await(waiters, unit.toNanos(timeout)) && !isDone()) {
                throw new TimeoutException("task not done after " + timeout + " " + unit + ": " + this);
            }
            return super.get();
        }
        return super.get(timeout, unit);
    }
}
