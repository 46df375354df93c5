package dev.forage;

/**
 * Evidence that a worker is idle (searching for work): created by {@link Sleep#startLooking} and
 * consumed by {@link Sleep#workFound}. Owned by one worker; never shared.
 */
final class IdleState {
    /** {@link #takeHint()}: nobody said where the new work is. */
    static final int NO_HINT = -1;
    /** {@link #takeHint()}: the new work is in the injector. */
    static final int HINT_INJECTOR = -2;

    /** {@link #jobsCounter} value meaning "not sleepy": a real JEC is a 32-bit unsigned value, never -1. */
    static final long NOT_SLEEPY = -1L;

    final int workerIndex;
    /** Failed searches since the worker became idle or was last woken. */
    int rounds;
    /** The JEC the worker saw when it got sleepy, or {@link #NOT_SLEEPY}. */
    long jobsCounter = NOT_SLEEPY;
    /** Set when the worker wakes from a sleep; the first search after it tells whether the wake-up was useful. */
    boolean justWoken;
    /**
     * Set when a sleep attempt found that work was posted since the worker got sleepy (a failed S2). While set,
     * each sleep attempt starts with a nap; it is cleared only when a sleep attempt that followed a nap succeeds
     * (a whole nap passed with nothing posted), and kept across idle spells (JecSleep, docs/sleep.md 3.7).
     */
    boolean sawPosts;
    /** Set by {@link #ownJobsTaken}; cleared by the yield it asks for. */
    boolean yieldBeforeSleep;
    /** Whether the worker has napped since it last got sleepy. */
    boolean napped;
    /**
     * Where the thread that woke this worker says the new work is (EMPER's wake-up hint): a worker index,
     * {@link #HINT_INJECTOR}, or {@link #NO_HINT}. Only a protocol with hints writes it (on the worker's own
     * thread, as it wakes); the worker's next search looks there first.
     */
    int hint = NO_HINT;

    IdleState(int workerIndex) {
        this.workerIndex = workerIndex;
    }

    public int workerIndex() {
        return workerIndex;
    }

    /** Whether the worker woke from a sleep and has not searched since. */
    public boolean justWoken() {
        return justWoken;
    }

    /**
     * Owner only: thieves took every job the worker pushed since its last take. Its next sleep attempt yields
     * once between getting sleepy and trying to sleep, so that a neighbour now running those jobs, which may
     * pop its own posts and share this worker's CPU, gets to post in that window (JecSleep, docs/sleep.md
     * section 3.7).
     */
    public void ownJobsTaken() {
        yieldBeforeSleep = true;
    }

    /** Owner only: the hint, once; {@link #NO_HINT} afterwards. */
    int takeHint() {
        int h = hint;
        hint = NO_HINT;
        return h;
    }

    /**
     * A new idle spell for a reused state: as if just created, except for the evidence about the neighbours
     * ({@link #sawPosts}, {@link #yieldBeforeSleep}), which outlives a spell. Owner only.
     */
    IdleState restart() {
        wakeFully();
        justWoken = false;
        return this;
    }

    /** Back to the start: all the idle rounds again (Rayon's {@code wake_fully}). */
    void wakeFully() {
        rounds = 0;
        jobsCounter = NOT_SLEEPY;
        napped = false;
    }

    /** Back to just before sleepy: announce again, search once more, then try to sleep ({@code wake_partly}). */
    void wakePartly(int roundsUntilSleepy) {
        rounds = roundsUntilSleepy;
        jobsCounter = NOT_SLEEPY;
        napped = false;
    }
}
