package dev.forage.internal;

/**
 * Every tuning constant of the pool, in one place, each with the system property that overrides it (read once,
 * when this class loads). Changing one changes speed and CPU use, never correctness: the protocol's proofs hold
 * for any positive values. <b>Internal</b>; measured effects are in {@code docs/benchmarks.md}.
 */
public final class Tuning {
    private Tuning() {
    }

    /**
     * Failed searches before a worker gets sleepy (seed 001, "rounds"). Rayon uses 32. Speed only: a larger
     * value lowers wake-up latency for bursty work and burns more CPU at low load.
     * Property {@code forage.roundsUntilSleepy}.
     */
    public static final int ROUNDS_UNTIL_SLEEPY = intProperty("forage.roundsUntilSleepy", 32, 0, 1 << 20);

    /**
     * Searches after getting sleepy before falling asleep: exactly one more, as seed 001 requires (the sleepy
     * announcement must be followed by at least one full search). Not configurable.
     */
    public static final int ROUNDS_UNTIL_SLEEPING = ROUNDS_UNTIL_SLEEPY + 1;

    /**
     * Seed 000 only ({@code SleepStrategies.SLEEPY_WORKER}): failed searches until a sleepy worker falls asleep.
     * Rayon's earlier module used 64 (and 32 until sleepy, {@link #ROUNDS_UNTIL_SLEEPY}). Speed only. Property
     * {@code forage.roundsUntilAsleep}; at least {@code ROUNDS_UNTIL_SLEEPY + 1}, so a sleepy worker always searches
     * once more before it sleeps (the seed's correctness argument needs that search).
     */
    public static final int ROUNDS_UNTIL_ASLEEP = intProperty("forage.roundsUntilAsleep",
            Math.max(64, ROUNDS_UNTIL_SLEEPY + 1), ROUNDS_UNTIL_SLEEPY + 1, (1 << 20) + 1);

    /**
     * Seed 004 (marl): how long an idle worker spins for work before the sleep protocol's rounds start, with
     * {@code SleepStrategies.JEC_SPIN} (or any strategy given {@code ForagePoolBuilder.spinForWorkNanos}). marl
     * spins 1 ms; see {@code docs/sleep-strategies.md} for the measurements behind this default. Speed and CPU
     * only. Property {@code forage.spinForWorkNanos}.
     */
    public static final int SPIN_FOR_WORK_NANOS = intProperty("forage.spinForWorkNanos", 50_000, 0, 1_000_000_000);

    /**
     * Seed 004: cheap looks for visible work between two yields of the spin phase (marl: 256 checks, each after
     * 32 {@code nop}s). Each look is a few volatile reads per worker. Property {@code forage.spinChecksPerYield}.
     */
    public static final int SPIN_CHECKS_PER_YIELD = intProperty("forage.spinChecksPerYield", 64, 1, 1 << 20);

    /**
     * How many sleepers a worker wakes when it leaves the idle state having found work (Rayon: up to 2, so an
     * active pool ramps up). Speed only. Property {@code forage.wakeOnWorkFound}.
     */
    public static final int WAKE_ON_WORK_FOUND = intProperty("forage.wakeOnWorkFound", 2, 0, 64);

    /**
     * Fairness: every this many jobs taken from its own deque, a worker first looks at the injector and at the
     * oldest job of its own deque, so neither outside submissions nor old local jobs starve behind a LIFO
     * stream (the same idea as Go's and Tokio's global-queue check every 61 ticks). Property
     * {@code forage.fairnessInterval}.
     */
    public static final int FAIRNESS_INTERVAL = intProperty("forage.fairnessInterval", 61, 1, 1 << 20);

    /**
     * A busy worker checks for expired timers once every this many jobs, so timers fire even when no worker
     * is idle. Property {@code forage.timerCheckInterval}.
     */
    public static final int TIMER_CHECK_INTERVAL = intProperty("forage.timerCheckInterval", 64, 1, 1 << 20);

    static int intProperty(String name, int defaultValue, int min, int max) {
        String raw;
        try {
            raw = System.getProperty(name);
        } catch (SecurityException e) {
            return defaultValue;
        }
        if (raw == null) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "System property " + name + "=" + raw + " is not an integer; allowed: " + min + ".." + max, e);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "System property " + name + "=" + value + " is out of range; allowed: " + min + ".." + max);
        }
        return value;
    }
}
