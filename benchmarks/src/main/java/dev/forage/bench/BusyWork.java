package dev.forage.bench;

/**
 * A CPU-bound task of a chosen length (about 20 µs in the low-load scenarios): a loop the JIT cannot remove,
 * with an iteration count calibrated against the clock after warm-up.
 */
public final class BusyWork {
    /** Written so the loop has an observable result. */
    private static volatile long sink;

    private final int iterations;

    private BusyWork(int iterations) {
        this.iterations = iterations;
    }

    /** Calibrates on the calling thread so that one {@link #run()} takes about {@code nanos} of wall time. */
    public static BusyWork calibrate(long nanos) {
        int iters = 1000;
        // Warm the loop up so the JIT has compiled it before we time it.
        for (int i = 0; i < 2000; i++) {
            spin(iters);
        }
        for (int round = 0; round < 8; round++) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 50; i++) {
                long t0 = System.nanoTime();
                spin(iters);
                best = Math.min(best, System.nanoTime() - t0);
            }
            iters = (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, (double) iters * nanos / Math.max(best, 1)));
        }
        return new BusyWork(iters);
    }

    public int iterations() {
        return iterations;
    }

    public void run() {
        spin(iterations);
    }

    /**
     * CPU nanoseconds one run takes, measured on the calling thread's CPU clock over {@code runs} runs. This is
     * the "useful CPU" of one task.
     */
    public double measureCpuNanos(int runs) {
        long c0 = ThreadCpu.currentThread();
        for (int i = 0; i < runs; i++) {
            run();
        }
        return (ThreadCpu.currentThread() - c0) / (double) runs;
    }

    private static void spin(int iterations) {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        sink = x;
    }
}
