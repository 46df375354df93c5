package dev.forage;

/**
 * Evidence that a worker is idle (searching for work): made by {@link Sleep#startLooking} and consumed by
 * {@link Sleep#workFound}, as Rayon's {@code IdleState}. Opaque to the worker loop: each protocol keeps its own
 * state for the spell in a subclass of its own (the jobs event counter's in {@link JecSleep.JecIdleState}, EMPER's
 * wake-up hint in the EMPER baseline's) and reads it back by casting the state it made. The worker loop asks
 * only the protocol-neutral questions below. Owned by one worker; never shared.
 */
abstract class IdleState {
    /** {@link #firstPlaceToLook()}: the protocol does not say where new work is. */
    static final int ANYWHERE = -1;
    /** {@link #firstPlaceToLook()}: the new work is in the injector. */
    static final int INJECTOR = -2;

    final int workerIndex;
    /**
     * Set by the protocol when the worker wakes from a sleep, cleared by it when the next search failed
     * ({@link IdleStatistics#countUselessWakeUp}).
     */
    boolean justWoken;

    IdleState(int workerIndex) {
        this.workerIndex = workerIndex;
    }

    /** Whether the worker woke from a sleep and has not searched since. */
    final boolean justWoken() {
        return justWoken;
    }

    /**
     * Owner, once per search: where the thread that woke this worker said the new work is (EMPER's wake-up hint),
     * a worker index or {@link #INJECTOR}; {@link #ANYWHERE} when nobody said, or after the first call.
     */
    int firstPlaceToLook() {
        return ANYWHERE;
    }

    /**
     * Owner, as the spell begins: thieves took every job the worker pushed since its last take, as when a
     * neighbour now runs a chain that was the worker's own. A protocol may use it to time its next sleep attempt
     * (JEC: {@code docs/sleep.md} section 3.7); the others ignore it.
     */
    void ownJobsTaken() {
    }
}
