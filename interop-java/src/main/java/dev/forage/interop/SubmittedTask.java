package dev.forage.interop;

import dev.forage.TaskWrapper;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of a task submitted to a {@link ForageExecutorService}: a {@link FutureTask} (so run, cancel and
 * get keep their well-known semantics) whose {@code get} helps on a pool worker instead of blocking it, and
 * whose {@code cancel} takes a never-started task back from the pool at once.
 *
 * <p>An owning executor hands the task itself to the pool (the pool calls {@link #run()}); a view wraps it in a
 * {@link Dispatch} first (which calls {@link #runDispatched()}), so that it can count and withdraw it.
 */
class SubmittedTask<V> extends FutureTask<V> implements TaskWrapper {
    /** The dispatch that currently carries this task to the pool (the latest one for a periodic task). */
    volatile Dispatch current;
    /** Workers helping in {@code get} (other threads block in FutureTask.get); released when done. */
    private final LatchStack waiters = new LatchStack();
    /** The thread running this task, while it does. Guarded by {@code this}. */
    private Thread runner;
    /**
     * The class of the user's callable or runnable, for diagnostics ({@link TaskWrapper}): {@link FutureTask}
     * keeps the callable only until it ran (and a runnable only inside an adapter).
     */
    private final Class<?> userClass;

    SubmittedTask(Callable<V> callable) {
        super(callable);
        this.userClass = callable.getClass();
    }

    /** A task that runs {@code callable} on behalf of a user's task of class {@code userClass} (an adapter). */
    SubmittedTask(Callable<V> callable, Class<?> userClass) {
        super(callable);
        this.userClass = userClass;
    }

    SubmittedTask(Runnable runnable, V result) {
        super(runnable, result);
        this.userClass = runnable.getClass();
    }

    @Override
    public final Object wrappedTask() {
        return userClass;
    }

    /** Runs the task for its dispatch (the pool-side run through a {@link Dispatch}). */
    void runDispatched() {
        run();
    }

    /** As {@link FutureTask#run()}, recording the running thread for {@link #cancel(boolean) cancel(true)}. */
    @Override
    public void run() {
        enter();
        try {
            super.run();
        } finally {
            exit();
        }
    }

    /** Records the calling thread as the runner. Pair with {@link #exit()} in a finally block. */
    final void enter() {
        synchronized (this) {
            runner = Thread.currentThread();
        }
    }

    /**
     * Forgets the runner. Hazard: after this block no canceller can target this thread for this task any more,
     * so a wake-up meant for a helping wait inside this task cannot end a wait of the next job on the worker.
     */
    final void exit() {
        synchronized (this) {
            runner = null;
        }
    }

    /** Interrupts the running thread and wakes its helping wait, if this task is running: shutdownNow. */
    final synchronized void interruptRunner() {
        if (runner != null) {
            Waiting.interrupt(runner);
        }
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
            if (mayInterruptIfRunning) {
                wakeRunner(); // FutureTask interrupted it; a helping wait also needs its frame woken
            }
            Dispatch d = current;
            if (d != null) {
                d.withdraw();
            }
        }
        return cancelled;
    }

    private synchronized void wakeRunner() {
        if (runner != null) {
            Waiting.wake(runner);
        }
    }

    /** As {@link FutureTask#get()}; on a pool worker, runs other jobs until the task is done. */
    @Override
    public V get() throws InterruptedException, ExecutionException {
        if (!isDone() && Waiting.onWorker()) {
            Waiting.await(waiters, Waiting.FOREVER);
        }
        return super.get();
    }

    /**
     * As {@link FutureTask#get(long, TimeUnit)}; on a pool worker, runs other jobs while it waits. A timeout of
     * zero or less does not wait.
     */
    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Checks.notNull(unit, "get", "unit");
        if (!isDone() && Waiting.onWorker()) {
            if (!Waiting.await(waiters, Waiting.timeoutNanos(timeout, unit)) && !isDone()) {
                throw new TimeoutException("task not done after " + timeout + " " + unit + ": " + this);
            }
            return super.get();
        }
        return super.get(timeout, unit);
    }
}
