package dev.forage;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * One worker's statistics. Written only by that worker (an ordered store, no read-modify-write, so the hot
 * path stays free of contended atomics) and read by any thread that sums a snapshot.
 *
 * <p>The counters are written on every job, so they are padded on both sides (superclass and trailing fields):
 * no other worker's hot field can share their cache line.
 */
final class WorkerCounters extends WorkerCounterFields {
    private static final AtomicLongFieldUpdater<WorkerCounterFields> JOBS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "jobsRun");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> STEALS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "steals");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> INJECTED =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "injectedTaken");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> SLEEPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "sleeps");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "wakeups");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> IDLE_WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "wakeupsWithoutWork");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> LATCH_WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "latchWakeups");
    private static final AtomicLongFieldUpdater<WorkerCounterFields> NAPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounterFields.class, "naps");

    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    public void jobRun() {
        JOBS.lazySet(this, jobsRun + 1);
    }

    public void steal() {
        STEALS.lazySet(this, steals + 1);
    }

    public void injectedJobTaken() {
        INJECTED.lazySet(this, injectedTaken + 1);
    }

    public void sleep() {
        SLEEPS.lazySet(this, sleeps + 1);
    }

    public void wakeup() {
        WAKEUPS.lazySet(this, wakeups + 1);
    }

    public void wakeupWithoutWork() {
        IDLE_WAKEUPS.lazySet(this, wakeupsWithoutWork + 1);
    }

    public void latchWakeup() {
        LATCH_WAKEUPS.lazySet(this, latchWakeups + 1);
    }

    public void nap() {
        NAPS.lazySet(this, naps + 1);
    }

    public long jobsRun() {
        return jobsRun;
    }

    public long steals() {
        return steals;
    }

    public long injectedTaken() {
        return injectedTaken;
    }

    public long sleeps() {
        return sleeps;
    }

    public long wakeups() {
        return wakeups;
    }

    public long wakeupsWithoutWork() {
        return wakeupsWithoutWork;
    }

    public long latchWakeups() {
        return latchWakeups;
    }

    public long naps() {
        return naps;
    }
}

abstract class WorkerCounterFields extends LeadingPad {
    volatile long jobsRun;
    volatile long steals;
    volatile long injectedTaken;
    volatile long sleeps;
    volatile long wakeups;
    volatile long wakeupsWithoutWork;
    volatile long latchWakeups;
    volatile long naps;
}
