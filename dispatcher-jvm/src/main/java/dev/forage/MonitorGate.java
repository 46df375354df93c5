package dev.forage;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The monitor's three races, each a Dekker pair of volatile accesses ({@code docs/monitor.md}, "Races"). Kept
 * apart from {@link Monitor} so that the jcstress module drives exactly this code.
 *
 * <p><b>Start against exit.</b> The monitor thread exists only while something needs watching. A poster that
 * finds jobs waiting behind busy workers (J1: its push, a volatile write) then reads the state (J2:
 * {@link #claimStart}) and starts a thread if none runs. A monitor that saw nothing to watch for its linger sets
 * NONE (X1: a CAS) and then looks at the queues, the counted workers and the timers once more (X2); if anything
 * needs it, it takes the state back (X3). Volatile accesses are totally ordered: either J2 sees NONE and starts a
 * thread, or X2 sees the job and stays. Whoever loses the CAS of X3 or J2 leaves the running to the other.
 *
 * <p><b>A post against the monitor going dormant.</b> A sample with nothing to judge turns sampling off (D1,
 * {@link #stopSamplingUnless}) and then looks at the queues once more (D2); a poster pushes (J1) and then reads
 * the flag, claiming it to wake the monitor when it is off (J2, {@link #claimSampling}). Either D2 sees the job,
 * or J2 sees D1.
 *
 * <p><b>Unwatched timer against the monitor's park.</b> The monitor publishes when it will next wake (M1,
 * {@link #planWake}), then reads the timers (M2) and parks until its plan or the earliest unwatched deadline,
 * whichever is first. A thread that leaves a timer unwatched (P1: a new earliest timer with no watcher, or a
 * watcher that gave the watch up) then reads the plan (P2: {@link #wakeNeeded}) and unparks the monitor if it
 * would wake after that deadline. Either M2 sees the timer, or P2 sees the plan; an unpark that comes before the
 * park is kept as the thread's permit.
 */
final class MonitorGate {
    /** No monitor thread; the next worker that becomes busy starts one. */
    static final int NONE = 0;
    /** A monitor thread runs (or is about to start). */
    static final int RUNNING = 1;
    /** The pool terminated, or has no threads to watch: never again. */
    static final int STOPPED = 2;

    private static final AtomicIntegerFieldUpdater<MonitorGate> STATE =
            AtomicIntegerFieldUpdater.newUpdater(MonitorGate.class, "state");

    private volatile int state;
    /**
     * 1 while blocked-job detection samples; the monitor writes 0 (D1) before it parks dormant, and a poster that
     * finds 0 while jobs wait behind workers that are all busy claims it back and wakes the monitor (J2).
     */
    private volatile int sampling;
    private static final AtomicIntegerFieldUpdater<MonitorGate> SAMPLING =
            AtomicIntegerFieldUpdater.newUpdater(MonitorGate.class, "sampling");
    /** The running monitor's next wake, a {@link System#nanoTime()} value: M1. */
    private volatile long wakeAt;

    MonitorGate(int initial) {
        this.state = initial;
    }

    /** G2, after G1: true if the caller must start the monitor's thread (the state is RUNNING now). */
    boolean claimStart() {
        return state == NONE && STATE.compareAndSet(this, NONE, RUNNING);
    }

    /** A start failed (no thread to be had), or a failure ended the monitor: the next busy worker tries again. */
    void startFailed() {
        sampling = 0; // or the next post that finds jobs waiting would take the monitor for awake
        STATE.compareAndSet(this, RUNNING, NONE);
    }

    /** What X2 asks: is anything to watch (busy workers, counted blocked ones, unwatched timers)? */
    interface Watch {
        boolean anythingToWatch();
    }

    /**
     * X1..X3, on the monitor's thread: true if the thread must end now (nothing to watch, or another thread
     * claimed the monitor meanwhile, or the pool stopped it); false if it stays RUNNING.
     */
    boolean exitUnless(Watch watch) {
        if (!STATE.compareAndSet(this, RUNNING, NONE)) {
            return true; // STOPPED
        }
        if (!watch.anythingToWatch()) {
            return true;
        }
        return !STATE.compareAndSet(this, NONE, RUNNING);
    }

    /**
     * J2, after J1 (the poster's push, a volatile write, and its read of the sleep counters): true for the one
     * caller that must wake the monitor to sample, because it was dormant (or not running) while jobs wait behind
     * workers that are all busy. One volatile read while it samples.
     */
    boolean claimSampling() {
        return sampling == 0 && SAMPLING.compareAndSet(this, 0, 1);
    }

    boolean isSampling() {
        return sampling != 0;
    }

    /**
     * D1 and D2, on the monitor's thread, when a sample found nothing to judge: stops sampling (D1), then looks
     * once more whether jobs wait (D2). True if it must sample on: D2 saw jobs, or a poster claimed sampling since
     * D1 and counts on this monitor. A poster reads the flag after its push (J1, J2): either D2 sees the push, or
     * J2 sees D1 and wakes the monitor.
     */
    boolean stopSamplingUnless(Watch jobsWait) {
        sampling = 0; // D1
        if (jobsWait.anythingToWatch()) { // D2
            claimSampling(); // whoever wins, sampling is on again
            return true;
        }
        return sampling != 0;
    }

    /** The pool terminated: no monitor runs again. */
    void stop() {
        state = STOPPED;
    }

    boolean isStopped() {
        return state == STOPPED;
    }

    boolean isRunning() {
        return state == RUNNING;
    }

    /** The timers as M2 reads them. */
    interface Timers {
        /** Whether timers are pending and no worker watches them. */
        boolean unwatched();

        /** The earliest pending deadline as a {@link System#nanoTime()} value; only when {@link #unwatched()}. */
        long earliestNanos();
    }

    /**
     * M1 and M2, on the monitor's thread: publishes that it parks until {@code at}, then reads the timers, and
     * returns when it must wake: {@code at}, or the earliest unwatched deadline if that is sooner (published too).
     */
    long planWake(long at, Timers timers) {
        wakeAt = at; // M1
        if (timers.unwatched()) { // M2
            long timer = timers.earliestNanos();
            if (timer - at < 0) {
                wakeAt = timer;
                return timer;
            }
        }
        return at;
    }

    /**
     * P2, after P1: whether the running monitor plans to wake after {@code deadline} (a {@link System#nanoTime()}
     * value), so that the caller must unpark it.
     */
    boolean wakeNeeded(long deadline) {
        return state == RUNNING && wakeAt - deadline > 0;
    }
}
