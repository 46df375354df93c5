package dev.forage;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pool's monitor ({@code docs/monitor.md}): one daemon thread that watches what no worker can while every
 * worker is busy, after Go's {@code sysmon} and this pool's selector takeover. It
 * <ul>
 *   <li>fires timers that are due while no sleeping worker watches them: an action that needs no worker
 *       ({@link ForagePool#scheduleTimeout}: completing a future, cancelling a call) runs on the monitor itself,
 *       any other timer is queued on time as an injected job;</li>
 *   <li>while jobs wait and no worker is idle to take them, samples the busy workers every
 *       {@link Tunable#BLOCKED_JOB_MILLIS} and lets a stand-in take the place of one that stays in a job without
 *       running ({@link BlockedJobs}).</li>
 * </ul>
 * It exists only while there is something to watch: a post that finds jobs waiting behind busy workers (J2), or
 * the first timer left unwatched, starts it; between samples that find nothing to judge it parks dormant, and it
 * ends after {@link Tunable#MONITOR_LINGER_MILLIS} with nothing to watch, so an idle pool, or one that keeps up,
 * has no monitor thread and burns nothing. Its races with the posters and the workers are in {@link MonitorGate}.
 */
final class Monitor implements Runnable, PoolWatch, MonitorGate.Watch, MonitorGate.Timers {
    private final Registry registry;
    private final Sleep sleep;
    private final Lifecycle lifecycle;
    private final PoolTimers timers;
    private final Clock clock;
    final MonitorGate gate;
    /** Null while blocked-job detection is off. */
    private final BlockedJobs blocked;
    /** The sampling period while a worker is busy: the blocked-job threshold. */
    private final long periodNanos;
    private final long maxPeriodNanos;
    private final long lingerNanos;
    private volatile Thread thread;
    /** Samples of blocked-job detection taken so far; written by the monitor's thread only, read by tests. */
    private volatile long samples;
    /** Times a post woke the dormant monitor to sample; written by the monitor's thread only, read by tests. */
    private volatile long dormantWakes;

    /** A pool's monitor; {@code runner} null for a pool that callers run, which has none. */
    Monitor(Registry registry, ThreadedRunner runner) {
        Tuning tuning = registry.tuning;
        this.registry = registry;
        this.sleep = registry.sleep;
        this.lifecycle = registry.lifecycle;
        this.timers = registry.timers;
        this.clock = registry.clock;
        this.gate = new MonitorGate(runner == null ? MonitorGate.STOPPED : MonitorGate.NONE);
        long millis = tuning.get(Tunable.BLOCKED_JOB_MILLIS);
        this.blocked = runner == null || millis == 0 ? null : new BlockedJobs(registry, runner, ThreadCpu.INSTANCE);
        // Without detection the monitor only waits for timers; its period then only paces the linger.
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(millis == 0 ? 10L : millis);
        this.maxPeriodNanos = 4 * periodNanos;
        this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(tuning.get(Tunable.MONITOR_LINGER_MILLIS));
    }

    /**
     * G2, on a worker's thread that just became busy (G1 was its busy word's volatile write): a post's look
     * ({@link #jobsPosted}), since this worker may be about to block on a job that waits behind it, and the queues'
     * too, since no job was just pushed here.
     */
    @Override
    public void workerBusy() {
        if (blocked != null && !gate.isSampling() && jobsWait() && gate.claimSampling()) {
            startSampling();
        }
    }

    /**
     * J2, after J1 (a post's push, a volatile write): with detection on, a post that finds every worker busy wakes
     * a dormant monitor, for the job may wait behind a worker blocked in user code (a nested {@code future.get()}
     * on a one-thread pool). One volatile read while the monitor samples, one more of the sleep counters while it
     * does not; nothing at all with detection off. The post's own job is the one that waits, so it does not scan
     * the queues: at worst it wakes the monitor for a job a thief took meanwhile, which the sample then finds
     * gone (D2), never fewer times than a scan would.
     */
    @Override
    public void jobsPosted() {
        if (blocked != null && !gate.isSampling() && sleep.noWorkerIdle() && gate.claimSampling()) {
            startSampling();
        }
    }

    /** J2's or G2's claim of sampling succeeded: the monitor starts, or its dormant thread is woken. */
    private void startSampling() {
        if (gate.claimStart()) {
            start();
        } else {
            LockSupport.unpark(thread); // null while another caller starts it: that thread samples from its start
        }
    }

    /**
     * Jobs wait and no worker is idle to take them: the only time a blocked worker costs the pool anything, so the
     * only time detection samples. Volatile reads only ({@link Sleep#noWorkerIdle}, then the queues), stale at once.
     */
    private boolean jobsWait() {
        return sleep.noWorkerIdle() && registry.hasQueuedJobs();
    }

    /**
     * P2, after P1: a timer due at {@code deadline} (the pool's clock) is left without a watcher, because it is
     * the new earliest and nobody watches, or its watcher became busy. Any thread.
     */
    @Override
    public void timerUnwatched(long deadline) {
        long at = System.nanoTime() + (deadline - clock.nanoTime());
        if (gate.wakeNeeded(at)) {
            LockSupport.unpark(thread);
        } else if (gate.claimStart()) {
            start();
        }
    }

    private void start() {
        try {
            Thread t = new Thread(this, registry.name + "-monitor");
            t.setDaemon(true); // it watches; it never keeps the JVM alive
            t.setContextClassLoader(Monitor.class.getClassLoader());
            thread = t;
            t.start();
        } catch (Throwable e) {
            // No thread to be had now: the next worker that becomes busy tries again.
            gate.startFailed();
            registry.handleUncaught(Thread.currentThread(), e);
        }
    }

    /** The pool terminated: the monitor ends at once and never starts again. */
    @Override
    public void stop() {
        gate.stop();
        LockSupport.unpark(thread);
    }

    /** The monitor's thread while it runs (or the last one), else null; for termination and tests. */
    @Override
    public Thread thread() {
        return thread;
    }

    // The loop's state, the monitor's thread only. Fields rather than locals of run(), so that one turn of the
    // loop is a method the JIT compiles after a few hundred calls: a loop entered once per monitor thread, which
    // wakes a few hundred times a second at most, would run interpreted for minutes (as the worker's loop did).
    private long lastSample;
    private long nextSample;
    private long lastActive;
    private long period;
    /** Dormant: detection does not sample (nothing waits), the monitor parks until its linger ends or a timer. */
    private boolean dormant;
    /** When the monitor last went dormant. */
    private long dormantSince;
    /** Samples in a row that found nothing to judge; at {@link #quietNeeded} the monitor goes dormant. */
    private int quietSamples;
    /** How many such samples it takes now: the pool's rhythm of waiting jobs, learnt ({@link #woken}). */
    private int quietNeeded = 1;
    /** The most quiet samples the monitor ever takes before going dormant, {@link #quietNeeded}'s bound. */
    static final int MAX_QUIET_SAMPLES = 32;

    @Override
    public void run() {
        lastSample = System.nanoTime();
        nextSample = lastSample + periodNanos;
        lastActive = lastSample;
        period = periodNanos;
        dormant = blocked != null && !gate.isSampling();
        dormantSince = lastSample;
        boolean ended = false;
        try {
            while (!gate.isStopped()) {
                if (lifecycle.isTerminated()) {
                    gate.stop();
                    break;
                }
                if (!turn()) {
                    ended = true;
                    return;
                }
            }
            // Stopped: no monitor runs after this one, so its counts are undone here.
            if (blocked != null) {
                blocked.releaseAll();
            }
            ended = true;
        } finally {
            if (!ended) {
                gate.startFailed(); // a failure ended this monitor: the next busy worker starts another
            }
        }
    }

    /** One turn of the monitor's loop: fire, sample if due, park. False if the monitor ends (X1..X3). */
    private boolean turn() {
        long now = System.nanoTime();
        boolean timersToWatch = fireTimers();
        if (dormant && gate.isSampling()) {
            dormant = false; // woken by J2 or G2: jobs wait behind busy workers; look at once
            dormantWakes++;
            woken(now - dormantSince);
            nextSample = now;
            period = periodNanos;
        }
        if (now - nextSample >= 0) {
            // A wake more than half a period late means the monitor itself was stopped (a GC pause, the OS): every
            // thread's CPU clock stood still as well, so no worker is judged from that window.
            boolean onTime = now - nextSample <= periodNanos / 2;
            boolean busy;
            if (blocked == null) {
                busy = anyWorkerBusy();
            } else if (dormant) {
                busy = false; // not sampling: this wake is for the timers or the linger's end
            } else {
                busy = judge(now, now - lastSample, onTime);
                if (!busy) {
                    dormant = true; // judge turned sampling off (D1) and no post turned it on since
                    dormantSince = now;
                }
            }
            lastSample = now;
            if (busy || timersToWatch) {
                // A quiet sample that keeps sampling on (woken) is activity too, or the monitor would end while
                // posts keep waking it. It samples on only so that posts find it sampling: at half the rate, which
                // adds at most one threshold to how long a blocked worker waits for its stand-in.
                lastActive = now;
                period = busy && quietSamples > 0 && !timersToWatch ? 2 * periodNanos : periodNanos;
            } else if (blocked != null && now - lastActive < lingerNanos) {
                // Nothing to judge: no periodic samples while jobs do not wait (they cost a pool at low load); a
                // post that finds every worker busy wakes the monitor again (J2).
                nextSample = lastActive + lingerNanos;
                sleepUntil(nextSample);
                return true;
            } else if (now - lastActive >= lingerNanos && gate.exitUnless(this)) {
                return false; // nothing counted (X2 saw none), or a new monitor took over: it owns the counts now
            } else {
                period = Math.min(period * 2, maxPeriodNanos); // Go's sysmon backs off the same way
            }
            nextSample = now + period;
        }
        sleepUntil(nextSample);
        return true;
    }

    /**
     * A post woke the dormant monitor {@code dormantNanos} after it went dormant. Had it sampled on for
     * {@link #quietNeeded} more samples, that post would have found it sampling and woken nobody: a wake of a
     * dormant monitor costs the poster an unpark and the monitor a wake-up, a sample the monitor a wake-up only.
     * So a wake within that many periods doubles the quiet samples it takes next time, and a longer dormant spell
     * halves them. A pool whose jobs wait behind busy workers in bursts a few milliseconds apart (a server at a
     * moderate rate, where a worker often finds two connections ready while the other worker is busy) gets a
     * monitor that samples steadily instead of one woken for each burst; a pool where that happens now and then
     * keeps one that sleeps between them.
     */
    private void woken(long dormantNanos) {
        if (dormantNanos < quietNeeded * periodNanos) {
            quietNeeded = Math.min(quietNeeded * 2, MAX_QUIET_SAMPLES);
        } else if (quietNeeded > 1) {
            quietNeeded /= 2;
        }
    }

    /**
     * One sample of the workers with detection on, then D1 and D2: whether to keep sampling, because jobs wait
     * behind busy workers or a worker is counted blocked. When neither has held for {@link #quietNeeded} samples
     * in a row, the monitor stops sampling (D1) and looks once more for waiting jobs (D2), so that a post that read
     * "sampling" before D1 (J2) is not missed.
     */
    private boolean judge(long now, long window, boolean onTime) {
        samples++; // the monitor's thread alone writes it
        blocked.sample(now, window, onTime);
        if (blocked.countedNow() > 0 || jobsWait()) {
            quietSamples = 0;
            return true;
        }
        if (++quietSamples < quietNeeded) {
            return true; // jobs waited behind busy workers lately, in bursts: sample on (woken)
        }
        quietSamples = 0;
        return gate.stopSamplingUnless(this::jobsWait); // D1, D2
    }

    /**
     * The monitor's look at the timers: fires the due ones if nobody watches them. Before shutdown only: after it,
     * the last worker stays for pending timers and fires them itself, so none is queued behind a worker that left.
     */
    private boolean fireTimers() {
        if (!timers.unwatched() || lifecycle.isShutdown()) {
            return false;
        }
        timers.fireDueOnMonitor();
        return true;
    }

    /** M1, M2, park: until {@code at} or the earliest timer nobody watches, whichever comes first. */
    private void sleepUntil(long at) {
        long nanos = gate.planWake(at, this) - System.nanoTime();
        if (nanos > 0) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    /** M2: after shutdown the last worker fires the timers ({@link #fireTimers}); the monitor no longer waits. */
    @Override
    public boolean unwatched() {
        return timers.unwatched() && !lifecycle.isShutdown();
    }

    @Override
    public long earliestNanos() {
        long earliest = timers.earliestDeadline();
        // Gone since unwatched() said otherwise (fired or cancelled): a time far past any plan.
        long fromNow = earliest == TimerQueue.NO_DEADLINE ? Long.MAX_VALUE >> 2 : earliest - clock.nanoTime();
        return System.nanoTime() + fromNow;
    }

    private boolean anyWorkerBusy() {
        // Up to slotsInUse only: an extra slot's worker is made on its first use, null until then.
        Worker[] workers = registry.workers;
        for (int i = 0, n = registry.slotsInUse; i < n; i++) {
            if ((workers[i].counters.busyWord() & 1L) != 0) {
                return true;
            }
        }
        return false;
    }

    /** X2: jobs waiting behind busy workers (volatile reads), counted workers, unwatched timers. */
    @Override
    public boolean anythingToWatch() {
        return (blocked != null && (blocked.countedNow() > 0 || jobsWait())) || timers.unwatched();
    }

    /** Samples taken so far with detection on; for tests. */
    long samples() {
        return samples;
    }

    /** Times a post woke the dormant monitor; for tests. */
    long dormantWakes() {
        return dormantWakes;
    }

    /** Workers counted blocked now, and jobs counted blocked so far; for statistics. */
    @Override
    public int blockedNow() {
        return blocked == null ? 0 : blocked.countedNow();
    }

    @Override
    public long blockedJobsDetected() {
        return blocked == null ? 0L : blocked.detected();
    }
}
