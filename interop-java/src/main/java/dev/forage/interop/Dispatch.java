package dev.forage.interop;

import dev.forage.TaskWrapper;
import dev.forage.TimerHandle;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One hand-over of a task from a {@link ForageExecutorService} to its pool: the object the pool queues and
 * runs. It exists so that the executor can take a task back after handing it over (the pool offers no removal):
 * whoever {@linkplain #claim() claims} the dispatch first decides its fate, either the pool running it or the
 * executor withdrawing it ({@code shutdownNow}, {@code cancel}), and the loser does nothing. The executor's
 * {@link ExecutorLifecycle} is told when a dispatch ends, and the claim is what makes that happen exactly once
 * (a view counts its live dispatches).
 *
 * <p>A periodic task gets a new dispatch for every period.
 */
final class Dispatch implements Runnable, TaskWrapper {
    private static final AtomicIntegerFieldUpdater<Dispatch> CLAIMED =
            AtomicIntegerFieldUpdater.newUpdater(Dispatch.class, "claimed");

    private final ExecutorLifecycle lifecycle;
    /** The user's runnable for {@code execute}; null when {@link #task} is set. */
    private final Runnable command;
    /** The future for {@code submit} and {@code schedule}; null for {@code execute}. */
    private final SubmittedTask<?> task;
    private volatile int claimed;
    /** The pool timer of a delayed dispatch, once scheduled. */
    private volatile TimerHandle timer;
    /**
     * The thread running this dispatch's {@link #command}, while it does. Guarded by {@code this}. (A task
     * tracks its own runner: {@link SubmittedTask#interruptRunner()}.)
     */
    private Thread runner;

    Dispatch(ExecutorLifecycle lifecycle, Runnable command) {
        this.lifecycle = lifecycle;
        this.command = command;
        this.task = null;
    }

    Dispatch(ExecutorLifecycle lifecycle, SubmittedTask<?> task) {
        this.lifecycle = lifecycle;
        this.command = null;
        this.task = task;
    }

    /** The pool runs it: claim it, run the task, and tell the executor, unless it was withdrawn first. */
    @Override
    public void run() {
        if (!claim()) {
            return; // withdrawn by shutdownNow or cancel: it is no longer ours to run
        }
        if (task != null) {
            try {
                task.runDispatched();
            } finally {
                lifecycle.dispatchEnded(this);
            }
            return;
        }
        synchronized (this) {
            runner = Thread.currentThread();
        }
        try {
            command.run(); // an exception reaches the pool's uncaught-exception handler, as with execute
        } finally {
            // Hazard: after this block no interrupter can target this thread for this dispatch any more, so
            // an interrupt meant for it cannot reach the next job (the pool clears the flag after each job).
            synchronized (this) {
                runner = null;
            }
            lifecycle.dispatchEnded(this);
        }
    }

    /** First claim wins: true for exactly one caller. */
    boolean claim() {
        return claimed == 0 && CLAIMED.compareAndSet(this, 0, 1);
    }

    boolean isClaimed() {
        return claimed != 0;
    }

    /**
     * Takes the dispatch back if it never started: its timer (if any) is cancelled and it leaves the executor's
     * books. Returns false if it started (or was withdrawn) already.
     */
    boolean withdraw() {
        if (!claim()) {
            return false;
        }
        TimerHandle t = timer;
        if (t != null) {
            t.cancel();
        }
        lifecycle.dispatchEnded(this);
        return true;
    }

    /** Records the pool timer; cancels it at once if the dispatch was withdrawn meanwhile. */
    void setTimer(TimerHandle handle) {
        timer = handle;
        // Mirrors withdraw(): it claims and then reads the timer; we write the timer and then read the claim,
        // so at least one of us cancels it. A stale timer would keep an owned pool's last worker alive.
        if (isClaimed()) {
            handle.cancel();
        }
    }

    /** Interrupts the running thread, if this dispatch is running: shutdownNow. */
    void interruptRunner() {
        if (task != null) {
            task.interruptRunner();
            return;
        }
        synchronized (this) {
            if (runner != null) {
                Waiting.interrupt(runner);
            }
        }
    }

    /** What {@code shutdownNow} reports for a withdrawn dispatch: the user's runnable, or the future. */
    Runnable reported() {
        return task != null ? task : command;
    }

    @Override
    public Object wrappedTask() {
        return reported();
    }

    boolean isPeriodic() {
        return task instanceof ScheduledTask && ((ScheduledTask<?>) task).isPeriodic();
    }

    SubmittedTask<?> task() {
        return task;
    }

    @Override
    public String toString() {
        return "Dispatch[" + reported() + "]";
    }
}
