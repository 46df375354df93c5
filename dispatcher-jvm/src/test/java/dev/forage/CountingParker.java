package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/** A {@link ThreadParker} that counts its unparks and remembers who parked. */
final class CountingParker extends Parker {
    private final ThreadParker inner = new ThreadParker();
    final AtomicInteger unparks = new AtomicInteger();
    volatile Thread parkedThread;
    /** Every park lasts until an unpark (or a spurious return), whatever its deadline. */
    volatile boolean untilUnparked;

    @Override
    public void bindCurrentThread() {
        inner.bindCurrentThread();
    }

    @Override
    public void park(long nanos) {
        parkedThread = Thread.currentThread();
        inner.park(untilUnparked ? Parker.FOREVER : nanos);
    }

    @Override
    public void unpark() {
        unparks.incrementAndGet();
        inner.unpark();
    }

    @Override
    public boolean eventsFound() {
        return inner.eventsFound();
    }
}
