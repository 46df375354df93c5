package dev.forage.interop;

import dev.forage.ForagePool;
import dev.forage.TaskNames;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The life cycle of a view ({@code ForageExecutorService.viewOf}): one of possibly many executors over a shared
 * pool, with a life cycle of its own. Shutting it down stops only this view, {@code shutdownNow} takes back and
 * interrupts only its tasks, and it terminates once its tasks ended. The pool keeps running.
 *
 * <p>A view must know its own tasks (to withdraw them, and to await only them), so it wraps each in a
 * {@link Dispatch} and counts the live ones in {@link #control}, one word that also holds its SHUTDOWN bit. A
 * submission increments and then checks the bit; shutdown sets the bit and then checks the count (as the pool's
 * own admission does), so a task is either rejected or counted before termination is decided, and each dispatch
 * leaves the count exactly once.
 *
 * <p>The pool's shutdown, through any face, shuts the view down too; the view learns of it when next asked
 * ({@link #isShutdown()}, a submission, a periodic task's next run) rather than from a shutdown action, since
 * views are many and short-lived, and an action per view would stay registered on a long-lived pool.
 */
final class ViewLifecycle implements ExecutorLifecycle {
    /** {@link #control}: this bit once shut down; the low bits count live dispatches. */
    private static final long SHUTDOWN = 1L << 62;
    /**
     * How often {@code awaitTermination} looks whether the pool terminated, once the pool is shut down: the
     * pool has no termination callback, and tasks that the pool's {@code shutdownNow} took away never end for
     * the view. Only that case polls; a view whose tasks end is woken by the last one.
     */
    private static final long POOL_TERMINATION_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ForagePool pool;
    private final LiveDispatches live;
    /** SHUTDOWN bit plus the number of live dispatches (queued, waiting in a timer, or running). */
    private final AtomicLong control = new AtomicLong();
    /** Released once shut down with no live dispatch; {@code awaitTermination} waits on it. */
    private final LatchStack drained = new LatchStack();

    ViewLifecycle(ForagePool pool, LiveDispatches live) {
        this.pool = pool;
        this.live = live;
    }

    @Override
    public boolean ownsPool() {
        return false;
    }

    @Override
    public String who() {
        return "view of pool " + pool.name();
    }

    @Override
    public void execute(Runnable command) {
        admit(command);
        handOver(new Dispatch(this, command), command);
    }

    /**
     * Admits the task before it gets its dispatch: a dispatch that a task carries is counted, so a later
     * {@code cancel} of a rejected task (invokeAll cancels every task it created) cannot release a count that
     * was never taken, which would clear the SHUTDOWN bit.
     */
    @Override
    public void dispatch(SubmittedTask<?> task) {
        admit(task);
        Dispatch d = new Dispatch(this, task);
        task.current = d;
        handOver(d, task);
    }

    /** Hands an admitted dispatch to the pool. */
    private void handOver(Dispatch d, Object what) {
        live.add(d);
        try {
            pool.execute(d);
        } catch (RejectedExecutionException e) {
            d.withdraw();
            throw rejectedByPool(what, e);
        } catch (RuntimeException | Error e) {
            d.withdraw(); // the pool's task decorator failed: nothing was queued, so the view must not wait for it
            throw e;
        }
    }

    @Override
    public void admit(Object what) {
        long c = control.getAndIncrement();
        if ((c & SHUTDOWN) != 0) {
            release();
            throw ExecutorCore.rejectedAfterShutdown(who(), what, null);
        }
        if (pool.isShutdown()) {
            // A view over a shut-down pool is shut down, whichever face shut the pool down.
            release();
            shutdown();
            throw rejectedByPool(what, null);
        }
    }

    @Override
    public void admitNextRun() {
        control.incrementAndGet();
    }

    @Override
    public RejectedExecutionException rejectedByPool(Object what, RejectedExecutionException cause) {
        if (cause != null && !pool.isShutdown()) {
            return ExecutorCore.rejectedByFullQueue(who(), pool, what, cause);
        }
        return new RejectedExecutionException("the " + who() + " is shut down with its pool, rejected "
                + TaskNames.brief(what) + "; allowed: tasks submitted before the pool's shutdown", cause);
    }

    @Override
    public void dispatchEnded(Dispatch d) {
        live.remove(d);
        release();
    }

    private void release() {
        if (control.decrementAndGet() == SHUTDOWN) {
            drained.releaseAll();
        }
    }

    /** Sets the SHUTDOWN bit; releases {@link #drained} if no dispatch is live. */
    private void markShutdown() {
        while (true) {
            long c = control.get();
            if ((c & SHUTDOWN) != 0) {
                return;
            }
            if (control.compareAndSet(c, c | SHUTDOWN)) {
                if (c == 0) {
                    drained.releaseAll();
                }
                return;
            }
        }
    }

    /** Stops this view accepting tasks; the pool keeps running. */
    @Override
    public void shutdown() {
        markShutdown();
        live.cancelWaitingPeriodicRuns();
    }

    /**
     * Withdraws everything first, interrupts second: an interrupted task ends and frees its worker, which would
     * otherwise start queued tasks that the first pass has not withdrawn yet.
     */
    @Override
    public List<Runnable> shutdownNow() {
        markShutdown();
        List<Runnable> neverStarted = new ArrayList<>();
        live.withdrawAll(neverStarted);
        live.interruptRunners();
        return neverStarted;
    }

    @Override
    public boolean isShutdown() {
        followPool();
        return (control.get() & SHUTDOWN) != 0;
    }

    /** A terminated pool runs nothing more, so a view over it is terminated too (and shut down: followPool). */
    @Override
    public boolean isTerminated() {
        followPool();
        return drained.isReleased() || pool.isTerminated();
    }

    /** On a worker of the pool it keeps running other jobs while it waits. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        followPool();
        long nanos = ExecutorCore.clampNanos(unit.toNanos(timeout));
        if (!pool.isShutdown() || pool.isCurrentThreadWorker()) {
            return Waiting.await(drained, nanos);
        }
        // The pool is shut down: its termination also ends this view (see POOL_TERMINATION_POLL_NANOS).
        long deadline = System.nanoTime() + nanos;
        while (true) {
            long left = deadline - System.nanoTime();
            if (Waiting.await(drained, Math.max(Math.min(left, POOL_TERMINATION_POLL_NANOS), 0L))) {
                return true;
            }
            if (pool.isTerminated()) {
                return true;
            }
            if (left <= 0) {
                return false;
            }
        }
    }

    /** Adopts the pool's shutdown, whichever face shut the pool down. */
    private void followPool() {
        if ((control.get() & SHUTDOWN) == 0 && pool.isShutdown()) {
            shutdown();
        }
    }

    @Override
    public String describe(String state) {
        return "view of pool " + pool.name() + ", " + state + ", tasks=" + (control.get() & ~SHUTDOWN);
    }
}
