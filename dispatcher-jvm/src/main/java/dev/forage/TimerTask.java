package dev.forage;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A job that becomes runnable at a deadline. When due it is moved to the pool's injector and runs as an
 * ordinary injected job. Not part of Forage's API; users see it as a {@code dev.forage.TimerHandle}.
 */
class TimerTask implements Runnable, TaskWrapper {
    static final int PENDING = 0;
    static final int FIRED = 1;
    static final int CANCELLED = 2;

    private static final AtomicIntegerFieldUpdater<TimerTask> STATE =
            AtomicIntegerFieldUpdater.newUpdater(TimerTask.class, "state");

    final Runnable job;
    final long deadlineNanos;
    /** Tie-breaker: timers with equal deadlines fire in the order they were scheduled. */
    long sequence;
    /** Position in the queue's heap, or -1 when not in it. Guarded by the queue's lock. */
    int heapIndex = -1;
    private volatile int state;
    private volatile TimerQueue queue;

    /**
     * The job needs no worker: it is short and never blocks (it completes a future, cancels a call), so the
     * monitor runs it where it notices the deadline instead of queueing it ({@link ForagePool#scheduleTimeout}).
     */
    final boolean inline;

    public TimerTask(Runnable job, long deadlineNanos) {
        this(job, deadlineNanos, false);
    }

    TimerTask(Runnable job, long deadlineNanos, boolean inline) {
        this.job = job;
        this.deadlineNanos = deadlineNanos;
        this.inline = inline;
    }

    public final long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public final Object wrappedTask() {
        return job;
    }

    /** Runs the job. Called by a worker once the timer fired. */
    @Override
    public void run() {
        job.run();
    }

    /**
     * Cancels the timer if it has not fired: it is removed from the queue at once, so cancelled timers never
     * pile up. Returns false if it already fired or was cancelled.
     */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, PENDING, CANCELLED)) {
            return false;
        }
        TimerQueue q = queue;
        if (q != null) {
            removed(q.remove(this));
        }
        return true;
    }

    /**
     * The cancelled timer left its queue; {@code watcher} is the worker to tell that no deadline is left
     * ({@link TimerQueue#remove}), or {@link TimerQueue#NO_WATCHER}.
     */
    void removed(int watcher) {
    }

    public final boolean isCancelled() {
        return state == CANCELLED;
    }

    public final boolean hasFired() {
        return state == FIRED;
    }

    /** The queue claims the timer for firing; false when it was cancelled first. */
    final boolean markFired() {
        return STATE.compareAndSet(this, PENDING, FIRED);
    }

    final void attach(TimerQueue q) {
        queue = q;
    }

    /** The job this timer runs, for reporting jobs that never ran. */
    public final Runnable job() {
        return job;
    }
}
