package dev.forage;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One worker's statistics, one slot per {@link PoolCounter}. Written only by that worker (an ordered store, no
 * read-modify-write, so the hot path stays free of contended atomics) and read by any thread that sums a
 * snapshot.
 *
 * <p>The slots are written on every job, so they sit between {@link #PAD} unused slots on both sides: no other
 * worker's hot field can share their cache line (an array's elements are contiguous; 16 longs are 128 bytes,
 * two lines on most machines, one prefetched pair).
 */
final class WorkerCounters {
    private static final int PAD = 16;
    private static final PoolCounter[] ALL = PoolCounter.values();

    private final AtomicLongArray slots = new AtomicLongArray(PAD + ALL.length + PAD);

    /** Owner thread only. */
    void increment(PoolCounter counter) {
        int i = PAD + counter.ordinal();
        slots.lazySet(i, slots.get(i) + 1);
    }

    /** Any thread: the counter's value, as of a recent store. */
    long get(PoolCounter counter) {
        return slots.get(PAD + counter.ordinal());
    }

    /** Any thread: adds every counter to {@code totals}, indexed by ordinal. */
    void addTo(long[] totals) {
        for (int i = 0; i < ALL.length; i++) {
            totals[i] += slots.get(PAD + i);
        }
    }

    // The events the engine counts on its hot paths, named as the call sites read best.

    void jobRun() {
        increment(PoolCounter.JOBS_RUN);
    }

    void steal() {
        increment(PoolCounter.STEALS);
    }

    void injectedJobTaken() {
        increment(PoolCounter.INJECTED_JOBS);
    }

    void sleep() {
        increment(PoolCounter.SLEEPS);
    }

    void wakeup() {
        increment(PoolCounter.WAKEUPS);
    }

    void wakeupWithoutWork() {
        increment(PoolCounter.WAKEUPS_WITHOUT_WORK);
    }

    void latchWakeup() {
        increment(PoolCounter.LATCH_WAKEUPS);
    }

    void nap() {
        increment(PoolCounter.NAPS);
    }
}
