package dev.forage;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One worker's blocking state in a strategy whose sleepers share one lock (the single lock of Rayon's pre-RFC-5
 * module, EMPER's hint pipe): the lock-guarded {@code blocked} flag, which only the worker sets and only a waker (or
 * the worker's own timer deadline) clears, and the worker's {@link Parker}, in which it blocks. It is the
 * condition variable of those designs, built on the parker as a condition variable is built on a thread park: the
 * worker checks {@code blocked} under the lock, releases the lock and parks; a waker clears the flag under the lock
 * and unparks. An unpark that comes between the release and the park is the park's permit, so none is lost.
 */
final class SharedLockSleepState {
    private final ReentrantLock lock;
    private final Parker parker;
    /** Guarded by the shared lock. */
    boolean blocked;

    SharedLockSleepState(ReentrantLock lock, Parker parker) {
        this.lock = lock;
        this.parker = parker;
    }

    /**
     * The worker, holding the lock, with {@code blocked} set: waits until a waker clears it, or until the deadline
     * that {@link IdleContext#parkNanos} gives passes (the timer watch, or a timed latch wait). Returns true when a
     * waker cleared it; false when the worker woke itself, in which case this clears the flag. Holds the lock again
     * on return.
     */
    boolean await(IdleContext context) {
        return park(context);
    }

    /** The worker, holding the lock, with {@code blocked} set: waits until a waker clears it, with no deadline. */
    void awaitWake() {
        park(null);
    }

    private boolean park(IdleContext context) {
        parker.bindCurrentThread(); // before the lock is released: no waker can see blocked before this
        boolean interrupted = false;
        try {
            while (blocked) {
                long nanos = context == null ? IdleContext.PARK_FOREVER : context.parkNanos();
                if (nanos != IdleContext.PARK_FOREVER && nanos <= 0L) {
                    blocked = false;
                    return false;
                }
                lock.unlock();
                try {
                    parker.park(nanos == IdleContext.PARK_FOREVER ? Parker.FOREVER : nanos);
                    // Workers are not woken by interrupts (as in JecSleep): clear it so that the park does not
                    // return at once again, and set it again on the way out, as awaitUninterruptibly would.
                    interrupted |= Thread.interrupted();
                } finally {
                    lock.lock();
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A waker, holding the lock: wakes the worker if it is blocked. Returns whether it did. */
    boolean wake() {
        if (!blocked) {
            return false;
        }
        blocked = false;
        parker.unpark();
        return true;
    }

    /** Holding the lock: makes a blocked worker re-read its deadline without waking it (a timer moved earlier). */
    void rereadDeadline() {
        parker.unpark();
    }
}
