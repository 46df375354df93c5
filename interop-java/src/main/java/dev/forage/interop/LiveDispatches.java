package dev.forage.interop;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Dispatch}es an executor handed to its pool that have not ended yet (queued, waiting in a timer, or
 * running): every one of a view's, and an owning executor's delayed and periodic ones (its immediate tasks go to
 * the pool as they are). Shutdown finds here the periodic tasks to cancel, {@code shutdownNow} the tasks to take
 * back and the runners to interrupt.
 */
final class LiveDispatches {
    private final Set<Dispatch> dispatches = ConcurrentHashMap.newKeySet();

    void add(Dispatch d) {
        dispatches.add(d);
    }

    /** The dispatch ended: it ran, or it was withdrawn. */
    void remove(Dispatch d) {
        dispatches.remove(d);
    }

    boolean isEmpty() {
        return dispatches.isEmpty();
    }

    /**
     * Cancels the periodic tasks whose next run waits in a timer: only those, since a run in progress finishes
     * and then cancels its task ({@link ScheduledTask#runDispatched()}). Idempotent. Without it, the timer of an
     * hourly task would keep a shut-down pool's last worker, and so {@code pool.close()}, waiting until its
     * deadline.
     */
    void cancelWaitingPeriodicRuns() {
        for (Dispatch d : dispatches) {
            if (d.isPeriodic() && d.withdraw()) {
                d.task().cancel(false);
            }
        }
    }

    /**
     * Takes back every dispatch that has not started and adds what {@code shutdownNow} reports for it (the
     * user's runnable, or the future) to {@code neverStarted}.
     */
    void withdrawAll(List<Runnable> neverStarted) {
        for (Dispatch d : dispatches) {
            if (d.withdraw()) {
                neverStarted.add(d.reported());
            }
        }
    }

    /** Interrupts the threads running these dispatches (a no-op for those not running). */
    void interruptRunners() {
        for (Dispatch d : dispatches) {
            d.interruptRunner();
        }
    }
}
