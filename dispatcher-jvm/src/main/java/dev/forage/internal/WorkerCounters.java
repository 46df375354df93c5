package dev.forage.internal;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * One worker's statistics. Written only by that worker (an ordered store, no read-modify-write, so the hot
 * path stays free of contended atomics) and read by any thread that sums a snapshot. <b>Internal</b>.
 */
public final class WorkerCounters {
    private static final AtomicLongFieldUpdater<WorkerCounters> JOBS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "jobsRun");
    private static final AtomicLongFieldUpdater<WorkerCounters> STEALS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "steals");
    private static final AtomicLongFieldUpdater<WorkerCounters> INJECTED =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "injectedTaken");
    private static final AtomicLongFieldUpdater<WorkerCounters> SLEEPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "sleeps");
    private static final AtomicLongFieldUpdater<WorkerCounters> WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "wakeups");
    private static final AtomicLongFieldUpdater<WorkerCounters> IDLE_WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "wakeupsWithoutWork");
    private static final AtomicLongFieldUpdater<WorkerCounters> LATCH_WAKEUPS =
            AtomicLongFieldUpdater.newUpdater(WorkerCounters.class, "latchWakeups");

    private volatile long jobsRun;
    private volatile long steals;
    private volatile long injectedTaken;
    private volatile long sleeps;
    private volatile long wakeups;
    private volatile long wakeupsWithoutWork;
    private volatile long latchWakeups;

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
}
