package guide;

import dev.forage.ForagePool;
import dev.forage.PoolCounter;
import dev.forage.PoolStatistics;
import dev.forage.QueueWaitHistogram;
import dev.forage.TaskWrapper;
import dev.forage.metrics.ForagePoolMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.nio.file.Paths;
import jdk.jfr.Recording;

/** The Java blocks of docs/observability.md, each in a method. */
public final class ObservabilityPage {
    private ObservabilityPage() {
    }

    public static void printStatistics(ForagePool pool) {
        PoolStatistics s = pool.statistics();
        System.out.printf("%d jobs, %d steals, %d useless wake-ups, %d queued, %d active of %d%n",
                s.jobsRun(), s.steals(), s.wakeupsWithoutWork(), s.queuedJobs(), s.activeWorkers(), s.threads());
        for (PoolCounter c : PoolCounter.values()) {
            System.out.println(c.key() + " = " + s.count(c) + "  (" + c.description() + ")");
        }
    }

    public static long queueWaitP99(ForagePool pool) {
        QueueWaitHistogram before = pool.statistics().queueWait();
        // ... a minute of traffic
        QueueWaitHistogram lastMinute = pool.statistics().queueWait().since(before);
        long p99 = lastMinute.percentileNanos(0.99); // 0 when no sampled job ran in the minute
        return p99;
    }

    public static double utilisation(ForagePool pool) {
        long t0 = System.nanoTime();
        PoolStatistics before = pool.statistics();
        // ... some time later
        long t1 = System.nanoTime();
        PoolStatistics after = pool.statistics();
        double utilisation = (double) (after.busyNanos() - before.busyNanos()) / ((t1 - t0) * (double) after.threads());
        return utilisation;
    }

    public static ForagePool micrometer(MeterRegistry meterRegistry) {
        ForagePool pool = ForagePool.builder().threads(8).name("compute").build();
        new ForagePoolMetrics(pool, Tags.of("service", "search")).bindTo(meterRegistry);
        return pool;
    }

    final class Retrying implements Runnable, TaskWrapper {
        private final Runnable task;
        Retrying(Runnable task) { this.task = task; }
        @Override public void run() { /* run task, retrying */ }
        @Override public Object wrappedTask() { return task; }   // LongJob names task's class
    }

    public static void record() throws IOException {
        try (Recording r = new Recording()) {
            r.enable("dev.forage.LongJob");
            r.enable("dev.forage.WakeupWithoutWork");
            r.start();
            // ... run the workload
            r.stop();
            r.dump(Paths.get("forage.jfr"));
        }
    }
}
