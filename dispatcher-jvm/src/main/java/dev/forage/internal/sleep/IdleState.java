package dev.forage.internal.sleep;

/**
 * Evidence that a worker is idle (searching for work): created by {@link SleepStrategy#startLooking} and
 * consumed by {@link SleepStrategy#workFound}. Owned by one worker; never shared. <b>Internal</b>.
 */
public final class IdleState {
    /** {@link #jobsCounter} value meaning "not sleepy": a real JEC is a 32-bit unsigned value, never -1. */
    static final long NOT_SLEEPY = -1L;

    final int workerIndex;
    /** Failed searches since the worker became idle or was last woken. */
    int rounds;
    /** The JEC the worker saw when it got sleepy, or {@link #NOT_SLEEPY}. */
    long jobsCounter = NOT_SLEEPY;
    /** Set when the worker wakes from a sleep; the first search after it tells whether the wake-up was useful. */
    boolean justWoken;

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

    /** A new idle spell for a reused state: as if just created. Owner only. */
    IdleState restart() {
        wakeFully();
        justWoken = false;
        return this;
    }

    /** Back to the start: all the idle rounds again (Rayon's {@code wake_fully}). */
    void wakeFully() {
        rounds = 0;
        jobsCounter = NOT_SLEEPY;
    }

    /** Back to just before sleepy: announce again, search once more, then try to sleep ({@code wake_partly}). */
    void wakePartly(int roundsUntilSleepy) {
        rounds = roundsUntilSleepy;
        jobsCounter = NOT_SLEEPY;
    }
}
