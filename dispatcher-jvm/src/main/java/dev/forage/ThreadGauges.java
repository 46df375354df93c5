package dev.forage;

/**
 * The runner's threads right now, for a {@link PoolStatistics} snapshot: blocking sections and their stand-ins
 * ({@link Compensation}), retirement ({@link Retirement}), the workers ended for good, and what the monitor found
 * blocked ({@link BlockedJobs}). A pool that callers run has no threads: every gauge is 0 ({@link #NONE}).
 */
final class ThreadGauges {
    /** A pool without threads. */
    static final ThreadGauges NONE = new ThreadGauges();

    /** Workers inside a blocking section, or counted blocked by the monitor. */
    int blockedWorkers;
    /** Extra threads standing in for blocked workers (ACTIVE slots). */
    int compensatingThreads;
    /** Extra threads waiting for their next activation (SPARE slots). */
    int spareThreads;
    /** The most workers blocked at once since the pool started. */
    int mostBlockedWorkers;
    /** Core workers whose thread retired after the keep-alive. */
    int retiredWorkers;
    /** Core workers ended for good after shutdown. */
    int endedWorkers;
    /** Workers the monitor counts blocked without a section now. */
    int detectedBlockedNow;
    /** Blocked jobs the monitor detected so far, capped at {@code Integer.MAX_VALUE}. */
    int blockedJobsDetected;
}
