package dev.forage;

/**
 * What shows that a thread makes progress, for the monitor's blocked-job watch ({@link BlockedJobs}): its CPU time
 * where the platform has {@code java.lang.management} (every JVM from Java 8 on), which sees a blocking socket read
 * as blocked although its thread state says RUNNABLE; elsewhere (Android has no {@code java.lang.management}) the
 * thread state alone, which sees sleeps, locks, {@code Object.wait} and parks, but not a blocking read.
 *
 * <p>Loading rule, as for JFR: nothing outside {@link ManagementThreadCpu} names a {@code java.lang.management}
 * type, and that class is loaded by name, once, only after {@code java.lang.management.ManagementFactory} itself
 * loaded; any failure gives {@link #STATE_ONLY}.
 */
abstract class ThreadCpu {
    /** No CPU time for this thread: judge it by {@link Thread#getState()}. */
    static final long UNKNOWN = -1L;

    /** Thread states only. */
    static final ThreadCpu STATE_ONLY = new ThreadCpu() {
        @Override
        long cpuNanos(Thread t) {
            return UNKNOWN;
        }
    };

    /** The JVM's clock, decided once. */
    static final ThreadCpu INSTANCE = load();

    private static ThreadCpu load() {
        ClassLoader loader = ThreadCpu.class.getClassLoader();
        try {
            Class.forName("java.lang.management.ManagementFactory", false, loader);
            ThreadCpu cpu = (ThreadCpu) Class.forName("dev.forage.ManagementThreadCpu", true, loader).newInstance();
            return cpu.cpuNanos(Thread.currentThread()) == UNKNOWN ? STATE_ONLY : cpu;
        } catch (Throwable unavailable) {
            return STATE_ONLY; // Android, or a JVM that measures no thread's CPU time
        }
    }

    /** CPU time {@code t} has used so far, in nanoseconds, or {@link #UNKNOWN}. Any thread; about a microsecond. */
    abstract long cpuNanos(Thread t);

    /**
     * Whether RUNNABLE {@code t} is in a native call (a blocking socket read or accept) rather than in Java code
     * the OS has not scheduled. Asked only for a thread that hardly ran for two windows, since it stops {@code t}
     * briefly (a handshake, tens of microseconds).
     */
    boolean inNative(Thread t) {
        return false;
    }
}
