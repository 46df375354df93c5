package dev.forage.strategies;

import dev.forage.ForagePool;
import dev.forage.JoinResult;
import dev.forage.SleepStrategies;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A small JMH-free harness that compares the sleep strategies on this machine, until the benchmark runner
 * (docs/benchmarks.md) measures them properly: CPU burnt by the pool's threads while idle and at low load (one
 * tiny job from outside every 1 ms and every 100 µs), wake-up latency from an idle pool, and a fork-join
 * throughput figure. Not a test; run it by hand:
 *
 * <pre>
 * mvn -B -ntp -o -q test-compile -pl dispatcher-jvm
 * java -cp dispatcher-jvm/target/classes:dispatcher-jvm/target/test-classes \
 *     dev.forage.strategies.StrategyMeasurements [threads] [seconds per load point]
 * </pre>
 *
 * CPU is the sum of {@link ThreadMXBean#getThreadCpuTime} over the pool's worker threads, divided by wall time:
 * "cores busy". It counts the strategy's spinning and the OS work of parking, not the submitting thread.
 */
public final class StrategyMeasurements {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private StrategyMeasurements() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2.0;
        List<Config> configs = new ArrayList<>();
        for (SleepStrategies s : SleepStrategies.values()) {
            configs.add(new Config(s, -1));
        }
        configs.add(new Config(SleepStrategies.JEC, 200_000));
        configs.add(new Config(SleepStrategies.JEC, 1_000_000));
        System.out.printf(Locale.ROOT, "%d workers, %d available processors, %s %s, %.1f s per load point%n",
                threads, Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), seconds);
        System.out.printf(Locale.ROOT, "%-22s %9s %11s %11s %12s %12s %12s %14s%n", "strategy", "idle", "1ms load",
                "100us load", "wake p50", "wake p99", "fib(32) ms", "sleeps/wakes");
        for (Config c : configs) {
            measure(c, threads, seconds);
        }
    }

    private static final class Config {
        final SleepStrategies strategy;
        final long spinNanos;

        Config(SleepStrategies strategy, long spinNanos) {
            this.strategy = strategy;
            this.spinNanos = spinNanos;
        }

        String label() {
            return strategy + (spinNanos < 0 ? "" : " spin " + spinNanos / 1000 + "us");
        }

        ForagePool build(int threads) {
            dev.forage.ForagePoolBuilder b = ForagePool.builder().threads(threads).sleepStrategy(strategy)
                    .name("measure-" + strategy + "-" + spinNanos);
            if (spinNanos >= 0) {
                b.spinForWorkNanos(spinNanos);
            }
            return b.build();
        }
    }

    private static void measure(Config c, int threads, double seconds) throws Exception {
        try (ForagePool pool = c.build(threads)) {
            warmUp(pool);
            double idle = cpuWhile(pool, () -> LockSupport.parkNanos((long) (seconds * 1e9)));
            double load1ms = cpuWhile(pool, () -> paced(pool, 1_000_000L, seconds));
            double load100us = cpuWhile(pool, () -> paced(pool, 100_000L, seconds));
            long[] wake = wakeLatencies(pool, 300, 2_000_000L);
            double fib = fibMillis(pool);
            System.out.printf(Locale.ROOT, "%-22s %8.3fc %10.3fc %10.3fc %10.1fus %10.1fus %12.1f %14s%n",
                    c.label(), idle, load1ms, load100us, wake[wake.length / 2] / 1e3,
                    wake[wake.length * 99 / 100] / 1e3, fib,
                    pool.statistics().sleeps() + "/" + pool.statistics().wakeups());
        }
    }

    private static void warmUp(ForagePool pool) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            fibMillis(pool);
        }
        paced(pool, 100_000L, 0.3);
    }

    /** Cores busy in the pool's threads while {@code body} runs. */
    private static double cpuWhile(ForagePool pool, Body body) throws Exception {
        long[] ids = poolThreadIds(pool);
        long cpu0 = cpu(ids);
        long t0 = System.nanoTime();
        body.run();
        long wall = System.nanoTime() - t0;
        return (cpu(ids) - cpu0) / (double) wall;
    }

    private interface Body {
        void run() throws Exception;
    }

    /** One tiny job from outside every {@code periodNanos}, for {@code seconds}; waits for the last one. */
    private static void paced(ForagePool pool, long periodNanos, double seconds) throws InterruptedException {
        long n = (long) (seconds * 1e9 / periodNanos);
        CountDownLatch done = new CountDownLatch((int) n);
        AtomicLong sink = new AtomicLong();
        long next = System.nanoTime();
        for (long i = 0; i < n; i++) {
            next += periodNanos;
            long wait;
            while ((wait = next - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            pool.execute(() -> {
                sink.addAndGet(spinWork(200)); // about a microsecond of work
                done.countDown();
            });
        }
        done.await();
    }

    private static long spinWork(int n) {
        long x = 17;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    /** Submit-to-start latency of a job submitted from outside after {@code gapNanos} of idleness. */
    private static long[] wakeLatencies(ForagePool pool, int samples, long gapNanos) throws InterruptedException {
        long[] out = new long[samples];
        for (int i = 0; i < samples; i++) {
            LockSupport.parkNanos(gapNanos);
            AtomicLong started = new AtomicLong();
            CountDownLatch done = new CountDownLatch(1);
            long t0 = System.nanoTime();
            pool.execute(() -> {
                started.set(System.nanoTime());
                done.countDown();
            });
            done.await();
            out[i] = started.get() - t0;
        }
        Arrays.sort(out);
        return out;
    }

    private static double fibMillis(ForagePool pool) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            long r = pool.install(() -> fib(pool, 32));
            if (r != 2178309L) {
                throw new AssertionError("fib(32) = " + r);
            }
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best / 1e6;
    }

    private static long fib(ForagePool pool, int n) {
        if (n < 20) {
            return seqFib(n);
        }
        JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1), () -> fib(pool, n - 2));
        return r.first() + r.second();
    }

    private static long seqFib(int n) {
        return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    private static long[] poolThreadIds(ForagePool pool) {
        String prefix = pool.name() + "-worker-";
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix))
                .mapToLong(Thread::getId).toArray();
    }

    private static long cpu(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
    }

    static {
        // Some JVMs turn thread CPU time off by default; the harness needs it.
        if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }
}
