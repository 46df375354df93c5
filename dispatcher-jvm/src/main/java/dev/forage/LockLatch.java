package dev.forage;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A latch for a thread outside the pool, which has nothing else to run and simply blocks (Rayon's
 * {@code LockLatch}).
 */
final class LockLatch implements Latch {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition isSet = lock.newCondition();
    private volatile boolean set;

    @Override
    public void set() {
        lock.lock();
        try {
            set = true;
            isSet.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #set()} signals whatever the state was. */
    @Override
    public void setAndWake() {
        set();
    }

    @Override
    public boolean probe() {
        return set;
    }

    /** Blocks until set. Interrupts are remembered and re-asserted on return, never lost. */
    public void awaitUninterruptibly() {
        if (set) {
            return;
        }
        lock.lock();
        try {
            while (!set) {
                isSet.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until set, or throws {@link InterruptedException}. */
    public void await() throws InterruptedException {
        if (set) {
            return;
        }
        lock.lockInterruptibly();
        try {
            while (!set) {
                isSet.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until set or the timeout elapses; returns whether it is set. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (set) {
            return true;
        }
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!set) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = isSet.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
