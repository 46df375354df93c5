package dev.forage;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One worker's blocking state in a strategy whose sleepers share one lock (the single lock of Rayon's pre-RFC-5
 * module, EMPER's hint pipe): a condition of that lock and the lock-guarded {@code blocked} flag, which only the
 * worker sets and only a waker (or the worker's own timer deadline) clears. The same discipline as
 * {@link WorkerSleepState}: the worker holds the lock from its last check until it is inside {@code await}, so a
 * waker that takes the lock and sees {@code blocked} cannot signal too early.
 */
final class SharedLockSleepState {
    final Condition wakeUp;
    /** Guarded by the shared lock. */
    boolean blocked;

    SharedLockSleepState(ReentrantLock lock) {
        this.wakeUp = lock.newCondition();
    }

    /**
     * The worker, holding the lock, with {@code blocked} set: waits until a waker clears it, or until the deadline
     * that {@link IdleContext#parkNanos} gives passes (the timer watch, or a timed latch wait). Returns true when a
     * waker cleared it; false when the worker woke itself, in which case this clears the flag.
     */
    boolean await(IdleContext context) {
        while (blocked) {
            long nanos = context.parkNanos();
            if (nanos == IdleContext.PARK_FOREVER) {
                wakeUp.awaitUninterruptibly();
            } else if (nanos <= 0L) {
                blocked = false;
                return false;
            } else {
                try {
                    wakeUp.awaitNanos(nanos);
                } catch (InterruptedException ignored) {
                    // Workers are not woken by interrupts (as in JecSleep); the loop re-checks the flag.
                }
            }
        }
        return true;
    }

    /** A waker, holding the lock: wakes the worker if it is blocked. Returns whether it did. */
    boolean wake() {
        if (!blocked) {
            return false;
        }
        blocked = false;
        wakeUp.signal();
        return true;
    }

    /** Holding the lock: makes a blocked worker re-read its deadline without waking it (a timer moved earlier). */
    void rereadDeadline() {
        wakeUp.signal();
    }
}
