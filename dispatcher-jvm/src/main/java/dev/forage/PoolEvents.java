package dev.forage;

/**
 * The rare, expensive moments a pool reports to JDK Flight Recorder ({@code docs/observability.md}, "JFR
 * events"): a job that ran longer than a threshold, a wake-up that found no work, a job the monitor found blocked,
 * a sampled job's wait in the queue. The one door from the engine to {@code jdk.jfr}.
 *
 * <p>Loading rule: Android and Java 8 must never resolve a {@code jdk.jfr} class. The implementation,
 * {@code JfrPoolEvents}, is compiled for Java 11 from its own source folder and packed under the jar's
 * {@code META-INF/versions/11} (a multi-release jar, whose root is all Java 8 bytecode). It is loaded by name, once,
 * only if {@code jdk.jfr.Event} itself is loadable; if either step fails (no JFR on Android, no such class for a
 * Java 8 JVM even where 8u262+ has JFR), every pool gets {@link #NONE}, whose methods do nothing. Nothing else in
 * the engine names a JFR type.
 */
abstract class PoolEvents {
    /** No JFR: nothing is ever enabled. */
    static final PoolEvents NONE = new PoolEvents() {
        @Override
        boolean longJobsEnabled() {
            return false;
        }

        @Override
        void longJob(String pool, int workerIndex, Runnable job, long nanos) {
        }

        @Override
        void wakeupWithoutWork(String pool, int workerIndex) {
        }

        @Override
        boolean blockedJobsEnabled() {
            return false;
        }

        @Override
        void blockedJob(String pool, int workerIndex, Thread thread, long nanos) {
        }

        @Override
        Object queueWaitBegin() {
            return null;
        }

        @Override
        void queueWaitEnd(Object event, String pool, Runnable job) {
        }
    };

    /** The JVM's events: JFR's when it has JFR, else {@link #NONE}. Decided when this class initializes. */
    static final PoolEvents INSTANCE = load();

    private static final String IMPLEMENTATION = "dev.forage.JfrPoolEvents";

    private static PoolEvents load() {
        ClassLoader loader = PoolEvents.class.getClassLoader();
        try {
            Class.forName("jdk.jfr.Event", false, loader);
        } catch (Throwable noJfr) {
            return NONE; // Android, or a Java 8 build without JFR
        }
        try {
            return (PoolEvents) Class.forName(IMPLEMENTATION, true, loader).newInstance();
        } catch (Throwable unusable) {
            // Java 8u262+ has jdk.jfr but reads only the jar's root, where the class is not (or, from a plain
            // class folder, cannot load it: UnsupportedClassVersionError); a security manager may refuse the
            // recorder listener. Either way: no events, and the pool runs on.
            return NONE;
        }
    }

    /**
     * Whether a recording wants long-job events now. A volatile read: workers copy it into a plain field of
     * their own at idle transitions and every {@link Tunable#TIMER_CHECK_INTERVAL} jobs, so the per-job path
     * reads only that copy.
     */
    abstract boolean longJobsEnabled();

    /**
     * Worker thread: {@code job} ran for {@code nanos}, at least its pool's threshold
     * ({@link Tunable#JFR_LONG_JOB_MILLIS}, {@link ForagePoolBuilder#longJobThreshold}).
     */
    abstract void longJob(String pool, int workerIndex, Runnable job, long nanos);

    /** Worker thread: the worker woke from a sleep and its next search found nothing. */
    abstract void wakeupWithoutWork(String pool, int workerIndex);

    /** Whether a recording wants blocked-job events now; the monitor asks once per blocked job it counts. */
    abstract boolean blockedJobsEnabled();

    /**
     * Monitor thread: worker {@code workerIndex}, running on {@code thread}, stayed in one job without running
     * for {@code nanos} and a stand-in took its place ({@link BlockedJobs}). The job is named from the thread's
     * stack, which shows the blocking call and the user's code that made it.
     */
    abstract void blockedJob(String pool, int workerIndex, Thread thread, long nanos);

    /**
     * Submitting thread, for a job {@link QueueWaits} sampled: the queue-wait event, begun now, if a recording
     * wants it; else null (one volatile read).
     */
    abstract Object queueWaitBegin();

    /** The thread starting the sampled {@code job}: ends and commits the event {@link #queueWaitBegin} made. */
    abstract void queueWaitEnd(Object event, String pool, Runnable job);
}
