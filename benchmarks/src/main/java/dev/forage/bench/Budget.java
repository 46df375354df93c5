package dev.forage.bench;

import java.util.concurrent.TimeUnit;

/**
 * How much measuring a run does. The work of one operation (fib(30), 10^6 launches, ...) is the same in every
 * mode except {@link #TINY}, so numbers from quick and full runs are comparable; modes differ in how many fresh
 * JVMs (forks) and iterations they spend.
 */
public final class Budget {
    /**
     * The README demo: a few minutes on two cores. One fork per (scenario, subject). The warm-up follows the same
     * rule as the full mode's, with a lower cap: with a fixed 300 ms, fork-join fib was still being compiled while
     * it was timed (Forage ×1.5 of ForkJoinPool in quick runs, ×0.96 in a full run of the same build).
     */
    public static final Budget QUICK = new Budget("quick", 1, ms(1000), ms(2500), 2, 5, ms(1000), 3, ms(300), 300,
            ms(300), 10_000);
    /**
     * The short profile, reported beside the quick or full one ({@code --short}): the first seconds of a
     * service. Three untimed operations and no wait for the compiler to go quiet, so the timed operations meet
     * whatever the JIT has compiled by then (and its recompilations), as a fresh process does. Windowed scenarios
     * warm up for one window. The fork count is the other profile's, so both show the same spread.
     */
    public static final Budget SHORT = new Budget("short", 5, 0, 0, 3, 10, Long.MAX_VALUE, 3, ms(300), 300,
            ms(300), 0);
    /** For the results page: five forks per (scenario, subject). */
    public static final Budget FULL = new Budget("full", 5, ms(1000), ms(6000), 3, 10, Long.MAX_VALUE, 5, ms(1000),
            1000, ms(1000), 10_000);
    /** Tests only: tiny sizes, seconds in all. */
    public static final Budget TINY = new Budget("tiny", 1, 0, 0, 1, 2, Long.MAX_VALUE, 2, ms(20), 20, ms(20), 20);

    public final String name;
    /** Fresh JVMs per (scenario, subject). */
    public final int forks;
    /**
     * Warm-up lasts at least this long and at least {@link #minWarmupIterations} operations, and then goes on
     * while the JIT compiler is still busy ({@link JitActivity}), up to {@link #maxWarmupNanos} in all.
     */
    public final long warmupNanos;
    public final long maxWarmupNanos;
    public final int minWarmupIterations;
    /** Measured operations per fork for the throughput scenarios. */
    public final int iterations;
    /**
     * Past this much measuring time a throughput scenario stops early, after at least 3 operations (keeps the
     * quick mode short where one operation takes most of a second).
     */
    public final long measureNanos;
    /** Measured windows per fork for the low-load, idle and wake-up scenarios. */
    public final int windows;
    /** Length of one low-load window. */
    public final long lowLoadWindowNanos;
    /** Wake-ups recorded per window. */
    public final int wakeupsPerWindow;
    /** Length of one idle window. */
    public final long idleWindowNanos;
    /**
     * Wake-ups the wake-up scenarios make at a short gap before their own warm-up, unrecorded, so that the path
     * they time is the one C2 compiled. Their warm-up at the measured gap makes about 500 calls of
     * {@code execute}, and the timed windows 5,000 more, near the 5,000 or so invocations after which C2 compiles
     * a method: without these, every pool's outside path ran the profiling C1 code for much of the timed part.
     * 0 in the short profile, which measures a service's first seconds.
     */
    public final int wakeupCompileSamples;

    Budget(String name, int forks, long warmupNanos, long maxWarmupNanos, int minWarmupIterations,
            int iterations,
            long measureNanos, int windows,
            long lowLoadWindowNanos, int wakeupsPerWindow, long idleWindowNanos, int wakeupCompileSamples) {
        this.name = name;
        this.forks = forks;
        this.warmupNanos = warmupNanos;
        this.maxWarmupNanos = maxWarmupNanos;
        this.minWarmupIterations = minWarmupIterations;
        this.iterations = iterations;
        this.measureNanos = measureNanos;
        this.windows = windows;
        this.lowLoadWindowNanos = lowLoadWindowNanos;
        this.wakeupsPerWindow = wakeupsPerWindow;
        this.idleWindowNanos = idleWindowNanos;
        this.wakeupCompileSamples = wakeupCompileSamples;
    }

    public boolean isTiny() {
        return this == TINY;
    }

    /** {@code full} normally; {@code tiny} under {@link #TINY}. */
    public int size(int full, int tiny) {
        return isTiny() ? tiny : full;
    }

    public static Budget byName(String name) {
        switch (name) {
            case "quick":
                return QUICK;
            case "full":
                return FULL;
            case "short":
                return SHORT;
            case "tiny":
                return TINY;
            default:
                throw new IllegalArgumentException("unknown budget '" + name + "'; allowed: quick, full, short, tiny");
        }
    }

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Override
    public String toString() {
        return name;
    }
}
