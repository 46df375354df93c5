package dev.forage;

/**
 * The events a pool counts, one counter per worker each (written only by that worker, summed on demand in a
 * {@link PoolStatistics} snapshot). This enum is the one list of them: the counters, the snapshot and its
 * {@code toString} all follow it.
 *
 * <pre>{@code
 * PoolStatistics s = pool.statistics();
 * for (PoolCounter c : PoolCounter.values()) {
 *     System.out.println(c.key() + " = " + s.count(c));
 * }
 * }</pre>
 */
public enum PoolCounter {
    /** Jobs run by workers (including join halves, scope jobs and fired timers). */
    JOBS_RUN("jobsRun"),
    /** Jobs a worker took from another worker's deque. */
    STEALS("steals"),
    /** Jobs workers took from the injector (submitted from outside the pool, or fired timers). */
    INJECTED_JOBS("injectedJobs"),
    /** Times a worker blocked. */
    SLEEPS("sleeps"),
    /** Times a blocked worker woke up (woken by another thread, or by its own timer deadline). */
    WAKEUPS("wakeups"),
    /** Wake-ups whose next search found no work: wasted wake-ups. */
    WAKEUPS_WITHOUT_WORK("wakeupsWithoutWork"),
    /** Wake-ups that found the latch the worker slept on set (targeted wake-ups from join, scope, install). */
    LATCH_WAKEUPS("latchWakeups"),
    /**
     * Naps: bounded parks of an idle worker that is not counted as sleeping, taken instead of a sleep while
     * another worker keeps posting jobs that it runs itself (a chain, a coroutine ping-pong), so that worker's
     * posts need not wake anyone. Only the JEC protocols nap ({@code docs/sleep.md}, "The nap").
     */
    NAPS("naps");

    private final String key;

    PoolCounter(String key) {
        this.key = key;
    }

    /** The counter's name in {@link PoolStatistics#toString()} and in metrics: camel case, stable. */
    public String key() {
        return key;
    }
}
