package dev.forage;

import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker of a pool: its deque, its statistics, and the loop that runs jobs until a latch is set (Rayon's
 * {@code wait_until}). The loop runs on the worker's own thread only; the other methods
 * say which thread may call them.
 *
 * <p>The fields the owner writes on every job live in {@link WorkerOwnerState}, between two pads, so they never
 * share a cache line with the fields thieves read here ({@link #deque}) or with another object.
 */
final class Worker extends WorkerPad1 implements IdleContext {
    /** Set for threads made by a custom thread factory; {@link ForageThread}s are found by type. */
    private static final ThreadLocal<Worker> CUSTOM_THREAD_WORKER = new ThreadLocal<>();
    private static volatile boolean customThreadsExist;

    static final long NO_DEADLINE = Long.MAX_VALUE;
    /** {@link #waitUntil(CoreLatch, long, long)}: the wait has no jobs of its own on the deque. */
    static final long NO_FLOOR = Long.MAX_VALUE;

    final Registry registry;
    final int index;
    final WorkDeque deque;
    final WorkerCounters counters = new WorkerCounters();
    /** How this worker's thread blocks; the sleep protocol holds the same one. */
    final Parker parker;
    /** The pool's socket IO, told of this worker's idle rounds and busy stretches. */
    private final PoolIo io;

    private final Sleep sleep;
    private final Injector injector;
    private final PoolTimers timers;
    private final Clock clock;
    /** JDK Flight Recorder, or nothing: {@link PoolEvents#INSTANCE}. */
    private final PoolEvents events = PoolEvents.INSTANCE;
    /**
     * Per victim: the index of the lone job this worker last left in that victim's deque, and the search round
     * in which it did ({@link #stealFromOthers}). Owner thread only.
     */
    private final long[] leftLoneJobIndex;
    private final int[] leftLoneJobRound;
    /**
     * The thread of this worker while it waits for a latch outside the sleep protocol ({@link #awaitBlocked}), so
     * that the latch's setter can unpark it ({@link Registry#notifyWorkerLatchIsSet}); null otherwise.
     */
    volatile Thread latchBlockedThread;
    /**
     * Failures of plain jobs not yet reported to the handler because reporting them ran out of stack; owner only.
     * Written in a catch block without a call, so it needs no stack; reported by the next {@link #execute} that
     * returns. A handful is plenty: each frame that reports has more stack than the one that could not.
     */
    private final Throwable[] unreported = new Throwable[8];

    Worker(Registry registry, int index, Parker parker) {
        this.registry = registry;
        this.index = index;
        this.parker = parker;
        this.deque = new WorkDeque(registry.queueCapacity);
        this.io = registry.io;
        this.untilIoPoll = Tuning.IO_POLL_INTERVAL;
        this.sleep = registry.sleep;
        this.injector = registry.injector;
        this.timers = registry.timers;
        this.clock = registry.clock;
        // Any odd, distinct seed works for xorshift; mixing the index spreads the workers' first victims.
        this.random = (index + 1) * 0x9E3779B97F4A7C15L | 1L;
        this.untilFairnessCheck = registry.fairnessInterval;
        this.untilTimerCheck = Tuning.TIMER_CHECK_INTERVAL;
        this.waitDeadline = NO_DEADLINE;
        // The registry sizes its worker array before it makes the workers.
        this.leftLoneJobIndex = new long[registry.workers.length];
        Arrays.fill(leftLoneJobIndex, -1L);
        this.leftLoneJobRound = new int[registry.workers.length];
    }

    /** The worker running on the calling thread, of any pool, or null. */
    static Worker current() {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            return ((ForageThread) t).worker;
        }
        return customThreadsExist ? CUSTOM_THREAD_WORKER.get() : null;
    }

    /**
     * Makes {@code w} the calling thread's worker (what {@link #current()} returns) and returns the previous one,
     * for {@link #unbind}. Used while a thread drives a single-threaded pool ({@link CallerRunner}).
     */
    static Worker bind(Worker w) {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            ForageThread ft = (ForageThread) t;
            Worker previous = ft.worker;
            ft.worker = w;
            return previous;
        }
        customThreadsExist = true;
        Worker previous = CUSTOM_THREAD_WORKER.get();
        CUSTOM_THREAD_WORKER.set(w);
        return previous;
    }

    /** Restores the binding that {@link #bind} returned. */
    static void unbind(Worker previous) {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            ((ForageThread) t).worker = previous;
        } else if (previous == null) {
            CUSTOM_THREAD_WORKER.remove();
        } else {
            CUSTOM_THREAD_WORKER.set(previous);
        }
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
        if (jobDepth > registry.maxHelpDepth && !latch.probe()) {
            // Helping here would run a job on top of jobDepth others. A helped job may itself wait and help, so
            // without a bound the stack would grow with the number of jobs rather than with the depth of the
            // join tree (docs/sleep.md section 6.2, "The stack bound"): run only this wait's own jobs, then block,
            // while another thread keeps the pool's parallelism. Without one (a single-threaded pool, no blocking
            // threads left), help as usual: liveness first.
            Runnable own;
            while (!latch.probe() && (own = popAbove(floor)) != null) {
                execute(own);
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
                if (deadline != NO_DEADLINE && clock.nanoTime() - deadline >= 0) {
                    return false;
                }
                Runnable job = takeOwnJob();
                if (job == null) {
                    job = takeBeforeIdling();
                }
                if (job != null) {
                    execute(job);
                    continue;
                }
                IdleState idle = enterIdle();
                // Drained two or more outside jobs: the submitter is likely between two pushes, and sleeping now
                // would make its next push pay our wake-up (docs/sleep.md section 3.8).
                int streamRounds = injectedThisSpell >= 2 ? Tuning.INJECTED_STREAM_ROUNDS : 0;
                injectedThisSpell = 0;
                if (ownJobsTaken) {
                    // A neighbour took the jobs we pushed, perhaps ones we would have popped ourselves (a chain,
                    // a ping-pong that moved to it): our first sleep attempt lets it show that by posting
                    // (docs/sleep.md section 3.7).
                    ownJobsTaken = false;
                    idle.ownJobsTaken();
                }
                while (!latch.probe()) {
                    // A worker just woken takes a lone job at once: it may have been woken for exactly that
                    // job, by a pusher about to block or spin, perhaps onto the pusher's own CPU, where a
                    // yield would hand the CPU back to the pusher for the rest of its time slice
                    // (docs/sleep.md section 4.6). It also looks at the injector before the other deques: an
                    // outside submission is the one wake-up whose job is not in a deque, and on a machine where
                    // the sleep left our caches cold, every deque probed first cost a miss or two (section 4.7).
                    boolean justWoken = idle.justWoken();
                    job = findWork(!justWoken, justWoken, idle.takeHint());
                    if (job != null) {
                        leaveIdle(idle);
                        execute(job);
                        continue outer;
                    }
                    if (deadline != NO_DEADLINE && clock.nanoTime() - deadline >= 0) {
                        leaveIdle(idle);
                        return latch.probe();
                    }
                    if (keepAliveEnded()) {
                        leaveIdle(idle); // counted busy from here: the runner's retirement takes over
                        return latch.probe();
                    }
                    if (leftLoneJob) {
                        // We left a neighbour's only job to its owner. Never sleep on it: the next round takes
                        // it if it is still there. Beside a producer, a pause first, so that this worker falls
                        // behind it instead of taking each job as it is pushed; otherwise one yield, which is
                        // all a chain's owner needs to pop its job (docs/sleep.md section 4.6).
                        if (leftJobFoundUnderMore) {
                            sleep.leftLoneJob(idle, latch);
                        } else {
                            Thread.yield();
                        }
                    } else if (streamRounds > 0) {
                        // Counted idle meanwhile, so the submitter's next push wakes nobody; the yield lets it run
                        // if it shares our CPU. Speed only: the strategy's first noWorkFound comes a few failed
                        // searches later, and every strategy's proof holds for any number of those.
                        streamRounds--;
                        Thread.yield();
                    } else {
                        sleep.noWorkFound(idle, latch, this);
                    }
                    // Readiness found while this worker slept: the sleep is over (the protocol counts it idle, not
                    // sleeping), so the resumed jobs go to its own deque, where the next search finds them.
                    io.awake(index);
                    searchRound++;
                }
                leaveIdle(idle);
                break;
            }
            return true;
        } finally {
            waitDeadline = outerDeadline;
        }
    }

    /**
     * Owner thread. One look at the other deques and at the injector before counting this worker idle (Rayon
     * goes idle first). A worker that lives on stolen or injected jobs (a stream of outside submissions, a
     * neighbour that keeps spawning, a coroutine that yields) then runs them without two read-modify-writes of
     * the sleep counters per job, a word that every post reads. Safe for the sleep protocol: a worker that is
     * not counted idle is one that no poster counts on, so at worst a poster wakes a sleeper it did not need.
     */
    private Runnable takeBeforeIdling() {
        Runnable job = stealFromOthers(true);
        return job != null ? job : pollInjector();
    }

    /**
     * Every entry into the idle state: the busy spell that began when this worker last left it ends here
     * ({@code docs/observability.md}, "Busy time"), then the sleep strategy's "start looking" event.
     */
    private IdleState enterIdle() {
        long now = System.nanoTime();
        idleSince = now;
        counters.busyEnds(now);
        return sleep.startLooking(index);
    }

    /** In the top-level loop of a worker whose thread may retire. */
    private boolean mayRetire() {
        return retireAfterNanos > 0 && jobDepth == 0;
    }

    /**
     * Owner, idle in the top-level loop: whether the keep-alive has passed with nothing to do, so the thread may
     * retire. Not while a timer is pending, which needs a worker to fire it: then another keep-alive begins (a
     * timer scheduled after the last thread retired brings one back, as any post does).
     */
    private boolean keepAliveEnded() {
        if (!mayRetire()) {
            return false;
        }
        long now = System.nanoTime();
        if (now - idleSince < retireAfterNanos) {
            return false;
        }
        if (!timers.isEmpty()) {
            idleSince = now;
            return false;
        }
        return true;
    }

    /**
     * Every exit from the idle state: the sleep strategy's "work found" event, and the timer watch goes to a
     * sleeper, because this worker is about to run user code (or return to its caller) and cannot watch. A busy
     * spell begins, and the worker looks again whether a recording wants long jobs timed.
     */
    private void leaveIdle(IdleState idle) {
        sleep.workFound(idle);
        timers.handOverWatch(index);
        busyStarts();
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
     * Owner thread. Pushes a job on this worker's deque and tells the sleep strategy.
     *
     * @throws RejectedExecutionException if the deque is full (the pool's queue capacity); nothing was queued
     */
    void push(Runnable job) {
        pushedSinceTake = true;
        boolean wasEmpty;
        try {
            wasEmpty = deque.push(job);
        } catch (RejectedExecutionException e) {
            throw registry.queueFull(job, "worker " + index + "'s deque", deque.capacity());
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
        takeOldestNext = true;
    }

    /**
     * Owner thread, in {@link #waitUntil}. The next job of this worker's own ({@link #takeLocalJob}), noting when it
     * finds nothing although this worker pushed since its last take: thieves took every job it pushed
     * ({@code ownJobsTaken}, for the next idle spell).
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
     * Owner thread. The next job of this worker's own. Inside a job (a wait that helps) always the newest: a
     * plain LIFO pop, as Rayon's {@code wait_until}. In the top-level loop, normally the newest too, but after
     * {@link #pushBehindOwnJobs} the oldest, and every {@link Tuning#FAIRNESS_INTERVAL} jobs the injector's oldest
     * and then this deque's oldest come first, so neither starves behind a stream of new local jobs.
     *
     * <p>The fairness rule lives only at the top level because an old job is a large one: near the root of its
     * join tree, or a whole outside submission. Taken inside a wait, it would run on top of the waiting frames, and
     * a wait inside it would do the same again, so the stack would grow with the number of jobs run rather than
     * with the depth of the tree. At the top level nothing lies beneath it, and the top level is where every
     * worker returns between jobs, so the rule still bounds how long the oldest jobs wait.
     */
    Runnable takeLocalJob() {
        periodicChecks();
        if (jobDepth > 0) {
            return deque.pop();
        }
        if (--untilFairnessCheck == 0) {
            untilFairnessCheck = registry.fairnessInterval;
            Runnable job = pollInjector();
            if (job != null) {
                return job;
            }
            takeOldestNext = true;
        }
        if (takeOldestNext) {
            takeOldestNext = false;
            Runnable job = deque.steal(); // our own oldest job; RETRY means a thief took it: fall back to pop
            if (job != null && job != WorkDeque.RETRY) {
                return job;
            }
        }
        return deque.pop();
    }

    /**
     * Owner thread: a join takes back its second half. A plain LIFO pop (Rayon's {@code join_context}): the job on
     * top is the join's own unless a thief took it or the first half left jobs of its own above it. Due timers
     * are still moved to the injector every {@link Tuning#TIMER_CHECK_INTERVAL} take-backs, so that they fire
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
        return floor != NO_FLOOR && deque.bottomIndex() > floor ? deque.pop() : null;
    }

    /**
     * Whether the calling code runs in a job that this worker's top-level loop took (or in that loop itself), not
     * in one run by a wait inside another job, where takes are LIFO pops ({@link #takeLocalJob}).
     */
    boolean inTopLevelJob() {
        return jobDepth <= 1;
    }

    /** Every {@link Tuning#TIMER_CHECK_INTERVAL} local takes the due timers; IO workers' selectors more often. */
    private void periodicChecks() {
        if (--untilTimerCheck == 0) {
            timerCheck();
        }
        if (--untilIoPoll == 0) {
            untilIoPoll = Tuning.IO_POLL_INTERVAL;
            io.poll(index);
        }
    }

    private void timerCheck() {
        untilTimerCheck = Tuning.TIMER_CHECK_INTERVAL;
        timers.fireDue();
        // A worker that never goes idle still notices a recording that starts or stops.
        timeJobs = events.longJobsEnabled();
    }

    /**
     * Owner thread, inside a job that would wait past {@link Tuning#MAX_HELP_DEPTH} nested jobs: waits for
     * {@code latch} without running jobs, as a blocking section, so that a stand-in thread keeps the pool's
     * parallelism and takes the jobs queued on this worker's deque. Returns 1 if the latch is set, 0 if the
     * deadline passed, and -1, without waiting, if no stand-in could be had: then the caller helps as usual.
     *
     * <p>Outside the sleep protocol, like a job that blocks: this worker is not counted idle or asleep, so no
     * poster counts on it and no post wakes it; only the latch's setter does. It publishes its thread before the
     * latch's SLEEPING state, and a setter that swaps in SET and saw SLEEPING reads the thread after
     * ({@link Registry#notifyWorkerLatchIsSet}); volatile accesses are totally ordered, so either the CAS to
     * SLEEPING fails or the setter unparks this thread.
     */
    private int awaitBlocked(CoreLatch latch, long deadline) {
        if (!registry.runner.enterBlockingWithStandIn(this)) {
            return -1;
        }
        boolean interrupted = false;
        latchBlockedThread = Thread.currentThread();
        try {
            while (!latch.probe()) {
                long nanos = deadline == NO_DEADLINE ? 0L : deadline - clock.nanoTime();
                if (deadline != NO_DEADLINE && nanos <= 0L) {
                    return 0;
                }
                if (!latch.getSleepy()) {
                    break; // SET
                }
                if (latch.fallAsleep()) {
                    if (deadline == NO_DEADLINE) {
                        LockSupport.park(latch);
                    } else {
                        LockSupport.parkNanos(latch, nanos);
                    }
                    latch.wakeUp();
                }
                // An interrupt (shutdownNow) would end every park at once: keep it for the job that waits.
                interrupted |= Thread.interrupted();
            }
            return 1;
        } finally {
            latchBlockedThread = null;
            registry.runner.exitBlocking(this);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Owner thread. A full search: own deque, where a wake-up {@code hint} points (EMPER's, see
     * {@link IdleState#hint}), every other worker from a random start, timers, injector; with
     * {@code injectorFirst}, the injector right after the own deque too.
     */
    Runnable findWork(boolean mayLeaveLoneJobs, boolean injectorFirst, int hint) {
        Runnable job = deque.pop();
        if (job != null) {
            return job;
        }
        if (injectorFirst) {
            job = pollInjector();
            if (job != null) {
                return job;
            }
        }
        if (hint != IdleState.NO_HINT) {
            job = takeHintedJob(hint);
            if (job != null) {
                return job;
            }
        }
        job = stealFromOthers(mayLeaveLoneJobs);
        if (job != null) {
            return job;
        }
        timers.fireDue();
        return pollInjector(); // also after an injector-first look: due timers are queued on the injector
    }

    /** Where the hint points: the worker whose deque got the new job, or the injector. */
    private Runnable takeHintedJob(int hint) {
        if (hint == IdleState.HINT_INJECTOR) {
            return pollInjector();
        }
        Worker[] all = registry.workers;
        if (hint < 0 || hint >= all.length || hint == index) {
            return null;
        }
        Runnable job;
        do {
            job = all[hint].deque.steal();
        } while (job == WorkDeque.RETRY);
        if (job != null) {
            counters.steal();
        }
        return job;
    }

    private Runnable pollInjector() {
        Runnable job = injector.poll();
        if (job != null) {
            counters.injectedJobTaken();
            injectedThisSpell++;
        }
        return job;
    }

    /**
     * Owner thread. One job stolen from another worker, or null. With {@code mayLeaveLoneJobs}, a deque that
     * holds exactly one job is skipped unless this worker already saw that same job there in an earlier search
     * round: a worker that pushes one job and goes on to pop it (a chain of jobs, a ping-pong of two
     * coroutines) keeps it, instead of the job moving to another core on every hand-off. A job whose owner is
     * busy or blocked waits at most one round: the caller yields or pauses instead of sleeping after leaving one.
     */
    Runnable stealFromOthers(boolean mayLeaveLoneJobs) {
        leftLoneJob = false;
        Worker[] workers = registry.workers;
        int n = registry.slotsInUse; // the extra slots that were never used hold no jobs
        if (n <= 1) {
            return null;
        }
        int start = nextVictim(n);
        while (true) {
            boolean retry = false;
            for (int i = 0; i < n; i++) {
                int victim = start + i;
                if (victim >= n) {
                    victim -= n;
                }
                if (victim == index) {
                    continue;
                }
                WorkDeque d = workers[victim].deque;
                if (mayLeaveLoneJobs && passOver(victim, d)) {
                    continue;
                }
                Runnable job = d.steal();
                if (job == WorkDeque.RETRY) {
                    retry = true;
                } else if (job != null) {
                    counters.steal();
                    return job;
                }
            }
            if (!retry) {
                return null;
            }
        }
    }

    /**
     * Whether to leave {@code victim}'s deque alone this round: it is empty (from the same snapshot, so a steal
     * does not read {@code top} and {@code bottom} again to find that out), or it holds one job that this worker
     * has not seen there in an earlier round. Remembers the sighting.
     */
    private boolean passOver(int victim, WorkDeque d) {
        long lone = d.loneJobIndex();
        long left = leftLoneJobIndex[victim];
        if (left >= 0 && lone != left) {
            // The job we left here is gone (its owner popped it: a chain) or has company. Still the oldest of
            // several means its owner pushed more instead of popping it: a producer, beside which the next
            // lone job we leave is followed by a pause (waitUntil). One verdict per job left.
            leftJobFoundUnderMore = lone == WorkDeque.SEVERAL_JOBS && d.oldestIndex() == left;
            leftLoneJobIndex[victim] = -1L;
        }
        if (lone == WorkDeque.NO_JOBS) {
            return true;
        }
        if (lone == WorkDeque.SEVERAL_JOBS) {
            return false;
        }
        if (left == lone && leftLoneJobRound[victim] != searchRound) {
            // It waited a whole round: its owner is busy elsewhere, take it. No verdict: a producer slower than
            // our round looks the same as an owner busy with something else. Forgotten, so that the next look
            // does not read this job's absence as its owner's pop.
            leftLoneJobIndex[victim] = -1L;
            return false;
        }
        leftLoneJobIndex[victim] = lone;
        leftLoneJobRound[victim] = searchRound;
        leftLoneJob = true;
        return true;
    }

    private int nextVictim(int n) {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int) ((x >>> 33) % n);
    }

    /**
     * Owner thread. Runs one job; a user exception goes to the pool's handler and never kills the worker. Whatever
     * escapes the job, or keeps it from starting, a job that somebody waits for is completed with it and its waiter
     * released ({@link WaitedJob}); when even that runs out of stack, a shallower {@code execute} finishes it.
     */
    void execute(Runnable job) {
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
        if (nanos >= events.longJobNanos()) {
            events.longJob(registry.name, index, job, nanos);
        }
    }

    // IdleContext: called by the sleep strategy on this worker's thread.

    @Override
    public void wakeupWithoutWork() {
        counters.wakeupWithoutWork();
        events.wakeupWithoutWork(registry.name, index);
    }

    @Override
    public boolean hasQueuedJobs() {
        return registry.hasQueuedJobs();
    }

    @Override
    public long parkNanos() {
        long nanos = timers.watchNanos(index); // Parker.FOREVER == PARK_FOREVER when not watching
        if (waitDeadline != NO_DEADLINE) {
            nanos = Math.min(nanos, Math.max(waitDeadline - clock.nanoTime(), 0L));
        }
        if (nanos == PARK_FOREVER && mayRetire()) {
            // A sleep past the keep-alive ends by itself, as on a deadline; the loop then retires the thread.
            nanos = Math.max(idleSince + retireAfterNanos - System.nanoTime(), 0L);
        }
        return nanos;
    }

    @Override
    public WorkerCounters counters() {
        return counters;
    }

    @Override
    public String toString() {
        return "Worker[" + index + " of " + registry + "]";
    }
}
