package dev.forage;

import java.util.Arrays;

/**
 * The monitor's watch for blocking calls nobody marked ({@code docs/monitor.md}, "Blocked jobs"): a worker that
 * stays in one job for a whole sampling period while its thread hardly runs is counted blocked, and a stand-in
 * takes its place through the compensation path ({@link Compensation#blockedOne}, bounded by
 * {@code maxBlockingThreads}); once the worker makes progress again the count is undone
 * ({@link Compensation#unblockedOne}) and the stand-in leaves, as after a blocking section. Go's {@code sysmon}
 * hands the processor of a thread stuck in a system call to another thread the same way.
 *
 * <p>What it reads costs the workers nothing: their busy word and jobs-run counter, which they write anyway
 * ({@link WorkerStatistics}), and their thread's CPU time ({@link ThreadCpu}), read only for busy workers. A worker
 * is <em>in one job</em> when both words are unchanged since the last sample and the busy word is odd; it is
 * <em>blocked</em> when it looked {@linkplain #stuck stuck} in two sampling windows in a row of the same job, and
 * <em>running again</em> after one window in which it did not, or once it left the job. A worker inside a marked
 * blocking section ({@code managedBlock}) has its stand-in already and is skipped. Monitor thread only, except {@link #detected} and {@link #countedNow}, which statistics read.
 */
final class BlockedJobs {
    private final Registry registry;
    private final Worker[] workers;
    private final ThreadedRunner runner;
    private final ThreadCpu cpu;
    // Empty until the first sample (shared empty arrays: a pool whose monitor never samples, the usual idle or
    // lightly loaded pool now that detection is on by default, holds none of its own).
    private long[] lastBusy = NO_LONGS;
    private long[] lastJobs = NO_LONGS;
    private long[] lastCpu = NO_LONGS;
    private Thread[] lastThread = NO_THREADS;
    /** When the monitor first saw worker i in its current job. */
    private long[] firstSeen = NO_LONGS;
    private boolean[] counted = NO_BOOLEANS;
    /** Worker i looked stuck in the last window: one more such window in the same job counts it blocked. */
    private boolean[] suspect = NO_BOOLEANS;
    private static final long[] NO_LONGS = new long[0];
    private static final Thread[] NO_THREADS = new Thread[0];
    private static final boolean[] NO_BOOLEANS = new boolean[0];
    /** Workers counted blocked now. */
    private volatile int countedNow;
    /** Jobs counted blocked so far. */
    private volatile long detected;

    BlockedJobs(Registry registry, ThreadedRunner runner, ThreadCpu cpu) {
        this.registry = registry;
        this.workers = registry.workers;
        this.runner = runner;
        this.cpu = cpu;
    }

    /**
     * On the monitor's thread, when a sample finds more slots in use than it has memory for: the per-worker memory,
     * for the slots in use only (the core workers, and the extra slots ever activated), so that neither an idle
     * pool whose monitor never ran nor one that never blocked holds it for every extra slot. Only the monitor's
     * thread touches it.
     */
    private void grow(int n) {
        lastBusy = Arrays.copyOf(lastBusy, n);
        lastJobs = Arrays.copyOf(lastJobs, n);
        lastCpu = Arrays.copyOf(lastCpu, n);
        lastThread = Arrays.copyOf(lastThread, n);
        firstSeen = Arrays.copyOf(firstSeen, n);
        counted = Arrays.copyOf(counted, n);
        suspect = Arrays.copyOf(suspect, n);
    }

    /**
     * One sample at {@code now}, {@code window} nanoseconds after the last; {@code judge} false when the window
     * cannot be trusted (the monitor itself woke late: a GC pause or a descheduled monitor stops every thread's
     * CPU clock alike, so nothing is counted blocked from such a window). Returns whether any worker is busy or
     * counted blocked.
     */
    boolean sample(long now, long window, boolean judge) {
        int slots = registry.slotsInUse; // slots never used have no worker yet
        if (slots > counted.length) {
            grow(slots);
        }
        boolean anyBusy = false;
        for (int i = 0; i < slots; i++) {
            WorkerStatistics c = workers[i].counters;
            long busy = c.busyWord();
            long jobs = c.get(PoolCounter.JOBS_RUN);
            if ((busy & 1L) == 0) {
                forget(i);
                continue;
            }
            anyBusy = true;
            Thread t = runner.thread(i);
            if (t == null) {
                forget(i);
                continue;
            }
            boolean sameJob = busy == lastBusy[i] && jobs == lastJobs[i] && t == lastThread[i];
            long cpuNow = cpu.cpuNanos(t);
            if (!sameJob) {
                forget(i);
                lastBusy[i] = busy;
                lastJobs[i] = jobs;
                lastThread[i] = t;
                lastCpu[i] = cpuNow;
                firstSeen[i] = now;
                continue;
            }
            long used = cpuNow == ThreadCpu.UNKNOWN || lastCpu[i] == ThreadCpu.UNKNOWN ? -1L : cpuNow - lastCpu[i];
            lastCpu[i] = cpuNow;
            boolean stuck = stuck(t, used, window);
            if (stuck && suspect[i] && !counted[i] && t.getState() == Thread.State.RUNNABLE && !cpu.inNative(t)) {
                stuck = false; // in Java code the OS did not run (an overloaded machine): not a blocking call
            }
            if (counted[i]) {
                // Running again in the same job, or inside a marked section that has its own stand-in: ours leaves.
                if (!stuck || workers[i].blockingDepth > 0) {
                    release(i);
                }
            } else if (!judge || !stuck || workers[i].blockingDepth > 0) {
                suspect[i] = false;
            } else if (suspect[i]) {
                count(i, t, now); // the second window in a row: blocked
            } else {
                suspect[i] = true;
            }
        }
        return anyBusy || countedNow > 0;
    }

    /**
     * Whether {@code t} made no progress over the last {@code window} nanoseconds, in which it used {@code used}
     * of CPU time (negative: unknown). A thread that says it waits (a sleep, a lock, {@code Object.wait}, a park)
     * must also have used less than a quarter of the window. A RUNNABLE one (a blocking socket read, or a thread
     * the OS does not run because the machine is overloaded) must have used less than a thirty-second: at a load
     * of ten runnable threads per core a computing thread still gets about a tenth, and a blocked read gets none.
     * Before a RUNNABLE thread is counted it must also be in a native call ({@link ThreadCpu#inNative}), which a
     * thread the OS merely left waiting in Java code is not.
     */
    private static boolean stuck(Thread t, long used, long window) {
        Thread.State s = t.getState();
        boolean waiting = s == Thread.State.BLOCKED || s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        if (used < 0) {
            return waiting;
        }
        return waiting ? used * 4 < window : used * 32 < window;
    }

    private void count(int i, Thread t, long now) {
        // The event first, while the worker's stack still shows the blocking call; the count last, so that a reader
        // of the statistics sees the job counted only once it has its stand-in and its event.
        PoolEvents events = PoolEvents.INSTANCE;
        if (events.blockedJobsEnabled()) {
            events.blockedJob(registry.name, i, t, now - firstSeen[i]);
        }
        counted[i] = true;
        countedNow++;
        runner.blockedWithoutSection();
        detected++;
    }

    private void release(int i) {
        counted[i] = false;
        countedNow--;
        runner.unblockedWithoutSection();
    }

    /** Worker {@code i} left its job (or its thread): undo its count, and start its watch afresh. */
    private void forget(int i) {
        if (counted[i]) {
            release(i);
        }
        lastThread[i] = null;
        suspect[i] = false;
    }

    /** The monitor ends: every count it holds is undone. */
    void releaseAll() {
        for (int i = 0; i < counted.length; i++) {
            forget(i);
        }
    }

    /** Workers counted blocked now; any thread. */
    int countedNow() {
        return countedNow;
    }

    /** Jobs counted blocked since the pool started; any thread. */
    long detected() {
        return detected;
    }
}
