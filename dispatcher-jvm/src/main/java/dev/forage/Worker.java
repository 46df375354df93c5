package dev.forage;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One worker of a pool: its deque, its statistics, and the loop that runs jobs until a latch is set (Rayon's
 * {@code wait_until}). The loop runs on the worker's own thread only; the other methods
 * say which thread may call them. Where the loop looks for work and what it does between failed searches is its
 * {@link SearchPolicy}'s; whether it sleeps, the pool's {@link Sleep} protocol's.
 *
 * <p>The fields the owner writes on every job live in {@link WorkerOwnerState}, between two pads, so they never
 * share a cache line with the fields thieves read here ({@link #deque}) or with another object.
 */
final class Worker extends WorkerPad1 {
    static final long NO_DEADLINE = Long.MAX_VALUE;
    /** {@link #waitUntil(CoreLatch, long, long)}: the wait has no jobs of its own on the deque. */
    static final long NO_FLOOR = Long.MAX_VALUE;

    final Registry registry;
    final int index;
    final WorkDeque deque;
    final WorkerStatistics counters = new WorkerStatistics();
    /** How this worker's thread blocks; the sleep protocol holds the same one. */
    final Parker parker;
    /** The pool's socket IO, told of this worker's idle rounds and busy stretches. */
    private final PoolIo io;

    /** How this worker searches, and what it does between searches; owner thread only. */
    final SearchPolicy search;
    /** Its idle spells, and itself as its sleep protocol sees it while idle; owner thread only. */
    final WorkerIdle idle;

    private final Sleep sleep;
    private final PoolTimers timers;
    private final Clock clock;
    /** JDK Flight Recorder, or nothing: {@link PoolEvents#INSTANCE}. */
    private final PoolEvents events = PoolEvents.INSTANCE;
    /** This pool's tunables, read on the job path: {@link Tunable#TIMER_CHECK_INTERVAL}, the JFR threshold. */
    private final int timerCheckInterval;
    private final long longJobNanos;
    private final int ioPollInterval;
    /** {@link Tunable#MAX_HELP_DEPTH}: where a wait stops helping. */
    private final int maxHelpDepth;
    /**
     * Failures of plain jobs not yet reported to the handler because reporting them ran out of stack; owner only.
     * Written in a catch block without a call, so it needs no stack; reported by the next {@link #runJob} that
     * returns. A handful is plenty: each frame that reports has more stack than the one that could not.
     */
    private final Throwable[] unreported = new Throwable[8];

    Worker(Registry registry, int index, Parker parker) {
        this.registry = registry;
        this.index = index;
        this.parker = parker;
        this.deque = new WorkDeque(registry.queueBound.dequeCapacity);
        this.io = registry.io;
        Tuning tuning = registry.tuning;
        // Without IO workers there is no selector to look at: the countdown practically never reaches the empty poll.
        this.ioPollInterval = io.hasIoWorkers() ? tuning.getInt(Tunable.IO_POLL_INTERVAL) : Integer.MAX_VALUE;
        this.untilIoPoll = ioPollInterval;
        this.sleep = registry.sleep;
        this.timers = registry.timers;
        this.clock = registry.clock;
        this.timerCheckInterval = tuning.getInt(Tunable.TIMER_CHECK_INTERVAL);
        this.longJobNanos = TimeUnit.MILLISECONDS.toNanos(tuning.get(Tunable.JFR_LONG_JOB_MILLIS));
        this.maxHelpDepth = tuning.getInt(Tunable.MAX_HELP_DEPTH);
        this.untilTimerCheck = timerCheckInterval;
        this.waitDeadline = NO_DEADLINE;
        // The registry sizes its worker array before it makes the workers.
        this.search = new SearchPolicy(this, registry);
        this.idle = new WorkerIdle(this, registry);
    }

    /**
     * Owner thread. Runs jobs until {@code latch} is set or {@code deadline} (a value of the pool's clock) passes;
     * returns whether the latch is set. Never idles while work is findable: local jobs first, then stealing, timers,
     * the injector, and only then the sleep protocol. In the top-level loop it also returns false, no longer
     * counted idle, once it has been idle for {@link #retireAfterNanos}: the runner then retires its thread.
     */
    boolean waitUntil(CoreLatch latch, long deadline) {
        return waitUntil(latch, deadline, NO_FLOOR);
    }

    /**
     * {@link #waitUntil(CoreLatch, long)} for a wait whose own jobs are the ones this worker pushed on its deque at
     * index {@code floor} and above (a scope's spawned jobs): past the help bound it still runs those, since they
     * are the wait's own subtree, and blocks only when none is left. {@link #NO_FLOOR}: no such jobs.
     */
    boolean waitUntil(CoreLatch latch, long deadline, long floor) {
        if (jobDepth > maxHelpDepth && !latch.probe()) {
            // Helping here would run a job on top of jobDepth others. A helped job may itself wait and help, so
            // without a bound the stack would grow with the number of jobs rather than with the depth of the
            // join tree (docs/sleep.md section 6.2, "The stack bound"): run only this wait's own jobs, then block,
            // while another thread keeps the pool's parallelism. Without one (a single-threaded pool, no blocking
            // threads left), help as usual: liveness first.
            Runnable own;
            while (!latch.probe() && (own = popAbove(floor)) != null) {
                runJob(own);
            }
            if (latch.probe()) {
                return true;
            }
            int blocked = awaitBlocked(latch, deadline);
            if (blocked >= 0) {
                return blocked == 1;
            }
        }
        long outerDeadline = waitDeadline;
        waitDeadline = deadline;
        try {
            outer:
            while (!latch.probe()) {
                if (passed(deadline)) {
                    return false;
                }
                Runnable job = takeOwnJob();
                if (job == null) {
                    job = search.takeBeforeIdling();
                }
                if (job != null) {
                    runJob(job);
                    continue;
                }
                IdleState spell = idle.enter();
                while (!latch.probe()) {
                    job = search.findWork(spell);
                    if (job != null) {
                        idle.leave(spell);
                        runJob(job);
                        continue outer;
                    }
                    if (passed(deadline) || idle.keepAliveEnded()) {
                        idle.leave(spell); // past the keep-alive: counted busy, the runner's retirement takes over
                        return latch.probe();
                    }
                    if (!search.holdOff(latch)) {
                        sleep.noWorkFound(spell, latch, idle);
                    }
                    // Readiness found while this worker slept: the sleep is over (the protocol counts it idle, not
                    // sleeping), so the resumed jobs go to its own deque, where the next search finds them.
                    io.awake(index);
                }
                idle.leave(spell);
                break;
            }
            return true;
        } finally {
            waitDeadline = outerDeadline;
        }
    }

    /** Whether {@code deadline}, a value of the pool's clock or {@link #NO_DEADLINE}, has passed. */
    private boolean passed(long deadline) {
        return deadline != NO_DEADLINE && clock.nanoTime() - deadline >= 0;
    }

    /**
     * Owner thread: this worker is busy from now on (running jobs, or back in the code that called into the
     * pool), until it next goes idle. Also called by a runner whose thread starts to drive the worker.
     */
    void busyStarts() {
        counters.busyStarts(System.nanoTime());
        timeJobs = events.longJobsEnabled();
    }

    /** Owner thread: this worker's thread leaves the pool (it retires, or a caller stops driving it). */
    void busyEnds() {
        counters.busyEnds(System.nanoTime());
    }

    /**
     * Owner thread. Pushes a job on this worker's deque ({@link WorkDeque#push}: the next local take, as a join's
     * second half needs) and tells the sleep strategy. Throws {@link RejectedExecutionException} if the deque is
     * full (the pool's queue capacity); nothing was queued then.
     */
    void push(Runnable job) {
        push(job, false);
    }

    /** {@link #push} into the next slot if it is empty ({@link WorkDeque#pushNext}): a resumed coroutine runs next. */
    void pushNext(Runnable job) {
        push(job, true);
    }

    private void push(Runnable job, boolean toNextSlot) {
        pushedSinceTake = true;
        boolean wasEmpty;
        try {
            wasEmpty = toNextSlot ? deque.pushNext(job) : deque.push(job);
        } catch (RejectedExecutionException e) {
            throw QueueBound.full(registry.name, job, "worker " + index + "'s deque", deque.capacity());
        }
        registry.newInternalJobs(1, wasEmpty);
    }

    /**
     * Owner thread. Pushes a job that must go behind this worker's queued jobs ({@link ForagePool#executeFair}):
     * the next local take is the oldest job instead of the newest, so a job that re-submits itself takes turns
     * with the others instead of running again at once.
     */
    void pushBehindOwnJobs(Runnable job) {
        push(job);
        search.takeOldestNext();
    }

    /**
     * Owner thread, in {@link #waitUntil}. The next job of this worker's own ({@link #takeLocalJob}), noting when
     * thieves took every job it pushed since its last take ({@code ownJobsTaken}, for the next idle spell).
     */
    Runnable takeOwnJob() {
        boolean pushed = pushedSinceTake;
        pushedSinceTake = false;
        Runnable job = takeLocalJob();
        if (job == null && pushed) {
            ownJobsTaken = true;
        }
        return job;
    }

    /**
     * Owner thread. The next job of this worker's own, by the search policy's take rule (LIFO inside a job, with
     * the fairness rule in the top-level loop: {@link SearchPolicy#takeLocalJob}), after the periodic checks.
     */
    Runnable takeLocalJob() {
        periodicChecks();
        return search.takeLocalJob(jobDepth);
    }

    /**
     * Owner thread: a join takes back its second half. A plain LIFO pop (Rayon's {@code join_context}): the job on
     * top is the join's own unless a thief took it or the first half left jobs of its own above it. Due timers
     * are still moved to the injector every {@link Tunable#TIMER_CHECK_INTERVAL} take-backs, so that they fire
     * while every worker is deep in a join tree.
     */
    Runnable takeBack() {
        if (--untilTimerCheck == 0) {
            timerCheck();
        }
        return deque.pop();
    }

    /** Owner thread: the newest job of this deque if it sits at index {@code floor} or above, else null. */
    private Runnable popAbove(long floor) {
        return floor != NO_FLOOR ? deque.popAbove(floor) : null;
    }

    /**
     * Whether the calling code runs in a job that this worker's top-level loop took (or in that loop itself), not
     * in one run by a wait inside another job, where takes are LIFO pops ({@link SearchPolicy#takeLocalJob}).
     */
    boolean inTopLevelJob() {
        return jobDepth <= 1;
    }

    /** Every {@link Tunable#TIMER_CHECK_INTERVAL} local takes the due timers; IO workers' selectors more often. */
    private void periodicChecks() {
        if (--untilTimerCheck == 0) {
            timerCheck();
        }
        if (--untilIoPoll == 0) {
            untilIoPoll = ioPollInterval;
            io.poll(index);
        }
    }

    private void timerCheck() {
        untilTimerCheck = timerCheckInterval;
        timers.fireDue();
        // A worker that never goes idle still notices a recording that starts or stops.
        timeJobs = events.longJobsEnabled();
    }

    /**
     * Owner thread, inside a job that would wait past {@link Tunable#MAX_HELP_DEPTH} nested jobs: waits for
     * {@code latch} without running jobs, as a blocking section, so that a stand-in thread keeps the pool's
     * parallelism and takes the jobs queued on this worker's deque. Returns 1 if the latch is set, 0 if the
     * deadline passed, and -1, without waiting, if no stand-in could be had: then the caller helps as usual.
     *
     * <p>Outside the sleep protocol, like a job that blocks: this worker is not counted idle or asleep, so no
     * poster counts on it and no post wakes it; only the latch's setter does, through the parker's latch-ended
     * park ({@link Parker#parkUntilSet}, pair D).
     */
    private int awaitBlocked(CoreLatch latch, long deadline) {
        if (!registry.runner.enterBlockingWithStandIn(this)) {
            return -1;
        }
        boolean interrupted = false;
        try {
            while (!latch.probe()) {
                long nanos = Parker.FOREVER;
                if (deadline != NO_DEADLINE) {
                    nanos = deadline - clock.nanoTime();
                    if (nanos <= 0L) {
                        return 0;
                    }
                }
                parker.parkUntilSet(latch, nanos, true);
                // An interrupt (shutdownNow) would end every park at once: keep it for the job that waits.
                interrupted |= Thread.interrupted();
            }
            return 1;
        } finally {
            registry.runner.exitBlocking(this);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Owner thread. Runs one job; a user exception goes to the pool's handler and never kills the worker. Whatever
     * escapes the job, or keeps it from starting, a job that somebody waits for is completed with it and its waiter
     * released ({@link WaitedJob}); when even that runs out of stack, a shallower {@code execute} finishes it.
     */
    void runJob(Runnable job) {
        // Every job starts with a clear interrupt status: one delivered while this worker was idle, or meant for
        // the job that ran before, is not this job's. One pending for an enclosing wait (a job waiting in join
        // runs other jobs meanwhile) is set again afterwards, for that wait.
        boolean pending = Thread.interrupted();
        // Jobs are timed only while a JFR recording wants long-job events: a plain read of our own copy of that
        // flag, so the usual path reads no clock. Kept in a local: a nested wait inside the job may refresh it.
        boolean timed = timeJobs;
        long start = timed ? System.nanoTime() : 0L;
        jobDepth++;
        try {
            job.run();
        } catch (Throwable t) {
            // No call in here: the stack may be exhausted, and field writes need none.
            if (job instanceof WaitedJob) {
                WaitedJob w = (WaitedJob) job;
                w.unsettledCause = t;
                w.nextUnsettled = unsettled;
                unsettled = w;
            } else if (unreportedCount < unreported.length) {
                unreported[unreportedCount++] = t;
            } else {
                registry.handleUncaught(Thread.currentThread(), t); // the list is full: report it now
            }
        }
        jobDepth--;
        if (unsettled != null || unreportedCount != 0) {
            settle(); // may run out of stack again: then the next execute up the stack settles
        }
        counters.jobRun();
        if (timed) {
            reportIfLong(job, System.nanoTime() - start);
        }
        // An interrupt meant for the job that just ran must not leak into the next one.
        Thread.interrupted();
        if (pending) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Completes the unsettled jobs and reports the unreported failures. A job leaves the list only after its
     * {@code abandon} returned, so a throwable here (the stack again) leaves it for a shallower frame.
     */
    private void settle() {
        WaitedJob w;
        while ((w = unsettled) != null) {
            if (!w.abandon(w.unsettledCause)) {
                registry.handleUncaught(Thread.currentThread(), w.unsettledCause);
            }
            unsettled = w.nextUnsettled;
            w.nextUnsettled = null;
            w.unsettledCause = null;
        }
        while (unreportedCount > 0) {
            Throwable t = unreported[unreportedCount - 1];
            registry.handleUncaught(Thread.currentThread(), t);
            unreported[--unreportedCount] = null;
        }
    }

    private void reportIfLong(Runnable job, long nanos) {
        if (nanos >= longJobNanos) {
            events.longJob(registry.name, index, job, nanos);
        }
    }

    @Override
    public String toString() {
        return "Worker[" + index + " of " + registry + "]";
    }
}
