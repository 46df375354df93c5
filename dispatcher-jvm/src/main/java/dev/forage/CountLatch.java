package dev.forage;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A latch that is set when a counter of outstanding jobs reaches zero (Rayon's {@code CountLatch}, used by
 * {@code scope}). The counter starts at one, for the scope's own body. The final decrement sets the inner latch:
 * the owner's {@link SpinLatch} (a scope begun outside the pool runs inside {@code install}, on a worker, so
 * the owner is always a worker that keeps running jobs while it waits).
 */
final class CountLatch implements Latch {
    private static final AtomicIntegerFieldUpdater<CountLatch> COUNT =
            AtomicIntegerFieldUpdater.newUpdater(CountLatch.class, "count");

    private volatile int count = 1;
    private final Latch inner;

    public CountLatch(Latch inner) {
        this.inner = inner;
    }

    /** One more outstanding job. Called by a thread that holds a count itself, so the count is not zero. */
    public void increment() {
        // A CAS, not getAndIncrement: a refused increment must leave the count at zero, or the next spawn into
        // an ended scope would be accepted and would set the latch a second time.
        while (true) {
            int old = count;
            if (old <= 0) {
                throw new IllegalStateException("CountLatch incremented after it was set (count was " + old + ")");
            }
            if (COUNT.compareAndSet(this, old, old + 1)) {
                return;
            }
        }
    }

    /** One job finished; the last one sets the inner latch. */
    @Override
    public void set() {
        if (countDown()) {
            inner.set();
        }
    }

    /**
     * One job finished: true for the last one, which must then set {@link #inner()}. The one atomic decrement
     * comes after every call this method makes, so a throwable that cuts it short (a job's completion that ran
     * out of stack, {@link WaitedJob}) either left the count alone or came after it changed.
     */
    boolean countDown() {
        return COUNT.decrementAndGet(this) == 0;
    }

    /** Only for the job whose {@link #countDown()} was the last: its recovery sets and wakes the inner latch. */
    @Override
    public void setAndWake() {
        inner.setAndWake();
    }

    @Override
    public boolean probe() {
        return inner.probe();
    }

    /** The latch the owner waits on. */
    public Latch inner() {
        return inner;
    }
}
