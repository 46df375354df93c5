package dev.forage;

import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One worker of a pool, its whole life in one class: its deque, the loop that runs jobs until a latch is set
 * (Rayon's {@code wait_until}), where it looks for work and what it does between failed searches, its idle spells
 * as the sleep protocol sees them ({@link IdleContext}), how it runs a job, and the stack bound. How a thread comes
 * to run it is the runner's ({@link Runner}): a thread of its own, or the caller's in the caller-runs mode. The
 * loop and everything it calls run on the worker's own thread only; the other methods say which thread may call
 * them.
 *
 * <p>Read top to bottom: which worker the calling thread is ({@link #current()}); the loop ({@link #waitUntil}); the
 * owner's pushes and takes; the search (the heuristics of {@code docs/sleep.md} sections 3.8, 3.9, 4.6, 4.7 and 8);
 * idle spells and the keep-alive; running a job; the stack bound. Whether a worker sleeps is the pool's
 * {@link Sleep} protocol's, never this class's: the search rules are for speed only, and the protocol's proofs in
 * {@code docs/sleep.md} never look at them. They change what a search takes first and when the next search comes,
 * never what the protocol's final check (S4) or hand-off rule (E2) sees.
 *
 * <p>Every field the owner writes on every job or search lives in {@link WorkerOwnerState}, between two pads, so
 * that those writes never share a cache line with what thieves read here ({@link #deque}) or with another object.
 */
final class Worker extends WorkerPad1 implements IdleContext, Sleep.PushedTo {
    static final long NO_DEADLINE = Long.MAX_VALUE;
    /** {@link #waitUntil(CoreLatch, long, long)}: the wait has no jobs of its own on the deque. */
    static final long NO_FLOOR = Long.MAX_VALUE;

    final Registry registry;
    final int index;
    final WorkDeque deque;
    final WorkerStatistics counters = new WorkerStatistics();
    /** How this worker's thread blocks; the sleep protocol holds the same one. */
    final Parker parker;

    private final Injector injector;
    private final Sleep sleep;
    private final PoolTimers timers;
    private final Runner runner;
    private final PoolWatch monitor;
    /** The pool's socket IO, told of this worker's idle rounds and busy stretches. */
    private final PoolIo io;
    private final Clock clock;
    /** JDK Flight Recorder, or nothing: {@link PoolEvents#INSTANCE}. */
    private final PoolEvents events = PoolEvents.INSTANCE;

    // This pool's tunables, copied when the worker is made.
    /** {@link Tunable#TIMER_CHECK_INTERVAL}. */
    private final int timerCheckInterval;
    /** JFR's long-job threshold. */
    private final long longJobNanos;
    /** {@link Tunable#IO_POLL_INTERVAL}; practically never without IO workers. */
    private final int ioPollInterval;
    /** {@link Tunable#MAX_HELP_DEPTH}: where a wait stops helping. */
    private final int maxHelpDepth;
    /** {@link Tunable#FAIRNESS_INTERVAL}. */
    private final int fairnessInterval;
    /** {@link Tunable#INJECTED_STREAM_ROUNDS}. */
    private final int injectedStreamRounds;
    /** The lone-job pause; 0: a yield instead (the lock-based baselines, or the tunable set to 0). */
    private final long loneJobPauseNanos;
    /** The most jobs one batch from the injector takes ({@link Tunable#INJECTOR_BATCH}); 1: no batches. */
    private final int batchMax;

    /** Where a batch from the injector lands on its way to the deque; cleared at once, so it keeps no job reachable. */
    private final Runnable[] batch;
    /**
     * Per victim: the index of the lone job this worker last left in that victim's deque, and the search round
     * in which it did ({@link #passOver}).
     */
    private final long[] leftLoneJobIndex;
    private final int[] leftLoneJobRound;
    /**
     * Per victim: its next-slot tag when this worker left the lone job ({@link WorkDeque#nextSlotTag}). A job in the
     * slot keeps its index when the owner takes it and puts another, so the index alone cannot tell them apart.
     */
    private final int[] leftLoneJobTag;
    /**
     * Failures of plain jobs not yet reported to the handler because reporting them ran out of stack; owner only.
     * Written in a catch block without a call, so it needs no stack; reported by the next {@link #runJob} that
     * returns. A handful is plenty: each frame that reports has more stack than the one that could not.
     */
    private final Throwable[] unreported = new Throwable[8];

    /**
     * Worker {@code index} of {@code registry}, which has made its queues, sleep protocol, timers, runner and
     * monitor; {@code parker} is the slot's, held by the protocol too; {@code slots}, how many workers the pool has.
     */
    Worker(Registry registry, int index, Parker parker, int dequeCapacity, int slots) {
        this.registry = registry;
        this.index = index;
        this.parker = parker;
        this.deque = new WorkDeque(dequeCapacity);
        this.injector = registry.injector;
        this.sleep = registry.sleep;
        this.timers = registry.timers;
        this.runner = registry.runner;
        this.monitor = registry.monitor;
        this.io = registry.io;
        this.clock = registry.clock;
        Tuning tuning = registry.tuning;
        this.timerCheckInterval = tuning.getInt(Tunable.TIMER_CHECK_INTERVAL);
        this.longJobNanos = TimeUnit.MILLISECONDS.toNanos(tuning.get(Tunable.JFR_LONG_JOB_MILLIS));
        // Without a selector of its own (no IO workers, or a stand-in's slot) this worker has nothing to look at: the
        // countdown practically never reaches the empty poll, and an idle round's pause yields.
        this.ioPollInterval = io.ownsSelector(index) ? tuning.getInt(Tunable.IO_POLL_INTERVAL) : Integer.MAX_VALUE;
        this.maxHelpDepth = tuning.getInt(Tunable.MAX_HELP_DEPTH);
        this.fairnessInterval = tuning.getInt(Tunable.FAIRNESS_INTERVAL);
        this.injectedStreamRounds = tuning.getInt(Tunable.INJECTED_STREAM_ROUNDS);
        this.loneJobPauseNanos = registry.pausesBesideProducers ? tuning.get(Tunable.LONE_JOB_PAUSE_NANOS) : 0L;
        this.batchMax = tuning.getInt(Tunable.INJECTOR_BATCH);
        this.batch = new Runnable[batchMax];
        this.leftLoneJobIndex = new long[slots];
        Arrays.fill(leftLoneJobIndex, -1L);
        this.leftLoneJobRound = new int[slots];
        this.leftLoneJobTag = new int[slots];
        this.untilTimerCheck = timerCheckInterval;
        this.untilIoPoll = ioPollInterval;
        this.untilFairnessCheck = fairnessInterval;
        this.waitDeadline = NO_DEADLINE;
        // Any odd, distinct seed works for xorshift; mixing the index spreads the workers' first victims.
        this.random = (index + 1) * 0x9E3779B97F4A7C15L | 1L;
    }

    // Which worker is the calling thread (Rayon's WorkerThread::current).

    /**
     * The thread class of a pool built without a custom thread factory: knowing the class lets {@link #current()}
     * find the running worker with one type check instead of a thread-local lookup.
     */
    static final class PoolThread extends Thread {
        /** Replaced while this thread drives a single-threaded pool ({@link #bind}); this thread only. */
        Worker worker;

        PoolThread(Runnable main, Worker worker, String name) {
            super(main, name);
            this.worker = worker;
        }
    }

    /** Set for threads made by a custom thread factory; {@link PoolThread}s are found by type. */
    private static final ThreadLocal<Worker> CUSTOM_THREAD_WORKER = new ThreadLocal<>();
    private static volatile boolean customThreadsExist;

    /** The worker running on the calling thread, of any pool, or null. */
    static Worker current() {
        Thread t = Thread.currentThread();
        if (t instanceof PoolThread) {
            return ((PoolThread) t).worker;
        }
        return customThreadsExist ? CUSTOM_THREAD_WORKER.get() : null;
    }

    /**
     * Makes {@code w} the calling thread's worker (what {@link #current()} returns) and returns the previous one,
     * for {@link #unbind}: a worker's thread as it starts, a thread while it drives a single-threaded pool.
     */
    static Worker bind(Worker w) {
        Thread t = Thread.currentThread();
        if (t instanceof PoolThread) {
            PoolThread pt = (PoolThread) t;
            Worker previous = pt.worker;
            pt.worker = w;
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
        if (t instanceof PoolThread) {
            ((PoolThread) t).worker = previous;
        } else if (previous == null) {
            CUSTOM_THREAD_WORKER.remove();
        } else {
            CUSTOM_THREAD_WORKER.set(previous);
        }
    }


    // The loop.


    /**
     * Owner thread. Runs jobs until {@code latch} is set or {@code deadline} (a value of the pool's clock) passes;
     * returns whether the latch is set. Never idles while work is findable: local jobs first, then stealing, timers,
     * the injector, and only then the sleep protocol. In the top-level loop it also returns false, no longer
     * counted idle, once it has been idle for its keep-alive ({@code retireAfterNanos}): its thread then retires.
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
            int result = AGAIN;
            while (result == AGAIN) {
                result = latch.probe() ? SET : turn(latch, deadline);
            }
            return result == SET;
        } finally {
            waitDeadline = outerDeadline;
        }
    }

    /** {@link #turn}: go on with the loop. */
    private static final int AGAIN = 0;
    /** {@link #turn}: the wait ends, its latch set. */
    private static final int SET = 1;
    /** {@link #turn}: the wait ends with its latch not set (its deadline or the keep-alive passed). */
    private static final int NOT_SET = 2;

    /**
     * One turn of {@link #waitUntil}'s loop: one job, local or found by an idle spell. A method of its own, like
     * {@link #idleSpell}, so that the JIT compiles it once it has run a few thousand times: a worker enters its
     * top-level loop once, and the JVM compiles a loop that it entered once only when its back-edges pass a
     * threshold (on-stack replacement, tens of thousands), so a body written inside the loop would run interpreted
     * around every wake-up of a pool that wakes a few thousand times ({@code docs/sleep.md} section 6).
     */
    private int turn(CoreLatch latch, long deadline) {
        if (passed(deadline)) {
            return NOT_SET;
        }
        Runnable job = takeOwnJob();
        if (job == null) {
            job = takeBeforeIdling();
        }
        if (job == null) {
            job = idleSpell(latch, deadline);
            if (job == null) {
                return latch.probe() ? SET : NOT_SET;
            }
        }
        runJob(job);
        return AGAIN;
    }

    /**
     * An idle spell of {@link #waitUntil}: searches, and between failed searches waits as the sleep protocol says,
     * until it finds a job (returned), the latch is set or the deadline or keep-alive passes (null). Either way the
     * worker has left the idle state.
     */
    private Runnable idleSpell(CoreLatch latch, long deadline) {
        IdleState spell = enterIdle();
        while (!latch.probe()) {
            Runnable job = findWork(spell);
            if (job != null) {
                leaveIdle(spell);
                return job;
            }
            if (passed(deadline) || keepAliveEnded()) {
                leaveIdle(spell); // past the keep-alive: counted busy, the runner's retirement takes over
                return null;
            }
            if (!holdOff(latch)) {
                sleep.noWorkFound(spell, latch, this);
            }
            // Readiness found while this worker slept: the sleep is over (the protocol counts it idle, not
            // sleeping), so the resumed jobs go to its own deque, where the next search finds them.
            io.awake(index);
        }
        leaveIdle(spell);
        return null;
    }

    /** Whether {@code deadline}, a value of the pool's clock or {@link #NO_DEADLINE}, has passed. */
    private boolean passed(long deadline) {
        return deadline != NO_DEADLINE && clock.nanoTime() - deadline >= 0;
    }

    /**
     * Owner thread: this worker is busy from now on (running jobs, or back in the code that called into the
    // The owner's pushes and takes.

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
     * second half needs) and posts it. Throws {@link RejectedExecutionException} if the deque is full (the pool's
     * queue capacity); nothing was queued then.
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
        try {
            if (toNextSlot) {
                deque.pushNext(job);
            } else {
                deque.push(job);
            }
        } catch (RejectedExecutionException e) {
            throw QueueBound.full(registry.name, job, "worker " + index + "'s deque", deque.capacity());
        }
        registry.newInternalJob(this);
    }

    /** Owner thread, right after a push: the post's "was the queue empty", asked only if it matters. */
    @Override
    public boolean heldNoOtherJob() {
        return deque.heldNoOtherJob();
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

    /** Owner thread. The next job of this worker's own by {@link #takeLocalJob(int)}'s rule, after periodic checks. */
    Runnable takeLocalJob() {
        periodicChecks();
        return takeLocalJob(jobDepth);
    }

    /**
     * The next job of the worker's own. Inside a job ({@code jobDepth > 0}, a wait that helps) always the newest:
     * a plain LIFO pop, as Rayon's {@code wait_until}. In the top-level loop, normally the newest too, but while a
     * batch taken from the injector is left its oldest job ({@link #takeOldestOfBatch}), after {@code executeFair}
     * the oldest, and every {@link Tunable#FAIRNESS_INTERVAL} jobs the injector's oldest and then this deque's oldest
     * come first, so neither starves behind a stream of new local jobs ({@code docs/sleep.md} section 8).
     *
     * <p>The fairness rule lives only at the top level because an old job is a large one: near the root of its
     * join tree, or a whole outside submission. Taken inside a wait, it would run on top of the waiting frames, and
     * a wait inside it would do the same again, so the stack would grow with the number of jobs run rather than
     * with the depth of the tree. At the top level nothing lies beneath it, and the top level is where every
     * worker returns between jobs, so the rule still bounds how long the oldest jobs wait.
     */
    Runnable takeLocalJob(int jobDepth) {
        if (jobDepth > 0) {
            return deque.pop();
        }
        if (batchEnd != 0) {
            // The batch's jobs are the oldest outside jobs: before the injector's, and taken in their order, so the
            // fairness rule below has nothing to do until the batch is gone.
            Runnable job = takeOldestOfBatch();
            if (job != null) {
                return job;
            }
        }
        if (--untilFairnessCheck == 0) {
            untilFairnessCheck = fairnessInterval;
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
     * in one run by a wait inside another job, where takes are LIFO pops ({@link #takeLocalJob(int)}).
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
            pollIo();
        }
    }

    /** A look at this worker's selector, which starts the countdown to the next one again. */
    private void pollIo() {
        untilIoPoll = ioPollInterval;
        io.poll(index);
    }

    private void timerCheck() {
        untilTimerCheck = timerCheckInterval;
        timers.fireDue();
        // A worker that never goes idle still notices a recording that starts or stops.
        timeJobs = events.longJobsEnabled();
    }

    // The search (docs/sleep.md sections 3.8, 4.6, 4.7).

    /**
     * One look at the injector, then at the other deques, before counting this worker idle (Rayon goes idle
     * first). The injector first: a worker that finished a batch takes the next one instead of splitting its
     * neighbour's (section 3.9). A worker that lives on stolen or injected jobs (a stream of outside submissions,
     * a neighbour that keeps spawning, a coroutine that yields) then runs them without two read-modify-writes of
     * the sleep counters per job, a word that every post reads. Safe for the sleep protocol: a worker that is not
     * counted idle is one that no poster counts on, so at worst a poster wakes a sleeper it did not need.
     *
     * <p>An IO worker looks at its own selector before it steals, when a neighbour holds jobs (with none, there is
     * nothing to prefer its channels to, and the idle spell's rounds look at the selector anyway): a connection's
     * work then stays with the worker that owns it, as a Netty event loop serves its own channels, where stealing
     * first ran a neighbour's resumed coroutines here while this worker's own ready connections waited for its next
     * look. Each steal moves a connection's buffers and coroutine to another core and, at its next wait, back
     * ({@code docs/io.md}, "Ownership").
     */
    Runnable takeBeforeIdling() {
        Runnable job = pollInjector();
        if (job != null) {
            return job;
        }
        if (ioPollInterval != Integer.MAX_VALUE && othersHaveJobs()) {
            pollIo();
            job = takeLocalJob(jobDepth);
            if (job != null) {
                return job;
            }
        }
        return stealFromOthers(true);
    }

    /** Whether another worker's deque holds a job (a snapshot of each: no steal is attempted). */
    private boolean othersHaveJobs() {
        Worker[] workers = registry.workers;
        int n = registry.slotsInUse;
        for (int i = 0; i < n; i++) {
            if (i != index && !workers[i].deque.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * An idle spell begins (after the protocol's {@code startLooking}). A worker that drained two or more
     * outside jobs since its last spell starts with the stream rounds: the submitter is likely between two
     * pushes, and sleeping now would make its next push pay our wake-up (section 3.8).
     */
    void startSpell() {
        streamRoundsLeft = injectedThisSpell >= 2 ? injectedStreamRounds : 0;
        injectedThisSpell = 0;
    }

    /**
     * One full search of an idle worker ({@link #startSpell} came first). A worker just woken takes a lone job at
     * once: it may have been woken for exactly that job, by a pusher about to block or spin, perhaps onto the
     * pusher's own CPU, where a yield would hand the CPU back to the pusher for the rest of its time slice
     * (section 4.6). It also looks at the injector before the other deques: an outside submission is the one
     * wake-up whose job is not in a deque, and on a machine where the sleep left our caches cold, every deque
     * probed first cost a miss or two (section 4.7).
     */
    Runnable findWork(IdleState idle) {
        boolean justWoken = idle.justWoken();
        return search(!justWoken, justWoken, idle.firstPlaceToLook());
    }

    /**
     * After a search that found nothing: waits the policy's way and returns true, or returns false when the
     * sleep protocol's turn has come ({@code noWorkFound}). Never sleeps: the one park, the lone-job pause, is
     * bounded, counted idle by the protocol, and ended at once by a set of {@code latch}.
     */
    boolean holdOff(CoreLatch latch) {
        searchRound++; // a failed round ends here: a lone job left in it may be taken from the next one on
        if (leftLoneJob) {
            // We left a neighbour's only job to its owner. Never sleep on it: the next round takes it if it is
            // still there. Beside a producer, a pause first, so that this worker falls behind it instead of taking
            // each job as it is pushed; otherwise one yield, which is all a chain's owner needs to pop its job.
            if (producerSeen && loneJobPauseNanos > 0) {
                parker.parkUntilSet(latch, loneJobPauseNanos, false);
            } else {
                pause();
            }
            return true;
        }
        if (streamRoundsLeft > 0) {
            // Counted idle meanwhile, so the submitter's next push wakes nobody; the yield lets it run if it shares
            // our CPU. The protocol's first noWorkFound comes a few failed searches later, and every protocol's
            // proof holds for any number of those.
            streamRoundsLeft--;
            pause();
            return true;
        }
        return false;
    }

    /**
     * The pause of an idle round that must not sleep yet (this worker's rounds, and the sleep protocol's bounded
     * ones): a yield, or on an IO worker a look at its own selector instead. An IO worker's own channels are where it
     * most likely finds work, and a yield costs it more than the system call: on Linux's EEVDF scheduler a yield
     * pushes the thread's deadline back, so until it next sleeps, each thread its writes wake (a client reading its
     * answer) preempts it. On the HTTP sample at saturation, IO workers that yielded were preempted about once in 8
     * requests, and once in 33 when they looked instead (Netty's event loops: once in 45), which raised requests/s
     * by a third ({@code docs/io.md}, "Idle rounds look at the selector"). The rounds that pause are bounded (a lone
     * job is taken in the next round; the stream rounds and the protocol's rounds are counted), so an IO worker
     * spins a few rounds at most before it sleeps.
     */
    @Override
    public void pause() {
        if (ioPollInterval != Integer.MAX_VALUE) {
            pollIo();
        } else {
            Thread.yield();
        }
    }

    /** A full search with no rule (every lone job taken, no hint, the injector last), for a draining worker. */
    Runnable findAnyWork() {
        return search(false, false, IdleState.ANYWHERE);
    }

    /**
     * A full search: own deque; with {@code injectorFirst}, the injector; {@code firstPlace} (a worker index, or
     * {@link IdleState#INJECTOR}, or {@link IdleState#ANYWHERE}); every other worker from a random start; due
     * timers; the injector.
     */
    Runnable search(boolean mayLeaveLoneJobs, boolean injectorFirst, int firstPlace) {
        Runnable job = null;
        if (batchEnd != 0 && jobDepth == 0) {
            job = takeOldestOfBatch(); // a drain or an idle spell at the top level: the batch in its order
        }
        if (job == null) {
            // Leaves pushedSinceTake set. On an IO worker whose spell pushed the job (a readiness listener resumed
            // a coroutine), the next takeOwnJob then reads it as taken by a thief, and the next spell pauses (a look
            // at its selector) once before it sleeps. Measured on the HTTP sample: clearing it here saved that
            // select but no CPU at a low rate, and raised the p50 at a moderate rate, where the look often finds
            // the next request (docs/notes/benchmark-runs.md, "The IO worker's look before it sleeps").
            job = deque.pop();
        }
        if (job != null) {
            return job;
        }
        if (injectorFirst) {
            job = pollInjector();
            if (job != null) {
                return job;
            }
        }
        if (firstPlace != IdleState.ANYWHERE) {
            job = takeFrom(firstPlace);
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

    /** A job from {@code place}: the injector, or the deque of another worker whose index it is. */
    private Runnable takeFrom(int place) {
        if (place == IdleState.INJECTOR) {
            return pollInjector();
        }
        Worker[] all = registry.workers;
        if (place < 0 || place >= all.length || place == index) {
            return null;
        }
        Runnable job;
        do {
            job = all[place].deque.steal();
        } while (job == WorkDeque.RETRY);
        if (job != null) {
            counters.steal();
        }
        return job;
    }

    /** The injector's oldest job, or a batch of the oldest when the worker may take one (section 3.9). */
    private Runnable pollInjector() {
        if (mayTakeBatch()) {
            Runnable job = takeBatch();
            injectedThisSpell += batchLastTaken;
            return job;
        }
        Runnable job = injector.poll();
        if (job != null) {
            counters.injectedJobTaken();
            injectedThisSpell++;
        }
        return job;
    }

    /**
     * One job stolen from another worker, or null. With {@code mayLeaveLoneJobs}, a deque that holds exactly one
     * job is skipped unless this worker already saw that same job there in an earlier search round: a worker that
     * pushes one job and goes on to pop it (a chain of jobs, a ping-pong of two coroutines) keeps it, instead of
     * the job moving to another core on every hand-off. A job whose owner is busy or blocked waits at most one
     * round: {@link #holdOff} yields or pauses instead of letting the worker sleep after leaving one.
     */
    Runnable stealFromOthers(boolean mayLeaveLoneJobs) {
        leftLoneJob = false;
        Worker[] workers = registry.workers;
        int n = registry.slotsInUse; // the extra slots that were never used hold no jobs
        if (n <= 1) {
            return null;
        }
        int start = nextVictim(n);
        int self = index;
        while (true) {
            boolean retry = false;
            for (int i = 0; i < n; i++) {
                int victim = start + i;
                if (victim >= n) {
                    victim -= n;
                }
                if (victim == self) {
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
        int tag = d.nextSlotTag();
        long lone = d.loneJobIndex();
        long left = leftLoneJobIndex[victim];
        if (left >= 0 && (lone != left || tag != leftLoneJobTag[victim])) {
            // The job we left here is gone (its owner popped it: a chain) or has company. Still the oldest of
            // several means its owner pushed more instead of popping it: a producer, beside which the next
            // lone job we leave is followed by a pause (holdOff). One verdict per job left.
            producerSeen = lone == WorkDeque.SEVERAL_JOBS && d.oldestIndex() == left;
            leftLoneJobIndex[victim] = -1L;
        }
        if (lone == WorkDeque.NO_JOBS) {
            return true;
        }
        if (lone == WorkDeque.SEVERAL_JOBS) {
            return false;
        }
        if (left == lone && tag == leftLoneJobTag[victim] && leftLoneJobRound[victim] != searchRound) {
            // It waited a whole round: its owner is busy elsewhere, take it. No verdict: a producer slower than
            // our round looks the same as an owner busy with something else. Forgotten, so that the next look
            // does not read this job's absence as its owner's pop.
            leftLoneJobIndex[victim] = -1L;
            return false;
        }
        leftLoneJobIndex[victim] = lone;
        leftLoneJobTag[victim] = tag;
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


    // Batches from the injector (docs/sleep.md section 3.9). A worker in its top-level loop with nothing of its own
    // queued takes a batch (Injector.pollBatch) once a backlog of two batches waits: it runs the oldest job and
    // pushes the rest on its deque in their order, where it then takes them oldest first and idle workers steal them
    // the same way, so the deque's order stays the jobs' age. Then it posts them as its own pushes (I1 to I3 of
    // docs/sleep.md): a sleeper's final check may have looked at the injector after the claim and at the deque before
    // the push, so without that post the batch could wait behind a job that blocks, with everyone else asleep
    // (jcstress BatchMoveVsJecSleep).

    /**
     * Whether the next look at the injector may take a batch: batches are on, the worker is in its top-level loop
     * and its deque is empty. Inside a job (a wait that helps) a batch on the deque would sit above the wait's floor
     * and count as the wait's own jobs (section 6.2, "The stack bound").
     */
    private boolean mayTakeBatch() {
        return batchMax > 1 && jobDepth == 0 && deque.isEmpty();
    }

    /**
     * The oldest job of a batch from the injector, the others pushed on the deque and posted; or one job, when
     * fewer than two batches' worth wait; null when the injector is empty. Counts every job taken.
     */
    private Runnable takeBatch() {
        // Only from a backlog of two batches: fewer jobs are cheap to take one by one, and each then stays in the
        // shared queue, where any worker takes it, instead of on one worker's deque, where it waits for that worker
        // or for a neighbour with nothing else to do if the OS deschedules the worker.
        int n = injector.pollBatch(batch, batchMax, registry.slotsInUse, 2L * batchMax);
        batchLastTaken = n;
        if (n == 0) {
            return null;
        }
        Runnable job = batch[0];
        if (n > 1) {
            boolean wasEmpty = deque.pushAll(batch, 1, n); // fits: the deque was empty (only its owner fills it)
            batchEnd = deque.endIndex();
            registry.newInternalJobs(n - 1, wasEmpty);
        }
        for (int i = 0; i < n; i++) {
            counters.injectedJobTaken();
            batch[i] = null;
        }
        return job;
    }

    /**
     * While the deque's oldest job is one of the last batch, that job, by the thieves' own take: a batch runs in
     * its order, and jobs that its jobs push wait behind it (they are newer). Null once the batch is gone, taken
     * here or by thieves.
     */
    private Runnable takeOldestOfBatch() {
        while (deque.oldestIndex() < batchEnd) {
            Runnable job = deque.steal();
            if (job != WorkDeque.RETRY) {
                return job; // null: the deque emptied since the read of its oldest index
            }
        }
        batchEnd = 0;
        return null;
    }

    // Idle spells.

    /**
     * Every entry into the idle state: the busy spell that began when this worker last left it ends here
     * ({@code docs/observability.md}, "Busy time"), then the sleep protocol's "start looking" event and the
     * search's new spell. Returns the protocol's state for the spell.
     *
     * <p>A worker that drained two or more outside jobs since its last spell starts with the stream rounds: the
     * submitter is likely between two pushes, and sleeping now would make its next push pay our wake-up
     * ({@code docs/sleep.md} section 3.8).
     */
    IdleState enterIdle() {
        long now = System.nanoTime();
        idleSince = now;
        counters.busyEnds(now);
        IdleState idle = sleep.startLooking(index);
        if (ownJobsTaken) {
            // A neighbour took the jobs we pushed, perhaps ones we would have popped ourselves (a chain, a
            // ping-pong that moved to it): the protocol may let it show that by posting (docs/sleep.md 3.7).
            ownJobsTaken = false;
            idle.ownJobsTaken();
        }
        startSpell();
        return idle;
    }

    /**
     * Every exit from the idle state: the sleep protocol's "work found" event, and the timer watch goes to a
     * sleeper, because this worker is about to run user code (or return to its caller) and cannot watch. A busy
     * spell begins, and the worker looks again whether a recording wants long jobs timed.
     */
    void leaveIdle(IdleState idle) {
        sleep.workFound(idle);
        timers.handOverWatch(index);
        busyStarts(); // G1 of the monitor's start race: a volatile store
        monitor.workerBusy(); // G2
    }

    /** In the top-level loop of a worker whose thread may retire. */
    private boolean mayRetire() {
        return retireAfterNanos > 0 && jobDepth == 0;
    }

    /**
     * Idle in the top-level loop: whether the keep-alive has passed with nothing to do, so the thread may retire.
     * Not while a timer is pending, which needs a worker to fire it: then another keep-alive begins (a timer
     * scheduled after the last thread retired brings one back, as any post does).
     */
    boolean keepAliveEnded() {
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

    // IdleContext: the worker as its sleep protocol sees it, called on this worker's thread from noWorkFound.

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
    public WorkerStatistics statistics() {
        return counters;
    }

    // Running a job.

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


    // The stack bound (docs/sleep.md section 6.2).

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
        if (!runner.enterBlockingWithStandIn(this)) {
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
            runner.exitBlocking(this);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }


    /** The pool's clock, for a deadline of {@link #waitUntil}. */
    long nanoTime() {
        return clock.nanoTime();
    }

    /** A new latch owned by this worker, for a wait inside the pool ({@code ForageLatch}, a scope). */
    SpinLatch newLatch() {
        return runner.newLatch(this);
    }

    /** Owner thread: waits on {@code latch}, its own, as the runner's mode does; returns whether it is set. */
    boolean awaitLatch(SpinLatch latch, long deadline) {
        return runner.awaitLatch(this, latch, deadline);
    }

    /** Owner thread: enters a blocking section ({@link Runner#enterBlocking}), left with {@link #exitBlocking}. */
    void enterBlocking() {
        runner.enterBlocking(this);
    }

    void exitBlocking() {
        runner.exitBlocking(this);
    }

    /**
     * A thread of the pool starts to run this worker (a core worker's, a stand-in's): it is busy (G1 of the
     * monitor's start race, a volatile store), and the monitor takes its look (G2).
     */
    void threadStarts() {
        busyStarts();
        monitor.workerBusy();
    }

    @Override
    public String toString() {
        return "Worker[" + index + " of " + registry + "]";
    }
}

/**
 * The fields a {@link Worker}'s own thread writes on every job or search. Only that thread reads or writes them.
 * They sit between {@link LeadingPad} and {@link WorkerPad1} so that these writes never invalidate a line that
 * another thread reads: the worker's {@code deque} reference, which thieves read on every steal attempt, or a
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
     * taken there, more in a job run by a wait that helps. Picks the take rule ({@code Worker.takeLocalJob}) and
     * bounds helping ({@link Tunable#MAX_HELP_DEPTH}).
     */
    int jobDepth;
    /**
     * True while this worker, after shutdown, fails its pending IO waits and runs their listeners: their
     * follow-up jobs are accepted ({@code Registry.refuseAfterShutdown}).
     */
    boolean failingIoWaits;
    /**
     * Set when the worker's thread starts its top-level loop: how long the worker may stay idle there before its
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
    /** How deep this worker's thread is in blocking sections (the runner's stand-ins); 0 when not blocking. */
    int blockingDepth;

    // The search's state.
    /** xorshift state for picking steal victims. */
    long random;
    /** Top-level local takes until the next fairness check ({@link Tunable#FAIRNESS_INTERVAL}). */
    int untilFairnessCheck;
    /** Set by {@code executeFair} and the fairness check: the next top-level local take is the deque's oldest job. */
    boolean takeOldestNext;
    /**
     * Submissions from this worker until the next one is timed for the queue-wait histogram; counted down only
     * with sampling on, by the pool's admission, which draws each next gap at random when it picks one. The first
     * gap is the mean.
     */
    int untilQueueWaitSample = QueueWaitHistogram.SAMPLE_EVERY;
    /**
     * Counts this worker's failed idle search rounds ({@code Worker.holdOff}); a lone job is stolen only when it
     * was already there in an earlier round ({@code Worker.passOver}).
     */
    int searchRound;
    /** Set when the last search left a lone job to its owner: the next round must come without sleeping. */
    boolean leftLoneJob;
    /**
     * Whether a lone job this worker left was, when it looked again, still the oldest of several: its owner
     * pushed more instead of popping it, the signature of a producer. Then the next lone job left is followed by
     * the pause instead of a yield (docs/sleep.md section 4.6). Rewritten at every such look.
     */
    boolean producerSeen;
    /**
     * Jobs this worker took from the injector since it last went idle. Two or more mean it is draining a stream
     * of outside submissions, and its next idle spell starts with {@link Tunable#INJECTED_STREAM_ROUNDS} yield
     * rounds before the sleep protocol sees it (docs/sleep.md section 3.8).
     */
    int injectedThisSpell;
    /** Stream rounds left in the current idle spell. */
    int streamRoundsLeft;
    /**
     * The deque index just past the last batch from the injector, while some of it may be left; 0 when none is
     * (indices start at 0, so no batch ends there).
     */
    long batchEnd;
    /** How many jobs the last batch took from the injector. */
    int batchLastTaken;
}

/** 128 bytes of padding after a worker's owner-written fields. */
abstract class WorkerPad1 extends WorkerOwnerState {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}
