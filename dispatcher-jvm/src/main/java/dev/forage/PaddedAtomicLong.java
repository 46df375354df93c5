package dev.forage;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * An atomic {@code long} alone on its cache lines: 128 bytes of padding on each side (superclass and trailing
 * fields; Java 8 library code has no {@code @Contended}). For words that several threads write often, such as
 * the sleep counters and the pool's admission word, so that those writes do not slow down readers of whatever
 * object the JVM happened to place next to them.
 */
final class PaddedAtomicLong extends PaddedAtomicLongValue {
    private static final AtomicLongFieldUpdater<PaddedAtomicLongValue> VALUE =
            AtomicLongFieldUpdater.newUpdater(PaddedAtomicLongValue.class, "value");

    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    /** Volatile read. */
    public long get() {
        return value;
    }

    /** Volatile write. */
    public void set(long newValue) {
        value = newValue;
    }

    public long getAndAdd(long delta) {
        return VALUE.getAndAdd(this, delta);
    }

    public long getAndIncrement() {
        return VALUE.getAndIncrement(this);
    }

    public long getAndDecrement() {
        return VALUE.getAndDecrement(this);
    }

    public boolean compareAndSet(long expect, long update) {
        return VALUE.compareAndSet(this, expect, update);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}

abstract class PaddedAtomicLongValue extends LeadingPad {
    volatile long value;
}
