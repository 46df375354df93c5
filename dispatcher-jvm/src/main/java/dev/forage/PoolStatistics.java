package dev.forage;

import java.util.Arrays;

/**
 * A snapshot of a pool's statistics, summed over its workers. Each worker counts its own events (no shared
 * counter on the hot path), so a snapshot taken while the pool runs is a consistent sum of slightly different
 * moments.
 *
 * <pre>{@code
 * PoolStatistics s = pool.statistics();
 * System.out.printf("%d jobs, %d steals, %d sleeps, %d useless wake-ups%n",
 *         s.jobsRun(), s.steals(), s.sleeps(), s.wakeupsWithoutWork());
 * }</pre>
 */
public final class PoolStatistics {
    private final int threads;
    private final long jobsRun;
    private final long steals;
    private final long injectedJobs;
    private final long sleeps;
    private final long wakeups;
    private final long wakeupsWithoutWork;
    private final long latchWakeups;
    private final long naps;
    private final int sleepingWorkers;
    private final int idleWorkers;
    private final long[] jobsPerWorker;

    PoolStatistics(int threads, long jobsRun, long steals, long injectedJobs, long sleeps, long wakeups,
            long wakeupsWithoutWork, long latchWakeups, long naps, int sleepingWorkers, int idleWorkers,
            long[] jobsPerWorker) {
        this.threads = threads;
        this.jobsRun = jobsRun;
        this.steals = steals;
        this.injectedJobs = injectedJobs;
        this.sleeps = sleeps;
        this.wakeups = wakeups;
        this.wakeupsWithoutWork = wakeupsWithoutWork;
        this.latchWakeups = latchWakeups;
        this.naps = naps;
        this.sleepingWorkers = sleepingWorkers;
        this.idleWorkers = idleWorkers;
        this.jobsPerWorker = jobsPerWorker;
    }

    /** Worker threads in the pool. */
    public int threads() {
        return threads;
    }

    /** Jobs run by workers (including join halves, scope jobs and fired timers). */
    public long jobsRun() {
        return jobsRun;
    }

    /** Jobs a worker took from another worker's deque. */
    public long steals() {
        return steals;
    }

    /** Jobs workers took from the injector (submitted from outside the pool, or fired timers). */
    public long injectedJobs() {
        return injectedJobs;
    }

    /** Times a worker blocked. */
    public long sleeps() {
        return sleeps;
    }

    /** Times a blocked worker woke up (woken by another thread, or by its own timer deadline). */
    public long wakeups() {
        return wakeups;
    }

    /** Wake-ups whose next search found no work: wasted wake-ups. */
    public long wakeupsWithoutWork() {
        return wakeupsWithoutWork;
    }

    /** Wake-ups that found the latch the worker slept on set (targeted wake-ups from join, scope, install). */
    public long latchWakeups() {
        return latchWakeups;
    }

    /**
     * Naps: bounded parks of an idle worker that is not counted as sleeping, taken instead of a sleep while
     * another worker keeps posting jobs that it runs itself (a chain, a coroutine ping-pong), so that worker's
     * posts need not wake anyone. Only the JEC strategies nap ({@code -Dforage.napNanos}, docs/sleep.md 3.7).
     */
    public long naps() {
        return naps;
    }

    /** Workers counted as sleeping when the snapshot was taken. */
    public int sleepingWorkers() {
        return sleepingWorkers;
    }

    /** Workers awake but searching for work when the snapshot was taken. */
    public int idleWorkers() {
        return idleWorkers;
    }

    /** Jobs run by worker {@code index}. */
    public long jobsRun(int index) {
        return jobsPerWorker[index];
    }

    @Override
    public String toString() {
        return "PoolStatistics{threads=" + threads + ", jobsRun=" + jobsRun + ", steals=" + steals
                + ", injectedJobs=" + injectedJobs + ", sleeps=" + sleeps + ", wakeups=" + wakeups
                + ", wakeupsWithoutWork=" + wakeupsWithoutWork + ", latchWakeups=" + latchWakeups + ", naps=" + naps
                + ", sleepingWorkers=" + sleepingWorkers + ", idleWorkers=" + idleWorkers
                + ", jobsPerWorker=" + Arrays.toString(jobsPerWorker) + "}";
    }
}
