package dev.forage;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * {@link ThreadCpu} from {@link ThreadMXBean#getThreadCpuTime(long)}: on Linux one {@code clock_gettime} of the
 * thread's CPU clock. Loaded by name only where {@code java.lang.management} exists ({@link ThreadCpu#INSTANCE});
 * the one class of the engine that names it, so the Android API check ignores exactly these references.
 */
final class ManagementThreadCpu extends ThreadCpu {
    private final ThreadMXBean bean = ManagementFactory.getThreadMXBean();

    ManagementThreadCpu() {
        if (!bean.isThreadCpuTimeSupported()) {
            throw new UnsupportedOperationException("this JVM measures no thread's CPU time");
        }
    }

    @Override
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+
    long cpuNanos(Thread t) {
        if (!bean.isThreadCpuTimeEnabled()) {
            return UNKNOWN; // switched off by the application: thread states only
        }
        long nanos = bean.getThreadCpuTime(t.getId());
        return nanos < 0 ? UNKNOWN : nanos;
    }

    @Override
    @SuppressWarnings("deprecation")
    boolean inNative(Thread t) {
        ThreadInfo info = bean.getThreadInfo(t.getId(), 1);
        return info != null && info.isInNative();
    }
}
