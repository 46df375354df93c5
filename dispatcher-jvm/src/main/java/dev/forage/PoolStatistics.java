package dev.forage;

import java.util.Arrays;

/**
 * A snapshot of a pool's statistics, summed over its workers. Each worker counts its own events (no shared
 * counter on the hot path), so a snapshot taken while the pool runs is a consistent sum of slightly different
 * moments.
 *
 * <p>Two kinds of numbers:
 * <ul>
 *   <li><b>Counters</b>, one per {@link PoolCounter}, only ever grow. Each has a getter named as the counter's
 *       {@linkplain PoolCounter#key() key} ({@link PoolCounter#STEALS} is {@link #steals()},
 *       {@link PoolCounter#BLOCKING_SECTIONS} is {@link #blockingSections()}): read a counter by its getter.
 *       {@link #count(PoolCounter)} returns the same values by constant, for code that goes through all of them
 *       (a metrics binder, a dump): {@code s.count(PoolCounter.STEALS) == s.steals()}.</li>
 *   <li><b>Gauges</b>, read when the snapshot is taken: workers {@linkplain #sleepingWorkers() sleeping} and
 *       {@linkplain #idleWorkers() idle}, jobs queued in each worker's deque ({@link #queuedJobs(int)}) and in the
 *       injector ({@link #injectorQueuedJobs()}), and busy time ({@link #busyNanos()}), which grows like a
 *       counter but is read from a clock.</li>
 * </ul>
 *
 * <p><b>Busy time</b>: a worker is busy from the moment it leaves the idle state (its search found a job, or
 * the latch it waited on was set) until it next starts looking for work; running jobs, taking the next one from
 * its own deque, and the one quick look at the other queues before it counts itself idle are busy; searching,
 * yielding, napping and sleeping are not. A job that waits in {@code join} or {@code scope} and finds nothing to
 * run meanwhile makes its worker idle for that wait. The clock is read once per idle transition, never per job.
 * Utilisation over an interval is the growth of {@link #busyNanos()} divided by the interval times
 * {@link #threads()}. For a {@linkplain ForagePool#isSingleThreaded() single-threaded} pool, busy time counts
 * the time threads spend driving it, less idle spells.
 *
 * <p><b>Queued jobs</b> are snapshots of volatile indices: a deque's count is exact at some moment of the
 * read; the injector's is approximate by the jobs in flight (claimed by a producer but not yet written, or by a
 * consumer but not yet taken).
 *
 * <pre>{@code
 * PoolStatistics s = pool.statistics();
 * System.out.printf("%d jobs, %d steals, %d sleeps, %d useless wake-ups, %d queued%n",
 *         s.jobsRun(), s.steals(), s.sleeps(), s.wakeupsWithoutWork(), s.queuedJobs());
 *
 * PoolStatistics before = pool.statistics();
 * // ... one second later:
 * PoolStatistics after = pool.statistics();
 * double utilisation = (after.busyNanos() - before.busyNanos()) / (1e9 * after.threads());
 * }</pre>
 */
public final class PoolStatistics {
    private final int threads;
    private final long[] totals;
    private final int sleepingWorkers;
    private final int idleWorkers;
    private final long[] jobsPerWorker;
    private final long[] busyNanosPerWorker;
    private final int[] queuedPerWorker;
    private final long busyNanos;
    private final long dequeQueuedJobs;
    private final long injectorQueuedJobs;
    /** The runner's threads: blocking sections, stand-ins, retirement, the monitor's finds. */
    private final ThreadGauges blocking;
    private final QueueWaitHistogram queueWait;

    private PoolStatistics(int threads, long[] totals, int sleepingWorkers, int idleWorkers, long[] jobsPerWorker,
            long[] busyNanosPerWorker, int[] queuedPerWorker, long busyNanos, long dequeQueuedJobs,
            long injectorQueuedJobs, ThreadGauges blocking, QueueWaitHistogram queueWait) {
        this.blocking = blocking;
        this.queueWait = queueWait;
        this.threads = threads;
        this.totals = totals;
        this.sleepingWorkers = sleepingWorkers;
        this.idleWorkers = idleWorkers;
        this.jobsPerWorker = jobsPerWorker;
        this.busyNanosPerWorker = busyNanosPerWorker;
        this.queuedPerWorker = queuedPerWorker;
        this.busyNanos = busyNanos;
        this.dequeQueuedJobs = dequeQueuedJobs;
        this.injectorQueuedJobs = injectorQueuedJobs;
    }

    /** {@link ForagePool#statistics()}: a snapshot of {@code registry}'s pool, read now. */
    static PoolStatistics of(Registry registry) {
        return sum(registry.workers, registry.slotsInUse, registry.threads(), registry.sleep,
                registry.injector, registry.threadGauges(), registry.queueWaitHistogram());
    }

    /**
     * Sums the counters and gauges of the first {@code slotsInUse} of {@code workers} (the others were never used);
     * the first {@code threads} of them have per-worker slots (a single-threaded pool has one worker and no thread:
     * its worker counts in the sums only).
     */
    static PoolStatistics sum(Worker[] workers, int slotsInUse, int threads, Sleep sleep, Injector injector,
            ThreadGauges blocking, QueueWaitHistogram queueWait) {
        long[] totals = new long[PoolCounter.values().length];
        long[] jobs = new long[threads];
        long[] busy = new long[threads];
        int[] queued = new int[threads];
        long busyTotal = 0;
        long queuedTotal = 0;
        for (int i = 0; i < slotsInUse; i++) {
            Worker w = workers[i];
            w.counters.addTo(totals);
            long workerBusy = w.counters.busyNanos();
            int workerQueued = w.deque.size();
            busyTotal += workerBusy;
            queuedTotal += workerQueued;
            if (i < threads) {
                jobs[i] = w.counters.get(PoolCounter.JOBS_RUN);
                busy[i] = workerBusy;
                queued[i] = workerQueued;
            }
        }
        return new PoolStatistics(threads, totals, sleep.sleepingThreads(), sleep.idleThreads(), jobs, busy, queued,
                busyTotal, queuedTotal, injector.approximateSize(), blocking, queueWait);
    }

    /**
     * How long submitted jobs waited in the queues before they started, since the pool started (sampled: see
     * {@link QueueWaitHistogram}); a sampled job's wait is counted once the job returns. For example
     * {@code statistics.queueWait().percentileNanos(0.99)}.
     */
    public QueueWaitHistogram queueWait() {
        return queueWait;
    }

    /**
     * The value of {@code counter}, summed over the workers: the same number as the counter's own getter
     * ({@code count(PoolCounter.STEALS) == steals()}), by constant, for code that iterates
     * {@link PoolCounter#values()}.
     */
    public long count(PoolCounter counter) {
        if (counter == null) {
            throw new NullPointerException("PoolStatistics.count: counter must not be null; see PoolCounter.values()");
        }
        return totals[counter.ordinal()];
    }

    /**
     * Worker threads in the pool: its parallelism when the snapshot was taken ({@link ForagePool#setParallelism}).
     * The per-worker numbers cover workers 0 to {@code threads() - 1}; the sums cover every worker, those a lower
     * parallelism took out included.
     */
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

    /** {@link PoolCounter#BLOCKING_SECTIONS}. */
    public long blockingSections() {
        return count(PoolCounter.BLOCKING_SECTIONS);
    }

    /** {@link PoolCounter#COMPENSATIONS}. */
    public long compensations() {
        return count(PoolCounter.COMPENSATIONS);
    }

    /** {@link PoolCounter#IO_TAKEOVERS}. */
    public long ioTakeovers() {
        return count(PoolCounter.IO_TAKEOVERS);
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
     * Workers running jobs when the snapshot was taken: {@link #threads()} and the {@linkplain
     * #compensatingThreads() stand-ins}, less the {@linkplain #blockedWorkers() blocked}, {@linkplain
     * #idleWorkers() idle}, {@linkplain #sleepingWorkers() sleeping} and {@linkplain #retiredWorkers() retired} ones
     * and those whose threads ended at shutdown, so a terminated pool has none (never negative; the counts are read
     * one after the other).
     */
    public int activeWorkers() {
        return Math.max(threads + blocking.compensatingThreads - blocking.blockedWorkers - idleWorkers - sleepingWorkers
                - blocking.retiredWorkers - blocking.endedWorkers, 0);
    }

    /**
     * Workers whose threads ended after the keep-alive ({@link ForagePoolBuilder#keepAlive}); the next job
     * submitted starts one again. A gauge: {@code threads()} less this is the number of worker threads alive.
     */
    public int retiredWorkers() {
        return blocking.retiredWorkers;
    }

    /**
     * Jobs run by worker {@code index}, from 0 to {@link #threads()} - 1.
     *
     * @throws IndexOutOfBoundsException for any other index
     */
    public long jobsRun(int index) {
        return jobsPerWorker[checkIndex(index)];
    }

    /**
     * Nanoseconds all workers together have been busy since the pool started (see "Busy time" above), including
     * the busy spells in progress. Grows like a counter.
     */
    public long busyNanos() {
        return busyNanos;
    }

    /**
     * Nanoseconds worker {@code index} has been busy since it started, from 0 to {@link #threads()} - 1.
     *
     * @throws IndexOutOfBoundsException for any other index
     */
    public long busyNanos(int index) {
        return busyNanosPerWorker[checkIndex(index)];
    }

    /** Jobs queued when the snapshot was taken: in every worker's deque plus the injector. */
    public long queuedJobs() {
        return dequeQueuedJobs + injectorQueuedJobs;
    }

    /** Jobs queued in the workers' deques (pushed by workers, waiting to be run or stolen). */
    public long dequeQueuedJobs() {
        return dequeQueuedJobs;
    }

    /**
     * Jobs queued in worker {@code index}'s deque, from 0 to {@link #threads()} - 1.
     *
     * @throws IndexOutOfBoundsException for any other index
     */
    public int queuedJobs(int index) {
        return queuedPerWorker[checkIndex(index)];
    }

    /**
     * Jobs queued in the injector (submitted from outside the pool, fired timers, fair re-submissions):
     * approximate by the jobs that producers and consumers are moving at that instant.
     */
    public long injectorQueuedJobs() {
        return injectorQueuedJobs;
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= threads) {
            throw new IndexOutOfBoundsException("worker index " + index + " is out of range; allowed: 0.."
                    + (threads - 1));
        }
        return index;
    }

    /**
     * Workers inside a blocking section right now ({@link ForagePool#managedBlock}, the blocking executor, the
     * Kotlin blocking dispatcher), or found blocked by the pool's monitor ({@link #detectedBlockedWorkers()}). A
     * gauge.
     */
    public int blockedWorkers() {
        return blocking.blockedWorkers;
    }

    /**
     * Threads running in place of blocked workers right now: {@code min(blockedWorkers(), maxBlockingThreads)}
     * when the pool could start them. The pool's running parallelism is
     * {@code threads() - blockedWorkers() + compensatingThreads()}. A gauge.
     */
    public int compensatingThreads() {
        return blocking.compensatingThreads;
    }

    /** Threads that stood in for blocked workers and wait, within their keep-alive, to do so again. A gauge. */
    public int spareThreads() {
        return blocking.spareThreads;
    }

    /** The most workers that were inside blocking sections at once since the pool started. */
    public int mostBlockedWorkers() {
        return blocking.mostBlockedWorkers;
    }

    /**
     * Jobs the pool's monitor found blocking a worker without a blocking section (a {@code Thread.sleep}, a lock,
     * a socket read nobody marked) since the pool started; for each, a stand-in took the worker's place while it
     * was blocked ({@link ForagePoolBuilder#blockingDetection}). Grows like a counter; a JFR
     * {@code dev.forage.BlockedJob} event names each job's code and the call it blocked in.
     */
    public long blockedJobsDetected() {
        return blocking.blockedJobsDetected;
    }

    /**
     * Workers the monitor counts blocked right now (included in {@link #blockedWorkers()}). A gauge.
     */
    public int detectedBlockedWorkers() {
        return blocking.detectedBlockedNow;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("PoolStatistics{threads=").append(threads);
        for (PoolCounter c : PoolCounter.values()) {
            b.append(", ").append(c.key()).append('=').append(totals[c.ordinal()]);
        }
        return b.append(", sleepingWorkers=").append(sleepingWorkers).append(", idleWorkers=").append(idleWorkers)
                .append(", queuedJobs=").append(queuedJobs()).append(", injectorQueuedJobs=").append(injectorQueuedJobs)
                .append(", blockedWorkers=").append(blocking.blockedWorkers)
                .append(", compensatingThreads=").append(blocking.compensatingThreads)
                .append(", spareThreads=").append(blocking.spareThreads)
                .append(", mostBlockedWorkers=").append(blocking.mostBlockedWorkers)
                .append(", retiredWorkers=").append(blocking.retiredWorkers)
                .append(", blockedJobsDetected=").append(blockedJobsDetected())
                .append(", busyNanos=").append(busyNanos)
                .append(", queueWaitP50Nanos=").append(queueWait.percentileNanos(0.5))
                .append(", queueWaitP99Nanos=").append(queueWait.percentileNanos(0.99))
                .append(", jobsPerWorker=").append(Arrays.toString(jobsPerWorker))
                .append(", queuedPerWorker=").append(Arrays.toString(queuedPerWorker))
                .append(", busyNanosPerWorker=").append(Arrays.toString(busyNanosPerWorker)).append('}').toString();
    }

    /** {@link ForagePool#toString()}: {@code name} and {@code state} with these counts, for people. */
    String describe(String name, String state) {
        return "ForagePool[" + name + ", " + state + ", threads=" + threads() + ", active=" + activeWorkers()
                + ", idle=" + idleWorkers() + ", sleeping=" + sleepingWorkers()
                + (retiredWorkers() > 0 ? ", retired=" + retiredWorkers() : "") + ", queued=" + queuedJobs()
                + " (deques=" + dequeQueuedJobs() + ", injector=" + injectorQueuedJobs() + "), steals=" + steals()
                + ", jobsRun=" + jobsRun() + "]";
    }
}
