package dev.forage.interop;

import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The future of a delayed or periodic task of a {@link ForageExecutorService}. Each run is carried by a
 * {@link Dispatch} that waits in the pool's timers until its deadline; a periodic task schedules the next
 * dispatch when a run ends normally, and ends for good when a run throws, when it is cancelled, or when the
 * executor shuts down (as {@code ScheduledThreadPoolExecutor} does by default).
 */
final class ScheduledTask<V> extends SubmittedTask<V> implements RunnableScheduledFuture<V> {
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final ExecutorCore executor;
    /** Zero: one-shot. Positive: fixed rate. Negative: fixed delay (the negated delay). Nanoseconds. */
    private final long period;
    /** Breaks ties between equal deadlines in {@link #compareTo}: first scheduled, first. */
    private final long sequence = SEQUENCE.getAndIncrement();
    /** The {@link System#nanoTime()} of the next run. */
    private volatile long deadline;

    ScheduledTask(ExecutorCore executor, Callable<V> callable, long deadline) {
        super(callable);
        this.executor = executor;
        this.period = 0L;
        this.deadline = deadline;
    }

    ScheduledTask(ExecutorCore executor, Runnable runnable, V result, long deadline, long period) {
        super(runnable, result);
        this.executor = executor;
        this.period = period;
        this.deadline = deadline;
    }

    long deadline() {
        return deadline;
    }

    @Override
    public boolean isPeriodic() {
        return period != 0L;
    }

    /**
     * Runs this period, and schedules the next one if the task goes on. Only one dispatch of a task is ever
     * live, so runs never overlap. After shutdown (of the executor, or of its pool through any face) a periodic
     * task starts no new run; a run already in progress finishes, and the task is cancelled after it, as
     * {@code ScheduledThreadPoolExecutor} does by default.
     */
    @Override
    void runDispatched() {
        if (period == 0L) {
            run();
            return;
        }
        if (executor.isShutdown()) {
            cancel(false); // fired after shutdown: a periodic task runs no more
            return;
        }
        boolean goesOn;
        enter();
        try {
            goesOn = runAndReset();
        } finally {
            exit();
        }
        if (!goesOn) {
            return; // it threw (the future holds the exception) or was cancelled
        }
        if (executor.isShutdown()) {
            cancel(false);
            return;
        }
        long now = System.nanoTime();
        long next = period > 0 ? deadline + period : now - period;
        deadline = next;
        Dispatch d = new Dispatch(executor.lifecycle, this);
        current = d;
        boolean scheduled;
        try {
            scheduled = executor.scheduleNextRun(d, next - now);
        } catch (RuntimeException | Error e) {
            setException(e); // the pool's task decorator failed on the next run: the task stops, as if the run threw
            return;
        }
        if (!scheduled) {
            cancel(false); // the pool itself is shut down: the next period can never run
            return;
        }
        // Mirrors cancel() and shutdown(): they write their state and then look at `current`; we published
        // `current` and now look at their state, so a cancel racing with this reschedule is never missed.
        if (isCancelled() || executor.isShutdown()) {
            cancel(false);
            d.withdraw();
        }
    }

    /**
     * For a task handed back by {@code shutdownNow} and run by the user: one-shot tasks run once; a periodic
     * task runs one period (it is not rescheduled: it no longer belongs to a running executor).
     */
    @Override
    public void run() {
        if (period == 0L) {
            super.run();
        } else {
            runAndReset();
        }
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTask) {
            ScheduledTask<?> o = (ScheduledTask<?>) other;
            long diff = deadline - o.deadline;
            if (diff != 0) {
                return diff < 0 ? -1 : 1;
            }
            return sequence < o.sequence ? -1 : 1;
        }
        long diff = getDelay(TimeUnit.NANOSECONDS) - other.getDelay(TimeUnit.NANOSECONDS);
        return diff < 0 ? -1 : diff > 0 ? 1 : 0;
    }

    @Override
    public String toString() {
        return "ScheduledTask[" + (period == 0 ? "one-shot" : period > 0 ? "fixed rate" : "fixed delay")
                + ", " + (isCancelled() ? "cancelled" : isDone() ? "done" : "pending") + "]@"
                + Integer.toHexString(System.identityHashCode(this));
    }
}
