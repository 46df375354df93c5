package dev.forage.bench.scenario;

import dev.forage.bench.Budget;
import dev.forage.bench.BusyWork;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import dev.forage.bench.ThreadCpu;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * CPU burnt per unit of useful CPU at low load: a ~20 µs task submitted on a fixed schedule (open loop) from a
 * thread outside the pool. 1.0 would mean the pool's threads spend CPU only on the tasks themselves.
 */
public final class LowLoadCpu implements Scenario {
    static final long TASK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /** The {@link Results} info key of the untimed idle-cycle pass ({@link IdleCycles}), shown in the run details. */
    public static final String IDLE_CYCLE_KEY = IdleCycles.INFO_KEY;

    private final long periodNanos;
    private final int fixedThreads;

    /** {@code fixedThreads} 0 means the run's base thread count; otherwise that many workers (the wide pool). */
    public LowLoadCpu(long periodNanos, int fixedThreads) {
        this.periodNanos = periodNanos;
        this.fixedThreads = fixedThreads;
    }

    @Override
    public String id() {
        return "lowload-" + periodLabel() + (fixedThreads > 0 ? "-w" + fixedThreads : "");
    }

    @Override
    public String title() {
        return "low load: 20 µs task every " + periodLabel().replace("us", " µs").replace("ms", " ms")
                + (fixedThreads > 0 ? ", " + fixedThreads + " workers" : "");
    }

    private String periodLabel() {
        return periodNanos % 1_000_000 == 0 ? (periodNanos / 1_000_000) + "ms" : (periodNanos / 1_000) + "us";
    }

    @Override
    public String description() {
        return "A thread outside the pool submits a busy task of about 20 µs (calibrated in each JVM) every "
                + periodLabel().replace("us", " µs").replace("ms", " ms")
                + " on a fixed schedule (open loop: a late submission does not delay the next ones)"
                + (fixedThreads > 0 ? ", to a pool of " + fixedThreads + " workers on this machine's cores (the "
                        + "wide pool, where idle workers that spin instead of sleeping cost the most)" : "")
                + ". The CPU time of the pool's threads (per-thread OS accounting, threads picked by name) over "
                + "the window, divided by tasks × the task's own CPU time (measured on the submitting thread): "
                + "1.0 is the ideal, the excess is what idling, spinning and waking cost. After the timed windows, "
                + "an untimed pass of the same schedule in which each task reads its thread's CPU clock when it "
                + "starts and ends; the run details give the CPU a thread spent between two of its tasks (one idle "
                + "cycle: the pool's own path, the park and the switch) as p50, p90 and mean, and the pool's CPU "
                + "in neither a task nor such a cycle, per task.";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(new Metric("cpu", "×", "pool CPU / useful CPU"));
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.EXECUTOR;
    }

    @Override
    public int threads(int base) {
        return fixedThreads > 0 ? fixedThreads : base;
    }

    @Override
    public Group group() {
        return Group.LOW_LOAD;
    }

    /** The period between submissions, in nanoseconds. */
    public long periodNanos() {
        return periodNanos;
    }

    /** The fixed worker count, or 0 for the run's base count. */
    public int fixedThreads() {
        return fixedThreads;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        BusyWork work = BusyWork.calibrate(TASK_NANOS);
        double taskCpu = work.measureCpuNanos(budget.size(1000, 50));
        out.info("taskCpuMicros", round(taskCpu / 1000));
        int tasks = (int) Math.max(1, budget.lowLoadWindowNanos / periodNanos);
        // Warm-up: the same schedule, not measured (JIT, thread creation, first sleeps).
        long warmupTasks = Math.max(tasks, budget.warmupNanos / periodNanos);
        window(subject.executor(), work, (int) warmupTasks);
        long lateTotal = 0;
        double poolMs = 0;
        double usefulMs = 0;
        out.timingStarts();
        for (int w = 0; w < budget.windows; w++) {
            Map<Long, Long> before = ThreadCpu.snapshot(subject.threadPrefix());
            long late = window(subject.executor(), work, tasks);
            Map<Long, Long> after = ThreadCpu.snapshot(subject.threadPrefix());
            long pool = ThreadCpu.between(before, after);
            double useful = tasks * taskCpu;
            out.add("cpu", pool / useful);
            lateTotal += late;
            poolMs += pool / 1e6;
            usefulMs += useful / 1e6;
        }
        out.timingEnds();
        // Untimed: the same schedule once more, each task reading its thread's CPU clock (IdleCycles).
        out.info(IdleCycles.INFO_KEY, IdleCycles.describe(IdleCycles.measure(subject.executor(),
                subject.threadPrefix(), work, periodNanos, tasks)));
        out.info("tasksPerWindow", tasks);
        out.info("poolCpuMs", round(poolMs));
        out.info("usefulCpuMs", round(usefulMs));
        out.info("lateSubmissions", lateTotal);
        out.info("poolThreads", ThreadCpu.count(subject.threadPrefix()));
    }

    /** Runs one schedule of {@code tasks} submissions and waits until they all ran; returns how many were late. */
    private long window(Executor ex, BusyWork work, int tasks) {
        AtomicInteger done = new AtomicInteger();
        return schedule(ex, () -> {
            work.run();
            done.incrementAndGet();
        }, done, periodNanos, tasks);
    }

    /**
     * The open-loop schedule: submits {@code task} {@code tasks} times from the calling thread, one every
     * {@code periodNanos}, then waits until one period after the last submission and until {@code done}, which
     * each run of {@code task} increments when it ends, reaches {@code tasks}. Returns how many submissions were
     * more than a period late.
     */
    static long schedule(Executor ex, Runnable task, AtomicInteger done, long periodNanos, int tasks) {
        long start = System.nanoTime() + periodNanos;
        long late = 0;
        for (int k = 0; k < tasks; k++) {
            long due = start + k * periodNanos;
            long now;
            while ((now = System.nanoTime()) - due < 0) {
                LockSupport.parkNanos(due - now);
            }
            if (now - due > periodNanos) {
                late++;
            }
            ex.execute(task);
        }
        long end = start + (long) tasks * periodNanos;
        long now;
        while ((now = System.nanoTime()) - end < 0 || done.get() < tasks) {
            LockSupport.parkNanos(Math.max(end - now, 20_000L));
        }
        return late;
    }

    private static double round(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
