package dev.forage;

import java.util.concurrent.TimeUnit;

/**
 * A job scheduled with {@link ForagePool#schedule}: cancel it, or ask how long until it runs.
 *
 * <pre>{@code
 * TimerHandle h = pool.schedule(this::refresh, 5, TimeUnit.SECONDS);
 * if (userLeft) h.cancel();
 * }</pre>
 */
public final class TimerHandle {
    private final TimerTask task;
    private final Clock clock;

    TimerHandle(TimerTask task, Clock clock) {
        this.task = task;
        this.clock = clock;
    }

    /**
     * Cancels the job if it has not started: it is removed from the pool's timers at once. Returns false if it
     * already fired (it is queued or ran) or was cancelled before.
     */
    public boolean cancel() {
        return task.cancel();
    }

    /** True if {@link #cancel()} succeeded. */
    public boolean isCancelled() {
        return task.isCancelled();
    }

    /** True once the deadline passed and the job was handed to the workers. */
    public boolean hasFired() {
        return task.hasFired();
    }

    /** Time left until the deadline (zero or negative once due). */
    public long getDelay(TimeUnit unit) {
        return unit.convert(task.deadlineNanos() - clock.nanoTime(), TimeUnit.NANOSECONDS);
    }
}
