package dev.forage;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One worker's statistics, one slot per {@link PoolCounter}, plus its busy clock. Written only by that worker (an
 * ordered store, no read-modify-write, so the hot path stays free of contended atomics) and read by any thread
 * that sums a snapshot.
 *
 * <p>The busy clock ({@link #busyStarts}, {@link #busyEnds}, {@link #busyNanos}) is one slot too, so a reader
 * gets a consistent value with one read: while the worker is idle it holds {@code total << 1}; while busy,
 * {@code (total - (since - origin)) << 1 | 1}, where {@code since} is the {@link System#nanoTime()} at which the
 * busy spell began and {@code origin} the worker's creation time (so the shifted value stays far from overflow
 * whatever the JVM's nanoTime origin is). A reader adds {@code now - origin} to a busy word's value and gets the
 * total including the spell in progress. Written twice per idle spell, never per job.
 *
 * <p>The slots are written on every job, so they sit between {@link #PAD} unused slots on both sides: no other
 * worker's hot field can share their cache line (an array's elements are contiguous; 16 longs are 128 bytes,
 * two lines on most machines, one prefetched pair).
 */
final class WorkerStatistics {
    private static final int PAD = 16;
    private static final PoolCounter[] ALL = PoolCounter.values();

    /** The busy clock's slot, after the counters'. */
    private static final int BUSY = PAD + ALL.length;

    private final AtomicLongArray slots = new AtomicLongArray(PAD + ALL.length + 1 + PAD);
    /** {@link System#nanoTime()} when this worker was made: the busy clock's zero. */
    private final long origin = System.nanoTime();

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

    /**
     * Owner thread: a busy spell begins at {@code now} ({@link System#nanoTime()}). No-op if already busy. A
     * volatile store, not an ordered one: it is G1 of the monitor's start race ({@link MonitorGate}), which the
     * caller's read of the monitor's state must not pass. Once per busy spell, never per job.
     */
    void busyStarts(long now) {
        long word = slots.get(BUSY);
        if ((word & 1L) == 0) {
            slots.set(BUSY, ((word >> 1) - (now - origin)) << 1 | 1L);
        }
    }

    /**
     * Any thread: the busy clock's word, odd while the worker is busy; a new busy spell gives a new word. The
     * monitor's blocked-job watch reads it with {@link PoolCounter#JOBS_RUN} as the worker's progress.
     */
    long busyWord() {
        return slots.get(BUSY);
    }

    /** Owner thread: the busy spell ends at {@code now}; its length joins the total. No-op if not busy. */
    void busyEnds(long now) {
        long word = slots.get(BUSY);
        if ((word & 1L) != 0) {
            slots.lazySet(BUSY, ((word >> 1) + (now - origin)) << 1);
        }
    }

    /**
     * Any thread: nanoseconds spent busy so far, including a spell in progress. The clock is read after the
     * word, so it is never earlier than the spell's start: successive reads never decrease.
     */
    long busyNanos() {
        long word = slots.get(BUSY);
        return (word & 1L) == 0 ? word >> 1 : (word >> 1) + (System.nanoTime() - origin);
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

    void blockingSection() {
        increment(PoolCounter.BLOCKING_SECTIONS);
    }

    void compensation() {
        increment(PoolCounter.COMPENSATIONS);
    }

    void nap() {
        increment(PoolCounter.NAPS);
    }

    void ioTakeover() {
        increment(PoolCounter.IO_TAKEOVERS);
    }
}
