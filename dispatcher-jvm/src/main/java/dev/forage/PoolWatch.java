package dev.forage;

/**
 * What the core tells the pool's watcher of what no worker sees while every worker is busy: the monitor
 * ({@code docs/monitor.md}). The core names this interface only; the builder's assembly makes the monitor. Each
 * event is a step of the monitor's start race ({@code docs/monitor.md}): J2 after a post, G2 after a worker became
 * busy, P2 after a timer was left unwatched.
 */
interface PoolWatch {
    /** J2, after a post's push (J1): a dormant watcher may have jobs waiting behind busy workers to look at. */
    void jobsPosted();

    /** G2, on a worker's thread that just became busy (G1: its busy word's volatile write). */
    void workerBusy();

    /** P2: a timer due at {@code deadline} (the pool's clock) has no watcher. Any thread. */
    void timerUnwatched(long deadline);

    /** Workers counted blocked in user code right now (a snapshot, for statistics). */
    int blockedNow();

    /** Jobs found blocked since the pool started (for statistics). */
    long blockedJobsDetected();

    /** The pool terminated: the watcher ends at once and never starts again. */
    void stop();

    /** The watcher's thread while it runs (or the last one), else null; for termination and tests. */
    Thread thread();
}
