package dev.forage.bench;

/** The warm-up-then-measure loop of the throughput scenarios. */
public final class Measure {
    private Measure() {
    }

    /** One operation, e.g. a whole fib(30). */
    @FunctionalInterface
    public interface Op {
        void run() throws Exception;
    }

    /**
     * Runs {@code op} for the budget's warm-up (time and count), then {@code budget.iterations} measured times
     * (fewer, but at least 3, once {@code budget.measureNanos} have passed), and adds each measured time in
     * milliseconds to {@code out} under {@code metric}.
     */
    public static void timeMillis(Budget budget, Results out, String metric, Op op) throws Exception {
        long warmupEnd = System.nanoTime() + budget.warmupNanos;
        int warm = 0;
        while (warm < budget.minWarmupIterations || System.nanoTime() - warmupEnd < 0) {
            op.run();
            warm++;
        }
        out.info("warmupOps", warm);
        long measureStart = System.nanoTime();
        for (int i = 0; i < budget.iterations; i++) {
            if (i >= Math.min(3, budget.iterations) && System.nanoTime() - measureStart > budget.measureNanos) {
                break;
            }
            long t0 = System.nanoTime();
            op.run();
            long t1 = System.nanoTime();
            out.add(metric, (t1 - t0) / 1e6);
        }
    }
}
