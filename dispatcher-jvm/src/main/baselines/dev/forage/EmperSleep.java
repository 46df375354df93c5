package dev.forage;

/**
 * EMPER's IO sleep strategy, on the JVM without io_uring. Selected with {@code SleepProtocol.EMPER}.
 *
 * <p>A worker that found no work for {@link Tunable#ROUNDS_UNTIL_SLEEPY} rounds counts itself in
 * {@link EmperSleepers} and posts a read on the {@link HintPipe}. Notifiers claim sleepers on the count with a CAS
 * loop and write one hint per claimed sleeper, saying where the new work is: {@code NotifyEmper} with the pushing
 * worker's index for a job pushed on a worker's deque, {@code NotifyAnywhere} with "the injector" for an injected
 * job or a timer. A woken worker looks where its hint says right after its own deque: the hint waits in its
 * {@link Idle} state, and the worker's search asks for it through {@link IdleState#firstPlaceToLook}.
 *
 * <p>Three things EMPER does not need and Forage does, each in {@code docs/sleep-strategies.md} section 6 with its
 * proof:
 * <ul>
 *   <li>Latches wake their owner directly (the core's four latch states under the pipe's lock), and a worker that
 *       stops waiting for its own reason withdraws its read ({@link HintPipe#cancelRead}).</li>
 *   <li>After counting itself, a worker looks once more for visible work before it blocks: our jobs may block
 *       their thread (EMPER's fibers never do), so a job pushed between a worker's last search and its count
 *       must not depend on its pusher.</li>
 *   <li>A worker that received a hint or a pending notification but leaves without searching (its latch was set)
 *       passes the notification on, so it is never spent on a worker that will not look.</li>
 * </ul>
 */
final class EmperSleep implements Sleep {
    private final EmperSleepers sleepers = new EmperSleepers();
    /** The workers' parkers, for their latch-ended parks only. */
    private final Parker[] parkers;
    private final HintPipe pipe = new HintPipe();
    private final HintPipe.Reader[] readers;
    private final PoolProbe probe;
    private final int roundsUntilSleep;
    private final IdleStatistics counts = new IdleStatistics();

    /**
     * A worker's idle state here: its rounds, and where the notifier that woke it said the new work is (a worker
     * index, {@link IdleState#INJECTOR}, or {@link IdleState#ANYWHERE}). Written on the worker's own thread, as it
     * wakes; the worker's next search looks there first.
     */
    static final class Idle extends IdleState {
        int rounds;
        int hint = ANYWHERE;

        Idle(int workerIndex) {
            super(workerIndex);
        }

        /** The hint, once; {@link #ANYWHERE} afterwards. */
        @Override
        int firstPlaceToLook() {
            int h = hint;
            hint = ANYWHERE;
            return h;
        }
    }

    /**
     * For one worker per parker; {@link Tunable#ROUNDS_UNTIL_SLEEPY} failed searches (yielding after each) before a
     * worker sleeps. Its sleepers wait on the pipe's lock; the parkers serve only the workers' latch-ended parks.
     */
    EmperSleep(Tuning tuning, Parker[] parkers, PoolProbe probe) {
        int threads = parkers.length;
        int roundsUntilSleep = tuning.getInt(Tunable.ROUNDS_UNTIL_SLEEPY);
        if (threads < 1 || threads > JecCounters.THREADS_MAX) {
            throw new IllegalArgumentException(
                    "thread count " + threads + " is out of range; allowed: 1.." + JecCounters.THREADS_MAX);
        }
        if (probe == null) {
            throw new NullPointerException("EmperSleep needs the pool's probe (for hints and its last look)");
        }
        if (roundsUntilSleep < 0) {
            throw new IllegalArgumentException("roundsUntilSleep must be >= 0, was " + roundsUntilSleep);
        }
        this.readers = new HintPipe.Reader[threads];
        for (int i = 0; i < threads; i++) {
            readers[i] = new HintPipe.Reader(pipe, parkers[i]);
        }
        this.probe = probe;
        this.parkers = parkers;
        this.roundsUntilSleep = roundsUntilSleep;
    }

    @Override
    public IdleState startLooking(int workerIndex) {
        counts.startLooking();
        return new Idle(workerIndex);
    }

    @Override
    public void workFound(IdleState idle) {
        counts.stopLooking();
        // Normally the worker's search took its hint (firstPlaceToLook). If it is still here, the worker leaves
        // the idle loop without having searched since it was notified (its latch was set, or its wait timed
        // out): pass the notification on rather than spend it on a worker that will not look.
        int unused = idle.firstPlaceToLook();
        if (unused != IdleState.ANYWHERE) {
            if (unused == IdleState.INJECTOR) {
                notifyAnywhere(1);
            } else {
                notifyEmper(1, unused);
            }
        }
    }

    @Override
    public void noWorkFound(IdleState state, CoreLatch latch, IdleContext context) {
        Idle idle = (Idle) state;
        IdleStatistics.countUselessWakeUp(idle, context);
        if (idle.rounds < roundsUntilSleep) {
            Thread.yield();
            idle.rounds++;
        } else {
            sleep(idle, latch, context);
        }
    }

    private void sleep(Idle idle, CoreLatch latch, IdleContext context) {
        idle.rounds = 0; // after any wake-up, all the rounds again
        if (!latch.getSleepy()) {
            return; // SET: the worker loop sees it
        }
        HintPipe.Reader me = readers[idle.workerIndex];
        WorkerStatistics stats = context.statistics();
        boolean didBlock = false;
        pipe.lock.lock();
        try {
            // Held from here until the wait: a latch setter that sees SLEEPING takes this lock to wake us.
            if (!latch.fallAsleep()) {
                return; // SET while we got sleepy
            }
            if (sleepers.countSleeper() < 0) {
                // A NotifyAnywhere found nobody to wake and left its notification for a worker about to sleep:
                // us. Search again, the injector first (it is also what we pass on if we leave unsearched).
                idle.hint = IdleState.INJECTOR;
            } else {
                pipe.postRead(me);
                if (me.reading && probe.hasVisibleWork()) {
                    // Work appeared between our last search and our count, and its notifier may have read the
                    // count before we were in it. Take it back and search.
                    pipe.cancelRead(me, sleepers);
                } else if (me.reading) {
                    me.sleeper.blocked = true;
                    didBlock = true;
                    counts.fellAsleep(stats);
                    me.sleeper.await(context); // a hint, our latch, or our timer deadline
                    counts.wokeUp();
                    if (me.reading) {
                        pipe.cancelRead(me, sleepers); // not woken by a hint
                    }
                }
                if (me.delivered != IdleState.ANYWHERE) {
                    idle.hint = me.delivered;
                    me.delivered = IdleState.ANYWHERE;
                }
            }
        } finally {
            pipe.lock.unlock();
        }
        if (didBlock) {
            IdleStatistics.countWakeUp(idle, latch, stats);
        }
        latch.wakeUp();
    }

    @Override
    public void newInternalJobs(int count, boolean queueWasEmpty) {
        // Fast path, one volatile read: nobody is counted, so nobody to claim (the pusher takes its own job).
        if (sleepers.get() > 0) {
            notifyEmper(count, probe.callingWorkerIndex());
        }
    }

    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        // The injector's push was a volatile CAS; notifyAnywhere starts with a volatile read of the count.
        notifyAnywhere(count);
    }

    private void notifyEmper(int count, int hint) {
        int toWake = sleepers.notifyEmper(count);
        if (toWake > 0) {
            pipe.write(toWake, hint >= 0 ? hint : IdleState.INJECTOR);
        }
    }

    private void notifyAnywhere(int count) {
        int toWake = sleepers.notifyAnywhere(count);
        if (toWake > 0) {
            pipe.write(toWake, IdleState.INJECTOR);
        }
    }

    /** A lock-based baseline keeps the yield the lone-job rule had before the pause. */
    @Override
    public boolean pausesBesideProducers() {
        return false;
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        pipe.lock.lock();
        try {
            readers[workerIndex].sleeper.wake(); // it withdraws its read itself (cancelRead)
        } finally {
            pipe.lock.unlock();
        }
        parkers[workerIndex].latchSet(); // or it is in a latch-ended park (the wait past the help bound)
    }

    @Override
    public void timerDeadlineChanged(int watcherIndex) {
        pipe.lock.lock();
        try {
            readers[watcherIndex].sleeper.rereadDeadline();
        } finally {
            pipe.lock.unlock();
        }
    }

    @Override
    public int sleepingThreads() {
        return counts.sleepingThreads();
    }

    @Override
    public int idleThreads() {
        return counts.idleThreads();
    }

    /** Test hook: the sleepers count. */
    public int sleepersCount() {
        return sleepers.get();
    }

    /** Test hook: hints that found no posted read (the proof says 0). */
    public int bufferedHints() {
        return pipe.bufferedHints();
    }

    @Override
    public String toString() {
        return "EmperSleep{" + sleepers + ", blocked=" + counts.sleepingThreads() + "}";
    }
}
