package dev.forage.bench.scenario;

import dev.forage.bench.BusyWork;
import dev.forage.bench.ThreadCpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the low-load rows' excess CPU goes, as opposed to how much: an untimed pass of the same schedule in which
 * each task reads its thread's CPU clock when it starts and when it ends. The CPU a thread spent between the end
 * of one task and the start of its next is one idle cycle: leaving the task, searching, the sleep protocol, the
 * park and the kernel's switch out and back in, the wake-up path. Its median is the per-task cost of the pool's
 * own code plus one park; a mean far above the median says the excess is in rare expensive cycles (a switch that
 * cost tens of microseconds, a worker that spun) rather than in every one.
 *
 * <p>Each cycle also holds about one read of the CPU clock (a system call, a microsecond or so on a virtual
 * machine), the same for every subject. The pool's threads' CPU over the pass that is in neither a task nor a
 * measured cycle (a thread's spell before its first task of the pass, a worker that woke and ran nothing) is given
 * per task beside it: a worker that is woken rarely and charged much per wake-up shows there.
 */
final class IdleCycles {
    /** The {@link dev.forage.bench.Results} info key, shown in the run details. */
    static final String INFO_KEY = "idleCycleCpu";

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private IdleCycles() {
    }

    /**
     * One pass: the CPU of each idle cycle and of each task, in nanoseconds (-1 where not measured), and the pool
     * threads' CPU over the whole pass.
     */
    static final class Pass {
        final long[] cycles;
        final long[] tasks;
        final long poolCpu;

        Pass(long[] cycles, long[] tasks, long poolCpu) {
            this.cycles = cycles;
            this.tasks = tasks;
            this.poolCpu = poolCpu;
        }

        /** The pool's CPU in neither a task nor a measured cycle, per task, in nanoseconds. */
        double outsidePerTask() {
            long inside = Arrays.stream(tasks).sum() + Arrays.stream(cycles).filter(c -> c >= 0).sum();
            return (poolCpu - inside) / (double) tasks.length;
        }

        /** The measured idle cycles, sorted. */
        long[] measuredCycles() {
            return Arrays.stream(cycles).filter(c -> c >= 0).sorted().toArray();
        }
    }

    /**
     * Submits {@code tasks} runs of {@code work} to {@code ex} every {@code periodNanos} from the calling thread
     * (the scenario's open-loop schedule, {@link LowLoadCpu#schedule}) and waits until all ran; the pool's threads
     * are those whose names start with {@code threadPrefix}.
     */
    static Pass measure(Executor ex, String threadPrefix, BusyWork work, long periodNanos, int tasks) {
        if (!MX.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure per-thread CPU time");
        }
        long[] cycles = new long[tasks];
        long[] taskCpu = new long[tasks];
        Arrays.fill(cycles, -1L);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        // Each thread's CPU clock at the end of its last task, per pass (a thread's first task in it is not measured
        // against its last of the windows). A map, not a ThreadLocal: the common pool's workers clear their
        // thread-locals after every task.
        ConcurrentHashMap<Thread, long[]> lastEnd = new ConcurrentHashMap<>();
        Runnable task = () -> {
            long start = MX.getCurrentThreadCpuTime();
            int i = next.getAndIncrement();
            work.run();
            long end = MX.getCurrentThreadCpuTime();
            long[] last = lastEnd.computeIfAbsent(Thread.currentThread(), t -> new long[] {-1L});
            if (last[0] >= 0) {
                cycles[i] = start - last[0];
            }
            taskCpu[i] = end - start;
            last[0] = end;
            done.incrementAndGet();
        };
        Map<Long, Long> before = ThreadCpu.snapshot(threadPrefix);
        LowLoadCpu.schedule(ex, task, done, periodNanos, tasks);
        return new Pass(cycles, taskCpu, ThreadCpu.between(before, ThreadCpu.snapshot(threadPrefix)));
    }

    /**
     * The run details' text: the idle cycles' median, p90 and mean, the tasks' median and the CPU outside both per
     * task, in µs.
     */
    static String describe(Pass pass) {
        long[] c = pass.measuredCycles();
        long[] t = pass.tasks.clone();
        Arrays.sort(t);
        if (c.length == 0) {
            return "no idle cycle measured";
        }
        double mean = Arrays.stream(c).average().orElse(0);
        return String.format(Locale.ROOT,
                "p50 %.1f, p90 %.1f, mean %.1f µs (task %.1f µs, %d cycles; outside them %.1f µs per task)",
                c[c.length / 2] / 1e3, c[(int) (c.length * 0.9)] / 1e3, mean / 1e3, t[t.length / 2] / 1e3,
                c.length, pass.outsidePerTask() / 1e3);
    }
}
