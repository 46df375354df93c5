package dev.forage.internal.latch;

/**
 * What a latch calls to wake its owner worker: the sleep strategy's "latch set" event. <b>Internal</b>.
 */
public interface SleepWaker {
    /** Wakes worker {@code workerIndex} if it is blocked; a no-op otherwise. */
    void notifyWorkerLatchIsSet(int workerIndex);
}
