package dev.forage;


/**
 * The narrow interface between the worker loop and a sleep protocol.
 *
 * <p>The worker loop (Rayon's {@code wait_until}) calls {@link #startLooking} when its local deque is empty,
 * then, after each failed search of every source, {@link #noWorkFound} (which may block), and
 * {@link #workFound} when a search succeeds or its latch is set. Producers call {@link #newInternalJobs} after a
 * push to a worker's own deque and {@link #newInjectedJobs} after a push to the injector; latches call
 * {@link #notifyWorkerLatchIsSet}. Those five events are all a strategy sees, plus one hook that only seed 003's
 * strategy uses ({@link #takeWakeHint}); a strategy that needs to look at the pool gets a {@link PoolProbe} when
 * it is built. The strategies, and how to select one: {@code docs/sleep-strategies.md}.
 *
 * <p>Contract every strategy must keep (the proofs in {@code docs/sleep.md} and the shared test suite check it):
 * <ul>
 *   <li>No lost wake-up for injected jobs: after {@code newInjectedJobs} returns, some worker that is not
 *       blocked will search the injector, or one is being woken.</li>
 *   <li>No lost latch wake-up: a worker blocked in {@code noWorkFound} on latch L is woken by
 *       {@code notifyWorkerLatchIsSet} after L is set.</li>
 *   <li>A worker blocks only inside {@code noWorkFound}, and only with its latch not set.</li>
 * </ul>
 */
interface SleepStrategy extends SleepWaker {
    /** {@link #takeWakeHint}: nobody said where the new work is. */
    int NO_HINT = -1;
    /** {@link #takeWakeHint}: the new work is in the injector. */
    int HINT_INJECTOR = -2;

    /** The worker found nothing locally and starts searching. */
    IdleState startLooking(int workerIndex);

    /** The worker found a job (or its latch was set) and leaves the idle state. */
    void workFound(IdleState idle);

    /** A full search found nothing. May spin, yield or block; returns to let the worker search again. */
    void noWorkFound(IdleState idle, CoreLatch latch, IdleContext context);

    /** {@code count} jobs were pushed to a worker's own deque, which held jobs before iff {@code !queueWasEmpty}. */
    void newInternalJobs(int count, boolean queueWasEmpty);

    /** {@code count} jobs were pushed to the injector (after the push: the PushFence side of the proof). */
    void newInjectedJobs(int count, boolean queueWasEmpty);

    /**
     * The earliest timer moved earlier; {@code watcherIndex} holds the timer watch and may be parked with a
     * later deadline: make it recompute its deadline without counting it as woken.
     */
    void timerDeadlineChanged(int watcherIndex);

    /**
     * Worker {@code workerIndex}, on its own thread, found its own deque empty: where does the thread that woke
     * it say the new work is (seed 003's wake-up hint)? A worker index, {@link #HINT_INJECTOR}, or
     * {@link #NO_HINT}; each hint is returned once. The worker looks there before it steals from the others.
     * Strategies without hints return {@link #NO_HINT}.
     */
    int takeWakeHint(int workerIndex);

    /** Workers counted as sleeping right now (a snapshot, for statistics and tests). */
    int sleepingThreads();

    /** Workers counted as idle but awake right now (a snapshot, for statistics and tests). */
    int idleThreads();
}
