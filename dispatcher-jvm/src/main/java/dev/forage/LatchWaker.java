package dev.forage;

/**
 * What a latch calls to wake its owner worker: the sleep strategy's "latch set" event.
 */
interface LatchWaker {
    /** Wakes worker {@code workerIndex} if it is blocked; a no-op otherwise. */
    void notifyWorkerLatchIsSet(int workerIndex);
}
