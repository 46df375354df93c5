package dev.forage;

/**
 * A sleep protocol: who sleeps, and whom to wake. The narrow interface between the worker loop and the
 * protocol; how a thread actually blocks and is woken is the {@link Parker}'s business.
 *
 * <p>The worker loop (Rayon's {@code wait_until}) calls {@link #startLooking} when its local deque is empty,
 * then, after each failed search of every source, {@link #noWorkFound} (which may block), and
 * {@link #workFound} when a search succeeds or its latch is set. Producers call {@link #newInternalJobs} after a
 * push to a worker's own deque and {@link #newInjectedJobs} after a push to the injector; latches call
 * {@link #notifyWorkerLatchIsSet}. Those six events, plus the timer watch's deadline change, are all a protocol
 * sees; one that needs to look at the pool gets a {@link PoolProbe} when it is built, and its per-worker state lives
 * in the {@link IdleState} it makes (a wake-up hint reaches the search as {@link IdleState#firstPlaceToLook}). What
 * a worker looks at and what it does between searches before it calls {@code noWorkFound} is not the protocol's
 * business but the worker's search ({@link Worker}'s). Each protocol is built from the pool's {@link Tuning}, a
 * {@code PoolProbe} and, for those that block through them, the workers' {@link Parker}s, and nothing else, so a
 * test can drive one apart from any pool. The default is {@link JecSleep}; the others are comparison
 * baselines ({@link SleepProtocol}, {@code docs/sleep-strategies.md}), in a source root of their own
 * ({@code src/main/baselines}), and the engine builds its protocol through a {@link Factory} without naming them.
 *
 * <p>Contract every protocol must keep (the proofs in {@code docs/sleep.md} and the shared test suite check it):
 * <ul>
 *   <li>No lost wake-up for injected jobs: after {@code newInjectedJobs} returns, some worker that is not
 *       blocked will search the injector, or one is being woken.</li>
 *   <li>No lost latch wake-up: a worker blocked in {@code noWorkFound} on latch L is woken by
 *       {@code notifyWorkerLatchIsSet} after L is set.</li>
 *   <li>A worker blocks only inside {@code noWorkFound}, and only with its latch not set.</li>
 * </ul>
 */
interface Sleep extends LatchWaker {
    /**
     * The worker found nothing locally and starts searching. Returns this protocol's own state for the idle spell,
     * which the worker hands back to every call until {@link #workFound}; the worker reads it only through
     * {@link IdleState}'s protocol-neutral questions.
     */
    IdleState startLooking(int workerIndex);

    /** The worker found a job (or its latch was set) and leaves the idle state. */
    void workFound(IdleState idle);

    /** A full search found nothing. May spin, yield or block; returns to let the worker search again. */
    void noWorkFound(IdleState idle, CoreLatch latch, IdleContext context);

    /** {@code count} jobs were pushed to a worker's own deque, which held jobs before iff {@code !queueWasEmpty}. */
    void newInternalJobs(int count, boolean queueWasEmpty);

    /**
     * One job was pushed to a worker's own deque: {@link #newInternalJobs} with {@code pushedTo}'s answer for
     * {@code queueWasEmpty}. A protocol that needs the answer only in some cases asks only then (the JEC: when a
     * worker sleeps or naps), which spares the pusher a read of the deque's {@code top}, the line thieves write.
     */
    default void newInternalJob(PushedTo pushedTo) {
        newInternalJobs(1, pushedTo.heldNoOtherJob());
    }

    /** The deque a worker just pushed one job on, as {@link #newInternalJob} sees it: implemented by the worker. */
    interface PushedTo {
        /** Whether the deque holds no job but the one just pushed, read now: the post's {@code queueWasEmpty}. */
        boolean heldNoOtherJob();
    }

    /** {@code count} jobs were pushed to the injector (after the push: the PushFence side of the proof). */
    void newInjectedJobs(int count, boolean queueWasEmpty);

    /**
     * The earliest timer moved earlier; {@code watcherIndex} holds the timer watch and may be parked with a
     * later deadline: make it recompute its deadline without counting it as woken.
     */
    void timerDeadlineChanged(int watcherIndex);

    /** Workers counted as sleeping right now (a snapshot, for statistics and tests). */
    int sleepingThreads();

    /** Workers counted as idle but awake right now (a snapshot, for statistics and tests). */
    int idleThreads();

    /**
     * No worker is counted idle or asleep (a snapshot, volatile reads only): a job posted now waits for a busy
     * worker. The monitor's cue to look for workers blocked in user code.
     */
    default boolean noWorkerIdle() {
        return sleepingThreads() == 0 && idleThreads() == 0;
    }

    /**
     * Whether a worker that left a lone job beside a producer pauses ({@link Tunable#LONE_JOB_PAUSE_NANOS},
     * {@link Worker}'s search) rather than yields: with the JEC protocols. The lock-based baselines keep the one yield
     * that the lone-job rule had before the pause, so that they measure what they measured.
     */
    default boolean pausesBesideProducers() {
        return true;
    }

    /**
     * What builds a pool's protocol, for one worker per parker. The first {@code coreWorkers} parkers belong to the
     * pool's threads, the others to the extra slots that stand in for blocked workers. The
     * registry calls it once, when it builds the pool, and keeps what it returns: the protocol itself, so that an
     * event costs no call beyond the one on the protocol. {@link PoolSettings} carries it, and the pool's builder
     * fills it with the one its {@link SleepProtocol} names, from beside the comparison baselines.
     */
    interface Factory {
        Sleep build(Tuning tuning, Parker[] parkers, int coreWorkers, PoolProbe probe);
    }
}
