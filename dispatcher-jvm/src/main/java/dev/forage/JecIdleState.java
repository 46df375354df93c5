package dev.forage;

/**
 * A worker's idle state in the jobs-event-counter protocol ({@link JecSleep}): its idle rounds, the JEC it saw
 * when it got sleepy (S1), and the evidence about its neighbours that times the nap ({@code docs/sleep.md}
 * sections 3.1 to 3.7). One per worker, reused by every idle spell. Owner thread only.
 */
final class JecIdleState extends IdleState {
    /** {@link #jobsCounter} value meaning "not sleepy": a real JEC is a 32-bit unsigned value, never -1. */
    static final long NOT_SLEEPY = -1L;

    /** Failed searches since the worker became idle or was last woken. */
    int rounds;
    /** The JEC the worker saw when it got sleepy, or {@link #NOT_SLEEPY}. */
    long jobsCounter = NOT_SLEEPY;
    /**
     * Set when a sleep attempt found that work was posted since the worker got sleepy (a failed S2). While set,
     * each sleep attempt starts with a nap; it is cleared only when a sleep attempt that followed a nap succeeds
     * (a whole nap passed with nothing posted), and kept across idle spells (docs/sleep.md section 3.7).
     */
    boolean sawPosts;
    /** Set by {@link #ownJobsTaken}; cleared by the yield it asks for. */
    boolean yieldBeforeSleep;
    /** Whether the worker has napped since it last got sleepy. */
    boolean napped;

    JecIdleState(int workerIndex) {
        super(workerIndex);
    }

    /**
     * Its next sleep attempt yields once between getting sleepy and trying to sleep, so that a neighbour now
     * running the jobs this worker pushed, which may pop its own posts and share this worker's CPU, gets to post
     * in that window (docs/sleep.md section 3.7).
     */
    @Override
    void ownJobsTaken() {
        yieldBeforeSleep = true;
    }

    /**
     * A new idle spell for a reused state: as if just created, except for the evidence about the neighbours
     * ({@link #sawPosts}, {@link #yieldBeforeSleep}), which outlives a spell.
     */
    JecIdleState restart() {
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
