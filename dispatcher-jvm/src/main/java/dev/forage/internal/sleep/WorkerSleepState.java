package dev.forage.internal.sleep;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Per-worker blocking state (seed 002, "Mechanism for threads to go to sleep and be awoken"): a lock, a
 * condition, and the lock-guarded {@code isBlocked} flag that only the worker sets and only a waker clears.
 * <b>Internal</b>.
 *
 * <p>{@code sleepIntent} is a hint for wakers, not part of the proof's critical state: the worker sets it
 * (volatile) before it tries to count itself as a sleeper and clears it when it stops sleeping, so a waker that
 * has seen the sleeper in the counters also sees the intent and never skips a worker that is about to block.
 * Wakers skip workers without intent without taking their lock, which keeps a wake-up from costing one lock
 * acquisition per worker.
 */
final class WorkerSleepState {
    final ReentrantLock lock = new ReentrantLock();
    final Condition wakeUp = lock.newCondition();
    /** Guarded by {@link #lock}. True while the worker is blocked and nobody has woken it yet. */
    boolean isBlocked;
    volatile boolean sleepIntent;
}
