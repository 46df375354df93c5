package dev.forage.bench;

/** The warm-up-then-measure loop of the throughput scenarios. */
public final class Measure {
    /**
     * Set in {@link ByPlacement}'s measuring JVMs: the core round trip ({@link CoreRoundTrip}) before the first
     * timed operation and after each, so that each operation can be binned by the machine's placement during it.
     */
    static final boolean ROUND_TRIP_EACH_OP = Boolean.getBoolean(ByPlacement.PROPERTY);

    private Measure() {
    }

    /** One operation, e.g. a whole fib(30). */
    @FunctionalInterface
    public interface Op {
        void run() throws Exception;
    }

    /**
     * Runs {@code op} for the budget's warm-up (at least its time and count, then until the JIT compiler is quiet
     * or the cap is reached), then {@code budget.iterations} measured times (fewer, but at least 3, once
     * {@code budget.measureNanos} have passed), and adds each measured time in milliseconds to {@code out} under
     * {@code metric}. The warm-up's length, and whether the compiler had settled by its end, go to {@code out} as
     * information for the run details.
     */
    public static void timeMillis(Budget budget, Results out, String metric, Op op) throws Exception {
        timeMillis(budget, out, metric, op, new JitActivity());
    }

    static void timeMillis(Budget budget, Results out, String metric, Op op, JitActivity jit) throws Exception {
        long start = System.nanoTime();
        int warm = 0;
        boolean settled;
        while (true) {
            op.run();
            warm++;
            long now = System.nanoTime();
            jit.sample(now);
            if (warm < budget.minWarmupIterations || now - start < budget.warmupNanos) {
                continue;
            }
            settled = jit.quiet(now);
            if (settled || now - start >= budget.maxWarmupNanos) {
                break;
            }
        }
        out.info("warmupOps", warm);
        out.info("warmupMillis", (System.nanoTime() - start) / 1_000_000L);
        out.info("warmupJitMillis", jit.millisSinceStart());
        out.info("warmupSettled", settled && jit.supported());
        long jitBefore = jit.millisNow();
        out.timingStarts();
        long measureStart = System.nanoTime();
        // Outside each operation's clock: the round trip spins a thread of its own on the other core, with the
        // pool's workers idle.
        StringBuilder trips = ROUND_TRIP_EACH_OP ? new StringBuilder().append(CoreRoundTrip.measureNanos()) : null;
        for (int i = 0; i < budget.iterations; i++) {
            if (i >= Math.min(3, budget.iterations) && System.nanoTime() - measureStart > budget.measureNanos) {
                break;
            }
            long t0 = System.nanoTime();
            op.run();
            long t1 = System.nanoTime();
            out.add(metric, (t1 - t0) / 1e6);
            if (trips != null) {
                trips.append(',').append(CoreRoundTrip.measureNanos());
            }
        }
        out.timingEnds();
        if (trips != null) {
            out.info(ByPlacement.INFO_KEY, trips);
        }
        if (jit.supported()) {
            // The compiler's CPU while timed: on two cores, a compilation then takes one CPU from the pool.
            out.info("measuredJitMillis", jit.millisNow() - jitBefore);
        }
    }
}
