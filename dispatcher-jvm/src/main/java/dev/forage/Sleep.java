package dev.forage;

/**
 * A sleep protocol: who sleeps, and whom to wake. The narrow interface between the worker loop and the
 * protocol; how a thread actually blocks and is woken is the {@link Parker}'s business.
 *
 * <p>The worker loop (Rayon's {@code wait_until}) calls {@link #startLooking} when its local deque is empty,
 * then, after each failed search of every source, {@link #noWorkFound} (which may block), and
 * {@link #workFound} when a search succeeds or its latch is set. Producers call {@link #newInternalJobs} after a
 * push to a worker's own deque and {@link #newInjectedJobs} after a push to the injector; latches call
 * {@link #notifyWorkerLatchIsSet}. Those five events, plus the timer watch's deadline change, are all a protocol
 * sees; one that needs to look at the pool gets a {@link PoolProbe} when it is built, and one with wake-up hints
 * leaves them in the worker's {@link IdleState}. The default is {@link JecSleep}; the others are comparison
 * baselines ({@link SleepProtocol}, {@code docs/sleep-strategies.md}).
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
interface Sleep extends SleepWaker {
    /** The worker found nothing locally and starts searching. */
    IdleState startLooking(int workerIndex);

    /** The worker found a job (or its latch was set) and leaves the idle state. */
    void workFound(IdleState idle);

    /** A full search found nothing. May spin, yield or block; returns to let the worker search again. */
    void noWorkFound(IdleState idle, CoreLatch latch, IdleContext context);

    /**
     * A full search found nothing but a neighbour's lone job, which it left to its owner (the lone-job rule,
     * {@code docs/sleep.md} section 4.6), and that neighbour was seen producing (the worker loop yields instead
     * beside a chain). Pauses briefly without blocking for good, counted idle, and returns early if the latch is
     * set; the next search takes the job if it is still there.
     */
    void leftLoneJob(IdleState idle, CoreLatch latch);

    /** {@code count} jobs were pushed to a worker's own deque, which held jobs before iff {@code !queueWasEmpty}. */
    void newInternalJobs(int count, boolean queueWasEmpty);

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
}
