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
    private final long[] totals;
    private final int sleepingWorkers;
    private final int idleWorkers;
    private final long[] jobsPerWorker;

    /** {@code totals} is indexed by {@link PoolCounter#ordinal()}. */
    PoolStatistics(int threads, long[] totals, int sleepingWorkers, int idleWorkers, long[] jobsPerWorker) {
        this.threads = threads;
        this.totals = totals;
        this.sleepingWorkers = sleepingWorkers;
        this.idleWorkers = idleWorkers;
        this.jobsPerWorker = jobsPerWorker;
    }

    /** Sums the counters of {@code workers}; the first {@code threads} of them have a per-worker slot. */
    static PoolStatistics sum(Worker[] workers, int threads, Sleep sleep) {
        long[] totals = new long[PoolCounter.values().length];
        long[] perWorker = new long[threads];
        for (int i = 0; i < workers.length; i++) {
            workers[i].counters.addTo(totals);
            if (i < threads) {
                perWorker[i] = workers[i].counters.get(PoolCounter.JOBS_RUN);
            }
        }
        return new PoolStatistics(threads, totals, sleep.sleepingThreads(), sleep.idleThreads(), perWorker);
    }

    /** The value of {@code counter}, summed over the workers. */
    public long count(PoolCounter counter) {
        if (counter == null) {
            throw new NullPointerException("PoolStatistics.count: counter must not be null; see PoolCounter.values()");
        }
        return totals[counter.ordinal()];
    }

    /** Worker threads in the pool. */
    public int threads() {
        return threads;
    }

    /** {@link PoolCounter#JOBS_RUN}. */
    public long jobsRun() {
        return count(PoolCounter.JOBS_RUN);
    }

    /** {@link PoolCounter#STEALS}. */
    public long steals() {
        return count(PoolCounter.STEALS);
    }

    /** {@link PoolCounter#INJECTED_JOBS}. */
    public long injectedJobs() {
        return count(PoolCounter.INJECTED_JOBS);
    }

    /** {@link PoolCounter#SLEEPS}. */
    public long sleeps() {
        return count(PoolCounter.SLEEPS);
    }

    /** {@link PoolCounter#WAKEUPS}. */
    public long wakeups() {
        return count(PoolCounter.WAKEUPS);
    }

    /** {@link PoolCounter#WAKEUPS_WITHOUT_WORK}. */
    public long wakeupsWithoutWork() {
        return count(PoolCounter.WAKEUPS_WITHOUT_WORK);
    }

    /** {@link PoolCounter#LATCH_WAKEUPS}. */
    public long latchWakeups() {
        return count(PoolCounter.LATCH_WAKEUPS);
    }

    /** {@link PoolCounter#NAPS}. */
    public long naps() {
        return count(PoolCounter.NAPS);
    }

    /** Workers counted as sleeping when the snapshot was taken. */
    public int sleepingWorkers() {
        return sleepingWorkers;
    }

    /** Workers awake but searching for work when the snapshot was taken. */
    public int idleWorkers() {
        return idleWorkers;
    }

    /**
     * Jobs run by worker {@code index}, from 0 to {@link #threads()} - 1.
     *
     * @throws IndexOutOfBoundsException for any other index
     */
    public long jobsRun(int index) {
        if (index < 0 || index >= jobsPerWorker.length) {
            throw new IndexOutOfBoundsException("worker index " + index + " is out of range; allowed: 0.."
                    + (jobsPerWorker.length - 1));
        }
        return jobsPerWorker[index];
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("PoolStatistics{threads=").append(threads);
        for (PoolCounter c : PoolCounter.values()) {
            b.append(", ").append(c.key()).append('=').append(totals[c.ordinal()]);
        }
        return b.append(", sleepingWorkers=").append(sleepingWorkers).append(", idleWorkers=").append(idleWorkers)
                .append(", jobsPerWorker=").append(Arrays.toString(jobsPerWorker)).append('}').toString();
    }
}
