package dev.forage;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The jobs-event-counter sleep protocol of Rayon's sleep module. The default protocol.
 * The protocol, each transition, and the proof sketch are in {@code docs/sleep.md}; the step
 * labels in the comments below (S1..S5, I2, I3; I1 is in Registry.pushInjected) point there.
 *
 * <p>The steps, by method: S1 {@link #announceSleepy}; S2 to S5 {@link #sleep} and {@link #block}; I3
 * {@link #newJobs}; E1 and E2 {@link #workFound}; the waker's side {@link #wakeSpecificThread}; the nap
 * {@link #nap}. Each worker's state for a spell is its {@link JecIdleState}; its blocking state, its
 * {@link WorkerSleepState}. Built from the pool's {@link Tuning}, its parkers and a {@link PoolProbe} only.
 */
final class JecSleep implements Sleep {
    private final JecCounters counters = new JecCounters();
    /**
     * Workers napping now (section 3.7 of docs/sleep.md). Read by a poster only when its post found a queue
     * that already held jobs and nobody sleeps; written twice per nap, so it sits on lines of its own.
     */
    private final PaddedAtomicLong nappers = new PaddedAtomicLong();
    /**
     * Per worker, made by it at its first idle spell ({@link #startLooking}): unused extra slots cost nothing. Null
     * reads as "not sleeping, not napping"; a waker that acts on a state read the counters word (or a latch) after
     * the worker's S3, which the plain store precedes; its other fields are final or volatile defaults.
     */
    private final WorkerSleepState[] workers;
    /**
     * One idle state per worker, made with its sleep state and reused by every idle spell (a worker's spells never
     * overlap: workFound ends one before the worker runs the job that may start the next).
     */
    private final JecIdleState[] idleStates;
    private final Parker[] parkers;
    private final int roundsUntilSleepy;
    private final int roundsUntilSleeping;
    /** How many sleepers {@link #workFound} wakes as a ramp-up ({@link Tunable#WAKE_ON_WORK_FOUND}; Rayon: 2). */
    private final int wakeOnWorkFound;
    /** The nap after a failed S2 ({@link Tunable#NAP_NANOS}); 0 yields instead. */
    private final long napNanos;
    /** Answers the hand-off rule's question ({@link #workFound}). */
    private final PoolProbe probe;

    /**
     * For one worker per parker, with the pool's {@code tuning} ({@link Tunable#ROUNDS_UNTIL_SLEEPY},
     * {@link Tunable#WAKE_ON_WORK_FOUND}, {@link Tunable#NAP_NANOS}).
     */
    JecSleep(Tuning tuning, Parker[] parkers, PoolProbe probe) {
        int threads = parkers.length;
        if (probe == null) {
            throw new NullPointerException("JecSleep needs the pool's probe");
        }
        this.probe = probe;
        if (threads < 1 || threads > JecCounters.THREADS_MAX) {
            throw new IllegalArgumentException(
                    "thread count " + threads + " is out of range; allowed: 1.." + JecCounters.THREADS_MAX);
        }
        this.workers = new WorkerSleepState[threads];
        this.idleStates = new JecIdleState[threads];
        this.parkers = parkers;
        this.roundsUntilSleepy = tuning.getInt(Tunable.ROUNDS_UNTIL_SLEEPY);
        this.roundsUntilSleeping = roundsUntilSleepy + 1;
        this.wakeOnWorkFound = tuning.getInt(Tunable.WAKE_ON_WORK_FOUND);
        this.napNanos = tuning.get(Tunable.NAP_NANOS);
    }

    @Override
    public JecIdleState startLooking(int workerIndex) {
        JecIdleState idle = idleStates[workerIndex];
        if (idle == null) {
            idle = firstIdleSpell(workerIndex);
        }
        counters.addInactiveThread();
        return idle.restart();
    }

    /** On worker {@code index}'s thread, before its first idle spell: its sleep state (see {@link #workers}). */
    private JecIdleState firstIdleSpell(int index) {
        workers[index] = new WorkerSleepState(parkers[index]);
        JecIdleState idle = new JecIdleState(index);
        idleStates[index] = idle;
        return idle;
    }

    @Override
    public void workFound(IdleState idle) {
        // Leaving the idle state (work found, latch set, or wait deadline passed): E1 in docs/sleep.md.
        int sleepers = counters.subInactiveThread();
        if (sleepers == 0) {
            return;
        }
        if (wakeOnWorkFound > 0) {
            // Rayon's ramp-up: wake up to two sleepers on every idle-to-active transition.
            wakeAnyThreads(Math.min(sleepers, wakeOnWorkFound));
        } else if (probe.hasUnclaimedWork()) {
            // The hand-off rule, needed for liveness, not only speed: a poster that saw this worker idle woke
            // nobody (newJobs: idle >= count) and counted on it to take the job. It is leaving with other work,
            // so if a job is still queued (injector or any deque, or a timer nobody watches), a sleeper must take
            // it: the pusher of an internal job may itself be blocked in user code. E1 (the decrement above, a
            // volatile RMW) then E2 (the probe's volatile reads) mirror I1 (the push's volatile write) then I3.
            wakeAnyThreads(1);
        }
    }

    @Override
    public void noWorkFound(IdleState state, CoreLatch latch, IdleContext context) {
        JecIdleState idle = (JecIdleState) state;
        if (idle.justWoken) {
            idle.justWoken = false;
            context.wakeupWithoutWork();
        }
        if (idle.rounds < roundsUntilSleepy) {
            context.pause();
            idle.rounds++;
        } else if (idle.rounds == roundsUntilSleepy) {
            // No yield here (Rayon yields): Rayon's module asks for one more search after getting sleepy, not for a
            // pause, and at low load every yield is a system call per idle spell. Speed only.
            announceSleepy(idle);
            if (idle.yieldBeforeSleep) {
                // A neighbour took the jobs we pushed. If it now pops its own posts and shares our CPU, a search
                // with no pause would see no post between S1 and S2 (it is not running), and we would sleep only
                // to be woken by its next push. One yield lets it run and post: S2 then fails, and the nap takes
                // over (docs/sleep.md section 3.7).
                idle.yieldBeforeSleep = false;
                context.pause();
            }
        } else if (idle.rounds < roundsUntilSleeping) {
            context.pause();
            idle.rounds++;
        } else if (idle.sawPosts && !idle.napped && napNanos > 0) {
            // The nap (docs/sleep.md section 3.7): we saw posts that our searches did not find (a failed S2),
            // the signature of a busy worker that pops its own posts (a chain, a ping-pong). A sleeper would be
            // woken by its next push to an empty deque, a wake-up paid on the busy worker's path, and would often
            // take the chain's one job. So park for a while as an idle worker, still sleepy: no poster wakes us,
            // the first post moves the JEC (one CAS), and the S2 after the nap tells whether anything was posted
            // during it.
            idle.napped = true;
            context.statistics().nap();
            nap(idle.workerIndex, latch);
        } else if (sleep(idle, latch, context)) {
            // Work was posted since we got sleepy (S2 below), so we search again. When one busy worker keeps
            // posting jobs that it pops itself (a chain of single jobs, a ping-pong), every post moves the JEC,
            // and without a pause the idle worker would loop announce-search-fail without end, probing the busy
            // worker's deque and now and then stealing its one job. With the nap on, the next attempt naps
            // first; without it, one yield per failed attempt, outside the lock, as in Rayon's rounds. Speed
            // only: the search that follows is the same.
            idle.sawPosts = true;
            if (napNanos == 0) {
                Thread.yield(); // not the context's pause: this loop has no bound, so it gives the CPU up
            }
        }
    }

    /**
     * The nap: a park of {@link #napNanos} as an idle worker, counted in {@link #nappers} so that a post to a queue
     * that already held jobs ends it ({@link #wakeNapper}). It is the parker's latch-ended park, so a latch set
     * during the nap unparks us ({@link #notifyWorkerLatchIsSet}, pair D); an interrupt (shutdownNow) ends it at
     * once and stays set for the sleep that follows, which absorbs it (block).
     */
    private void nap(int index, CoreLatch latch) {
        WorkerSleepState state = workers[index];
        state.parker.bindCurrentThread(); // before napping is published: wakeNapper's unpark must reach us
        state.napping = true;
        nappers.getAndIncrement();
        state.parker.parkUntilSet(latch, napNanos, false);
        nappers.getAndDecrement();
        state.napping = false;
    }

    /**
     * Ends one nap early: a post found jobs already queued and nobody asleep, so work piles up (a fork-join
     * burst, a stream of submissions) while a napper would wait out its nap. A hint, not part of any proof:
     * a napper that this misses searches again when its nap ends.
     */
    private void wakeNapper() {
        for (WorkerSleepState state : workers) {
            if (state != null && state.napping) {
                state.parker.unpark();
                return;
            }
        }
    }

    /**
     * S1: make the JEC even ("someone is sleepy") and remember it; the next failed search then tries to sleep. A
     * step of {@link #noWorkFound}, callable alone so that a race test can run S1 without the rounds around it.
     */
    void announceSleepy(JecIdleState idle) {
        idle.jobsCounter = JecCounters.jec(counters.incrementJecIfActive());
        idle.rounds = roundsUntilSleepy + 1;
    }

    /** S2..S5. Returns true when S2 found the JEC moved since S1 (work was posted): the caller searches again. */
    private boolean sleep(JecIdleState idle, CoreLatch latch, IdleContext context) {
        int index = idle.workerIndex;
        if (!latch.getSleepy()) {
            return false; // the latch is SET: the worker loop will see it
        }
        WorkerSleepState state = workers[index];
        WorkerStatistics stats = context.statistics();
        state.lock.lock();
        try {
            // Held until isBlocked is set (or sleep returns): a waker that saw us counted as sleeping takes this
            // lock, so it finds either isBlocked set or us gone (docs/sleep.md section 3.4).
            // The intent is published before SLEEPING and before the sleeper count, so any waker that sees
            // either also sees the intent (WorkerSleepState).
            state.sleepIntent = true;
            if (!latch.fallAsleep()) {
                state.sleepIntent = false;
                idle.wakeFully(); // SET while we were getting sleepy
                return false;
            }
            // S2: the whole-word CAS. It adds us as a sleeper only if the JEC did not move since S1.
            while (true) {
                long c = counters.load();
                if (JecCounters.jec(c) != idle.jobsCounter) {
                    // New work was posted since we got sleepy: search once more before trying again.
                    idle.wakePartly(roundsUntilSleepy);
                    latch.wakeUp();
                    state.sleepIntent = false;
                    return true;
                }
                if (counters.tryAddSleepingThread(c)) {
                    break;
                }
            }
            // S3, the SleepFence: the CAS above is a volatile read-modify-write and the injector check below is
            // a volatile read; the JMM's total synchronization order gives the guarantee Rayon buys with
            // fence(SeqCst). Mirrors I2 on the injecting side (docs/sleep.md).
            // S4: the final check of the injector and the deques. The JEC may have rolled over; a queued job
            // must not be missed.
            if (context.hasQueuedJobs()) {
                counters.subSleepingThread(); // nobody will wake us: we undo our own count
                state.sleepIntent = false;
                idle.wakeFully();
                latch.wakeUp();
                return false;
            }
            // S5 begins: from here a waker that takes the lock finds isBlocked and unparks this thread.
            stats.sleep();
            state.parker.bindCurrentThread();
            state.isBlocked = true;
        } finally {
            state.lock.unlock();
        }
        block(state, context);
        state.sleepIntent = false;
        stats.wakeup();
        idle.justWoken = true;
        if (idle.napped) {
            idle.sawPosts = false; // a whole nap passed with nothing posted: the busy neighbour has stopped
        }
        if (latch.probe()) {
            stats.latchWakeup();
        }
        idle.wakeFully();
        latch.wakeUp();
        return false;
    }

    /**
     * S5: park until a waker clears {@code isBlocked}, or until the deadline that {@link IdleContext#parkNanos}
     * gives (a timer this worker watches, its own timed wait). Parks directly, without the lock: the lock only
     * orders the waker against S2..S4, and the park permit covers an unpark that comes before the park. A waker
     * clears the flag after it un-counted us, so once we see it clear the count is already right.
     */
    private void block(WorkerSleepState state, IdleContext context) {
        boolean interrupted = false;
        // An IO worker's parker may find socket readiness for this worker: it then wakes itself, as on a deadline
        // (docs/io.md, the readiness race).
        while (state.isBlocked && !state.parker.eventsFound()) {
            long nanos = context.parkNanos();
            if (nanos <= 0L) {
                break; // a timer or this worker's wait deadline is due: we wake ourselves
            }
            state.parker.park(nanos == IdleContext.PARK_FOREVER ? Parker.FOREVER : nanos);
            // park returns at once while the interrupt status is set (shutdownNow interrupts workers): clear it
            // so the loop does not spin, and set it again on the way out, as awaitUninterruptibly would.
            interrupted |= Thread.interrupted();
        }
        if (state.isBlocked) {
            state.lock.lock();
            try {
                if (state.isBlocked) {
                    // Nobody woke us (a timer or our wait deadline came due, or socket readiness): undo our own
                    // sleeping count, as on the S4 exit. Under the lock, so a waker cannot un-count us a second time.
                    counters.subSleepingThread();
                    state.isBlocked = false;
                }
            } finally {
                state.lock.unlock();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void newInternalJobs(int count, boolean queueWasEmpty) {
        // I2 for internal jobs: WorkDeque.push ends with a volatile write of bottom, and newJobs starts with a
        // volatile read of the counters. Rayon's sleep module skips this fence (the pusher pops its job itself), but
        // the pusher may be blocked in user code until another worker runs the job (docs/sleep.md section 4.5).
        newJobs(count, null, queueWasEmpty);
    }

    /**
     * {@link #newInternalJobs} for one job (I2 as there), whose "was it empty" {@link #newJobs} asks
     * {@code pushedTo} only when a worker sleeps or naps: a pusher that finds everyone awake (a producer beside a
     * thief) then never reads its deque's {@code top}, the line the thief's steals write.
     */
    @Override
    public void newInternalJob(PushedTo pushedTo) {
        newJobs(1, pushedTo, false);
    }

    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        // I2, the PushFence: the caller's publish was a volatile write (Injector.push's CAS; for timers,
        // TimerQueue.add's write of earliestDeadline or the watch-release CAS), and newJobs starts with a
        // volatile read of the counters (docs/sleep.md).
        newJobs(count, null, queueWasEmpty);
    }

    /**
     * I3: flip the JEC to odd if someone is sleepy, then wake only the threads that the idle count says lack. The
     * queue was empty iff {@code queueWasEmpty}, or, for one job pushed on a worker's deque, iff {@code pushedTo}
     * says so when asked, which it is only when the answer matters.
     */
    private void newJobs(int count, PushedTo pushedTo, boolean queueWasEmpty) {
        long c = counters.incrementJecIfSleepy();
        int sleepers = JecCounters.sleepingThreads(c);
        if (sleepers == 0) {
            // The cheaper test first: the poster's flag before the nappers' count, the count before the deque's top.
            boolean pileUp = pushedTo == null
                    ? !queueWasEmpty && nappers.get() > 0
                    : nappers.get() > 0 && !pushedTo.heldNoOtherJob();
            if (pileUp) {
                wakeNapper(); // jobs pile up: a napper, counted idle, would wait out its nap (section 3.7)
            }
            return;
        }
        if (!wasEmpty(pushedTo, queueWasEmpty)) {
            // The queue already held jobs: the idle threads are not keeping up with it.
            wakeAnyThreads(Math.min(count, sleepers));
        } else {
            int idle = JecCounters.awakeButIdleThreads(c);
            if (idle < count) {
                wakeAnyThreads(Math.min(count - idle, sleepers));
            }
        }
    }

    private static boolean wasEmpty(PushedTo pushedTo, boolean queueWasEmpty) {
        return pushedTo == null ? queueWasEmpty : pushedTo.heldNoOtherJob();
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        if (!wakeSpecificThread(workerIndex)) {
            parkers[workerIndex].latchSet(); // not asleep: it may be in a latch-ended park (nap, pause, blocked)
        }
    }

    @Override
    public void timerDeadlineChanged(int watcherIndex) {
        // Not a wake-up: the watcher stays counted as sleeping, loops in block() and re-reads its deadline. The
        // caller wrote the new deadline before this; if the watcher read the old one, this unpark reaches it in
        // its park or, if it comes first, as the permit that makes the park return at once.
        parkers[watcherIndex].unpark();
    }

    void wakeAnyThreads(int count) {
        if (count <= 0) {
            return;
        }
        for (int i = 0; i < workers.length; i++) {
            if (wakeSpecificThread(i)) {
                if (--count == 0) {
                    return;
                }
            }
        }
    }

    private boolean wakeSpecificThread(int index) {
        WorkerSleepState state = workers[index];
        if (state == null || !state.sleepIntent) {
            return false; // not on its way to sleep (see WorkerSleepState)
        }
        Parker sleeper;
        state.lock.lock();
        try {
            if (!state.isBlocked) {
                return false;
            }
            // The waker decrements, so posters see an accurate count before the woken thread even runs; and it
            // decrements before it clears isBlocked, so the woken thread can never count itself again (S2 of its
            // next sleep) before this decrement has landed.
            counters.subSleepingThread();
            state.isBlocked = false;
            sleeper = state.parker;
        } finally {
            state.lock.unlock();
        }
        // After the unlock: the sleeper does not need the lock to leave S5, so it never waits for ours.
        sleeper.unpark();
        return true;
    }

    @Override
    public int sleepingThreads() {
        return JecCounters.sleepingThreads(counters.load());
    }

    @Override
    public int idleThreads() {
        return JecCounters.awakeButIdleThreads(counters.load());
    }

    /** One load of the counters: no inactive thread (sleeping ones are inactive too). */
    @Override
    public boolean noWorkerIdle() {
        return JecCounters.inactiveThreads(counters.load()) == 0;
    }

    /** Test hook: is this worker parked in S5 with nobody having woken it yet (a volatile read)? */
    boolean isBlocked(int workerIndex) {
        WorkerSleepState state = workers[workerIndex];
        return state != null && state.isBlocked;
    }

    /**
     * Test hook: how long worker {@code index}'s last nap parked, or -1 if it did not park (its latch was SET
     * before it could fall asleep). Written by the worker after the park; read after joining it.
     */
    long lastNapParkNanos(int index) {
        WorkerSleepState state = workers[index];
        return state != null ? state.parker.lastLatchParkNanos() : -1L;
    }

    /** Test hook: workers in a nap that jobs piling up end (not counting lone-job pauses). */
    long nappers() {
        return nappers.get();
    }

    /** Test hook: the counters word (Rayon's {@code counters}), not a worker's statistics. */
    JecCounters word() {
        return counters;
    }

    @Override
    public String toString() {
        return "JecSleep" + counters;
    }

    /**
     * A worker's idle state in the jobs-event-counter protocol ({@link JecSleep}): its idle rounds, the JEC it saw
     * when it got sleepy (S1), and the evidence about its neighbours that times the nap ({@code docs/sleep.md}
     * sections 3.1 to 3.7). One per worker, reused by every idle spell. Owner thread only.
     */
    static final class JecIdleState extends IdleState {
        /** {@link #jobsCounter} value meaning "not sleepy": a real JEC is a 32-bit unsigned value, never -1. */
        static final long NOT_SLEEPY = -1L;

        /** Failed searches since the worker became idle or was last woken. */
        int rounds;
        /** The JEC the worker saw when it got sleepy, or {@link #NOT_SLEEPY}. */
        long jobsCounter = NOT_SLEEPY;
        /**
         * Set when a sleep attempt found that work was posted since the worker got sleepy (a failed S2). While set,
         * each sleep attempt starts with a nap; it is cleared only when a sleep attempt that followed a nap succeeds
         * (a whole nap passed with nothing posted), and kept across idle spells (docs/sleep.md section 3.7).
         */
        boolean sawPosts;
        /** Set by {@link #ownJobsTaken}; cleared by the yield it asks for. */
        boolean yieldBeforeSleep;
        /** Whether the worker has napped since it last got sleepy. */
        boolean napped;

        JecIdleState(int workerIndex) {
            super(workerIndex);
        }

        /**
         * Its next sleep attempt yields once between getting sleepy and trying to sleep, so that a neighbour now
         * running the jobs this worker pushed, which may pop its own posts and share this worker's CPU, gets to post
         * in that window (docs/sleep.md section 3.7).
         */
        @Override
        void ownJobsTaken() {
            yieldBeforeSleep = true;
        }

        /**
         * A new idle spell for a reused state: as if just created, except for the evidence about the neighbours
         * ({@link #sawPosts}, {@link #yieldBeforeSleep}), which outlives a spell.
         */
        JecIdleState restart() {
            wakeFully();
            justWoken = false;
            return this;
        }

        /** Back to the start: all the idle rounds again (Rayon's {@code wake_fully}). */
        void wakeFully() {
            rounds = 0;
            jobsCounter = NOT_SLEEPY;
            napped = false;
        }

        /** Back to just before sleepy: announce again, search once more, then try to sleep ({@code wake_partly}). */
        void wakePartly(int roundsUntilSleepy) {
            rounds = roundsUntilSleepy;
            jobsCounter = NOT_SLEEPY;
            napped = false;
        }
    }

    /**
     * Per-worker blocking state (Rayon RFC #5, "Mechanism for threads to go to sleep and be awoken"): a lock and
     * the {@code isBlocked} flag that only the worker sets and only a waker (or the worker itself, on its own
     * deadline) clears, both under the lock. The worker parks through its {@link Parker}, outside the lock; a waker
     * unparks it after clearing the flag (docs/sleep.md sections 3.3 and 3.4).
     *
     * <p>{@code sleepIntent} is a hint for wakers, not part of the proof's critical state: the worker sets it
     * (volatile) before it tries to count itself as a sleeper and clears it when it stops sleeping, so a waker that
     * has seen the sleeper in the counters also sees the intent and never skips a worker that is about to block.
     * Wakers skip workers without intent without taking their lock, which keeps a wake-up from costing one lock
     * acquisition per worker.
     */
    static final class WorkerSleepState {
        final ReentrantLock lock = new ReentrantLock();
        /**
         * Written under {@link #lock}; read by the parked worker without it (hence volatile). True while the worker
         * is blocked and nobody has woken it yet.
         */
        volatile boolean isBlocked;
        /**
         * How this worker blocks and is woken. Bound to the thread that blocks before {@link #isBlocked} is set (a
         * single-threaded pool's worker runs on its caller's thread, so it can change between sleeps).
         */
        final Parker parker;
        volatile boolean sleepIntent;
        /**
         * True while the worker naps ({@code JecSleep.nap}): a post that finds jobs piling up unparks it
         * ({@code JecSleep.wakeNapper}). A latch set ends the nap through the parker's latch-ended park.
         */
        volatile boolean napping;

        WorkerSleepState(Parker parker) {
            this.parker = parker;
        }
    }
}
