package dev.forage;

/**
 * The events a pool counts, one counter per worker each (written only by that worker, summed on demand in a
 * {@link PoolStatistics} snapshot). This enum is the one list of them: the counters, the snapshot and its
 * {@code toString} all follow it. Each constant has a getter on {@link PoolStatistics} named as its {@link #key()}
 * ({@code STEALS}: {@code steals()}); {@link PoolStatistics#count(PoolCounter)} reads the same values by constant.
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
    JOBS_RUN("jobsRun", "Jobs run by workers"),
    /** Jobs a worker took from another worker's deque. */
    STEALS("steals", "Jobs a worker took from another worker's deque"),
    /** Jobs workers took from the injector (submitted from outside the pool, or fired timers). */
    INJECTED_JOBS("injectedJobs",
            "Jobs workers took from the injector (submitted from outside the pool, or fired timers)"),
    /** Times a worker blocked. */
    SLEEPS("sleeps", "Times a worker blocked"),
    /** Times a blocked worker woke up (woken by another thread, or by its own timer deadline). */
    WAKEUPS("wakeups", "Times a blocked worker woke up"),
    /** Wake-ups whose next search found no work: wasted wake-ups. */
    WAKEUPS_WITHOUT_WORK("wakeupsWithoutWork", "Wake-ups whose next search found no work"),
    /** Wake-ups that found the latch the worker slept on set (targeted wake-ups from join, scope, install). */
    LATCH_WAKEUPS("latchWakeups", "Wake-ups that found the latch the worker slept on set"),
    /**
     * Naps: bounded parks of an idle worker that is not counted as sleeping, taken instead of a sleep while
     * another worker keeps posting jobs that it runs itself (a chain, a coroutine ping-pong), so that worker's
     * posts need not wake anyone. Only the JEC protocols nap ({@code docs/sleep.md}, "The nap").
     */
    NAPS("naps", "Bounded parks of an idle worker not counted as sleeping"),
    /**
     * Blocking sections a worker entered ({@link ForagePool#managedBlock}, the pool's blocking executor and the
     * Kotlin blocking dispatcher); nested sections count once.
     */
    BLOCKING_SECTIONS("blockingSections", "Blocking sections entered by workers"),
    /**
     * Times a thread was put to work in place of a worker that entered a blocking section, so that the pool kept
     * its parallelism ({@code docs/sleep.md}, "Blocking sections and compensation").
     */
    COMPENSATIONS("compensations", "Threads activated to stand in for blocked workers"),
    /**
     * Selector takeovers: times an IO worker looked at a neighbour's selector, because nobody had for
     * {@link Tunable#IO_TAKEOVER_MILLIS} while it had waits pending, and resumed waits that had ended there
     * ({@code docs/io.md} section 6). Counted on the worker that took over. Always 0 without
     * {@link ForagePoolBuilder#ioWorkers()}.
     */
    IO_TAKEOVERS("ioTakeovers", "Times an IO worker resumed waits from a neighbour's unwatched selector");

    private final String key;
    private final String description;

    PoolCounter(String key, String description) {
        this.key = key;
        this.description = description;
    }

    /** The counter's name in {@link PoolStatistics#toString()} and in metrics: camel case, stable. */
    public String key() {
        return key;
    }

    /** One line for people: what the counter counts (the description of its metric). */
    public String description() {
        return description;
    }
}
