package dev.forage;

/**
 * The fields a {@link Worker}'s own thread writes on every job. Only that thread reads or writes them. They sit
 * between {@link LeadingPad} and {@link WorkerPad1} so that these writes never invalidate a line that another
 * thread reads: the worker's {@code deque} reference, which thieves read on every steal attempt, or a
 * neighbouring object.
 */
abstract class WorkerOwnerState extends LeadingPad {
    int untilTimerCheck;
    /** IO workers: jobs until the next look at the selector ({@link Tunable#IO_POLL_INTERVAL}). */
    int untilIoPoll;
    /** The deadline of the innermost timed wait in progress, or {@code Worker.NO_DEADLINE}. */
    long waitDeadline;
    /** Set by every push; read and cleared by every {@code Worker.takeOwnJob}. */
    boolean pushedSinceTake;
    /**
     * Set when this worker found its deque empty although it had pushed since its last take: thieves took
     * every job it pushed, which is what a worker that pops its own posts sees when a neighbour takes them.
     * Read and cleared when the worker next goes idle (docs/sleep.md section 3.7).
     */
    boolean ownJobsTaken;
    /**
     * This worker's copy of {@link PoolEvents#longJobsEnabled()}: whether {@code Worker.runJob} times jobs for
     * JFR's long-job event. Refreshed at idle transitions and every {@link Tunable#TIMER_CHECK_INTERVAL} jobs,
     * so the per-job path reads a plain field instead of a volatile one.
     */
    boolean timeJobs;
    /**
     * How many jobs this worker's thread is running, one inside another: 0 in the top-level loop, 1 in a job
     * taken there, more in a job run by a wait that helps. Picks the take rule
     * ({@code SearchPolicy.takeLocalJob}) and bounds helping ({@link Tunable#MAX_HELP_DEPTH}).
     */
    int jobDepth;
    /**
     * True while this worker, after shutdown, fails its pending IO waits and runs their listeners: their
     * follow-up jobs are accepted ({@code Registry.refuseAfterShutdown}).
     */
    boolean failingIoWaits;
    /**
     * Set by the runner before the worker's top-level loop: how long the worker may stay idle there before its
     * thread retires ({@code Worker.waitUntil} returns false); 0 for never (IO workers, stand-ins, a pool that
     * callers run).
     */
    long retireAfterNanos;
    /** {@link System#nanoTime()} when the current idle spell began: written at every idle entry. */
    long idleSince;
    /** Jobs whose completion a throwable cut short, to settle from a shallower frame ({@link WaitedJob}). */
    WaitedJob unsettled;
    /** How many of {@code Worker.unreported} hold failures still to report. */
    int unreportedCount;
    /** How deep this worker's thread is in blocking sections ({@code Compensation}); 0 when not blocking. */
    int blockingDepth;
}

/** 128 bytes of padding after a worker's owner-written fields. */
abstract class WorkerPad1 extends WorkerOwnerState {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}
