package dev.forage;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Rayon's pre-RFC-5 sleep module, kept as the baseline the jobs-event-counter protocol is measured against.
 * Selected with {@code SleepProtocol.RAYON_PRE_RFC5}.
 *
 * <p>One worker at a time may be sleepy ({@link SleepyWorkerWord}). An idle worker searches
 * {@link Tunable#PRE_RFC5_ROUNDS_UNTIL_SLEEPY} rounds, tries to become the sleepy one, searches on while it stays
 * sleepy, and after {@link Tunable#PRE_RFC5_ROUNDS_UNTIL_ASLEEP} rounds falls asleep with the word's CAS under the
 * one lock. Every event
 * (a new job, from inside or outside, and a latch set) {@linkplain #tickle tickles}: it clears the sleepy worker
 * and, when the asleep bit was set, wakes every sleeper. Design, proof sketch and differences from Rayon:
 * {@code docs/sleep-strategies.md} section 3.
 *
 * <p>Latches keep the core's four states (as {@link JecSleep} does): the owner goes SLEEPY, then SLEEPING under
 * the lock, so a setter reaches {@link #notifyWorkerLatchIsSet} only when the owner may be asleep on that latch,
 * and the tickle it causes wakes everyone, the owner included. The sleeping and idle counts are statistics only:
 * no decision reads them.
 */
final class SleepyWorkerSleep implements Sleep {
    private final SleepyWorkerWord word = new SleepyWorkerWord();
    /** The module's one lock: held from the sleep CAS until the wait, and by a tickle that wakes sleepers. */
    private final ReentrantLock lock = new ReentrantLock();
    private final SharedLockSleepState[] sleepers;
    private final int roundsUntilSleepy;
    private final int roundsUntilAsleep;
    private final IdleStatistics counts = new IdleStatistics();
    /** The workers' parkers, for their latch-ended parks only. */
    private final Parker[] parkers;

    /** A worker's idle state here: its rounds. */
    private static final class Idle extends IdleState {
        int rounds;

        Idle(int workerIndex) {
            super(workerIndex);
        }
    }

    /**
     * For one worker per parker, with the module's rounds from {@code tuning}
     * ({@link Tunable#PRE_RFC5_ROUNDS_UNTIL_SLEEPY} &lt; {@link Tunable#PRE_RFC5_ROUNDS_UNTIL_ASLEEP}). Its sleepers
     * wait on the module's lock; the parkers serve only the workers' latch-ended parks.
     */
    SleepyWorkerSleep(Tuning tuning, Parker[] parkers) {
        int threads = parkers.length;
        int roundsUntilSleepy = tuning.getInt(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY);
        int roundsUntilAsleep = tuning.getInt(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP);
        if (threads < 1 || threads > JecCounters.THREADS_MAX) {
            throw new IllegalArgumentException(
                    "thread count " + threads + " is out of range; allowed: 1.." + JecCounters.THREADS_MAX);
        }
        if (roundsUntilSleepy < 0 || roundsUntilAsleep <= roundsUntilSleepy) {
            throw new IllegalArgumentException("rounds must satisfy 0 <= roundsUntilSleepy < roundsUntilAsleep "
                    + "(a sleepy worker searches at least once more); was " + roundsUntilSleepy + ", "
                    + roundsUntilAsleep);
        }
        this.sleepers = new SharedLockSleepState[threads];
        for (int i = 0; i < threads; i++) {
            sleepers[i] = new SharedLockSleepState(lock, parkers[i]);
        }
        this.roundsUntilSleepy = roundsUntilSleepy;
        this.roundsUntilAsleep = roundsUntilAsleep;
        this.parkers = parkers;
    }

    @Override
    public IdleState startLooking(int workerIndex) {
        counts.startLooking();
        return new Idle(workerIndex);
    }

    @Override
    public void workFound(IdleState idle) {
        if (((Idle) idle).rounds > roundsUntilSleepy) {
            // We got sleepy in this idle spell and may still be: release the sleepy slot. Rayon's pre-RFC-5 module
            // does it with a full tickle, which also wakes the sleepers ("a bit extreme", its own comment says). Kept
            // as is.
            tickle();
        }
        counts.stopLooking();
    }

    @Override
    public void noWorkFound(IdleState state, CoreLatch latch, IdleContext context) {
        Idle idle = (Idle) state;
        IdleStatistics.countUselessWakeUp(idle, context);
        int index = idle.workerIndex;
        if (idle.rounds < roundsUntilSleepy) {
            Thread.yield();
            idle.rounds++;
        } else if (idle.rounds == roundsUntilSleepy) {
            Thread.yield();
            if (word.getSleepy(index)) {
                idle.rounds++; // otherwise someone else is sleepy: try again after the next search
            }
        } else if (idle.rounds < roundsUntilAsleep) {
            Thread.yield();
            if (word.stillSleepy(index)) {
                idle.rounds++;
            } else {
                idle.rounds = 0; // tickled: new work was posted, back to awake
            }
        } else {
            sleep(idle, latch, context);
        }
    }

    private void sleep(Idle idle, CoreLatch latch, IdleContext context) {
        // A latch SET before SLEEPING reaches no tickle (the four-state latch calls notifyWorkerLatchIsSet only for
        // SLEEPING), so on those two returns we still hold the sleepy slot. Keep the rounds: the worker loop sees the
        // latch and calls workFound, whose tickle releases the slot, as the pre-RFC-5 module's work_found does.
        // Otherwise no worker could ever get sleepy again (one sleepy worker at a time), and an idle pool would
        // yield-spin until some unrelated job tickled.
        if (!latch.getSleepy()) {
            return; // SET: the worker loop sees it
        }
        SharedLockSleepState me = sleepers[idle.workerIndex];
        WorkerStatistics stats = context.statistics();
        boolean blocked = false;
        lock.lock();
        try {
            if (!latch.fallAsleep()) {
                return; // SET while we got sleepy
            }
            // From here the slot is freed (by our sleep CAS or by the tickle that makes it fail): the next idle
            // spell starts awake.
            idle.rounds = 0;
            // The word's CAS under the lock: a tickle that swaps the word after it sees the asleep bit and must
            // take this lock to notify, which it gets only once we wait.
            if (word.fallAsleep(idle.workerIndex)) {
                me.blocked = true;
                blocked = true;
                counts.fellAsleep(stats);
                me.await(context); // until a tickle, our timer deadline, or our latch's tickle
                counts.wokeUp();
            }
        } finally {
            lock.unlock();
        }
        if (blocked) {
            IdleStatistics.countWakeUp(idle, latch, stats);
        }
        latch.wakeUp();
    }

    /** The pre-RFC-5 module's {@code tickle}: clear the sleepy worker; if anyone was asleep, wake them all. */
    private void tickle() {
        if (!word.tickle()) {
            return;
        }
        lock.lock();
        try {
            for (SharedLockSleepState s : sleepers) {
                s.wake();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void newInternalJobs(int count, boolean queueWasEmpty) {
        tickle();
    }

    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        // The injector's push was a volatile CAS and the tickle starts with a volatile load of the word: the
        // "tickle-then-get-sleepy" / "get-sleepy-then-get-tickled" pair of Rayon's pre-RFC-5 module, in the JMM's
        // total order.
        tickle();
    }

    /** A lock-based baseline keeps the yield the lone-job rule had before the pause. */
    @Override
    public boolean pausesBesideProducers() {
        return false;
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        tickle();
        parkers[workerIndex].latchSet(); // or it is in a latch-ended park (the wait past the help bound)
    }

    @Override
    public void timerDeadlineChanged(int watcherIndex) {
        lock.lock();
        try {
            sleepers[watcherIndex].rereadDeadline();
        } finally {
            lock.unlock();
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

    /** Test hook: the word. */
    public int word() {
        return word.load();
    }

    @Override
    public String toString() {
        return "SleepyWorkerSleep" + word;
    }
}
