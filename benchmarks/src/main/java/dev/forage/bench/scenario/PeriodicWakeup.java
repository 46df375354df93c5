package dev.forage.bench.scenario;

import dev.forage.bench.Budget;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Wake-up latency as a periodic producer sees it: a thread outside the pool submits one job at fixed deadlines,
 * 2 ms apart, without waiting for the previous one, and each job records how long after its {@code execute} it
 * started. Unlike {@code wakeup-outside}, nothing here waits for a job before submitting the next: a job whose
 * wake-up went missing would start only when the next submission woke a worker, 2 ms later, and shows as a sample
 * near 2 ms.
 */
public final class PeriodicWakeup implements Scenario {
    public static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** Samples later than this count as "late": more than half a period. */
    static final long LATE_NANOS = PERIOD_NANOS / 2;

    @Override
    public String id() {
        return "wakeup-periodic";
    }

    @Override
    public String title() {
        return "wake-up latency, periodic submissions";
    }

    @Override
    public String description() {
        return "A thread outside the pool calls `execute` at fixed deadlines 2 ms apart, never waiting for the "
                + "previous job; each job records the time from its `execute` call to its first instruction. p50, "
                + "p99 and the largest sample in µs (HdrHistogram), and the share of samples later than 1 ms.";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(new Metric("p50", "µs", "p50"), new Metric("p99", "µs", "p99"),
                new Metric("max", "µs", "max"), new Metric("late", "%", "late > 1 ms"));
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.EXECUTOR;
    }

    @Override
    public Group group() {
        return Group.WAKEUP;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        Executor ex = subject.executor();
        // Warm-up, not recorded: the budget's compile samples at a short period, so that C2 compiles the path,
        // then at the period.
        window(ex, budget.wakeupCompileSamples, WakeupLatency.COMPILE_GAP_NANOS);
        window(ex, budget.size(100, 5), PERIOD_NANOS);
        for (int w = 0; w < budget.windows; w++) {
            Histogram h = window(ex, budget.wakeupsPerWindow, PERIOD_NANOS);
            out.add("p50", h.getValueAtPercentile(50) / 1e3);
            out.add("p99", h.getValueAtPercentile(99) / 1e3);
            out.add("max", h.getMaxValue() / 1e3);
            out.add("late", 100.0 * (h.getTotalCount() - h.getCountBetweenValues(0, LATE_NANOS))
                    / h.getTotalCount());
            out.addHistogram("latency", h);
        }
    }

    /** {@code samples} jobs, one per {@code period}; returns their start latencies once all ran. */
    private static Histogram window(Executor ex, int samples, long period) throws InterruptedException {
        long[] latencies = new long[samples];
        CountDownLatch ran = new CountDownLatch(samples);
        long next = System.nanoTime() + period;
        for (int i = 0; i < samples; i++) {
            long now;
            while ((now = System.nanoTime()) - next < 0) {
                LockSupport.parkNanos(next - now);
            }
            next += period;
            final int index = i;
            final long submitted = System.nanoTime();
            ex.execute(() -> {
                latencies[index] = System.nanoTime() - submitted;
                ran.countDown();
            });
        }
        Scenarios.await(ran, "wakeup-periodic");
        Histogram h = WakeupLatency.newHistogram();
        for (long l : latencies) {
            h.recordValue(Math.max(l, 0));
        }
        return h;
    }
}
