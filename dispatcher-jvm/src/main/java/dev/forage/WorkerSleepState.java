package dev.forage;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Per-worker blocking state (Rayon RFC #5, "Mechanism for threads to go to sleep and be awoken"): a lock and the
 * {@code isBlocked} flag that only the worker sets and only a waker (or the worker itself, on its own deadline)
 * clears, both under the lock. The worker parks through its {@link Parker}, outside the lock; a waker unparks it after
 * clearing the flag (docs/sleep.md sections 3.3 and 3.4).
 *
 * <p>{@code sleepIntent} is a hint for wakers, not part of the proof's critical state: the worker sets it
 * (volatile) before it tries to count itself as a sleeper and clears it when it stops sleeping, so a waker that
 * has seen the sleeper in the counters also sees the intent and never skips a worker that is about to block.
 * Wakers skip workers without intent without taking their lock, which keeps a wake-up from costing one lock
 * acquisition per worker.
 */
final class WorkerSleepState {
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
