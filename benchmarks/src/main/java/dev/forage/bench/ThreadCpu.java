package dev.forage.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of a scheduler's threads from the OS's per-thread accounting ({@code ThreadMXBean}, which on Linux
 * reads each thread's CPU clock: nanosecond resolution, unlike the 10 ms ticks of /proc/self/task/N/stat).
 * Threads are picked by name prefix, so the measuring thread and the JVM's own threads are never counted.
 */
public final class ThreadCpu {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private ThreadCpu() {
    }

    /** A snapshot: thread id to CPU nanoseconds, for live threads whose name starts with {@code prefix}. */
    public static Map<Long, Long> snapshot(String prefix) {
        if (!MX.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure per-thread CPU time");
        }
        if (!MX.isThreadCpuTimeEnabled()) {
            MX.setThreadCpuTimeEnabled(true);
        }
        Map<Long, Long> cpu = new HashMap<>();
        for (Thread t : liveThreads()) {
            if (t.getName().startsWith(prefix)) {
                long ns = MX.getThreadCpuTime(t.getId());
                if (ns >= 0) {
                    cpu.put(t.getId(), ns);
                }
            }
        }
        return cpu;
    }

    /**
     * CPU nanoseconds spent between two snapshots. A thread born in between counts from zero; a thread that died
     * in between is lost (none of the subjects retires workers within a measuring window).
     */
    public static long between(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    /** The number of live threads whose name starts with {@code prefix}. */
    public static int count(String prefix) {
        int n = 0;
        for (Thread t : liveThreads()) {
            if (t.getName().startsWith(prefix)) {
                n++;
            }
        }
        return n;
    }

    /** CPU nanoseconds of the calling thread. */
    public static long currentThread() {
        return MX.getCurrentThreadCpuTime();
    }

    private static Thread[] liveThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n;
        while ((n = root.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        Thread[] live = new Thread[n];
        System.arraycopy(threads, 0, live, 0, n);
        return live;
    }
}
