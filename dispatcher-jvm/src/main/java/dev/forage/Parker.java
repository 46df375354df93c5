package dev.forage;

/**
 * How one worker's thread blocks and is woken, apart from the sleep protocol that decides when (Tokio keeps its
 * idle accounting and its parker apart the same way). {@link ThreadParker} parks with {@code LockSupport}; the
 * parker of IO workers blocks in a NIO {@code Selector} and is woken by {@code wakeup()}, so that socket readiness
 * and new work wake the same thread ({@code docs/io.md}).
 *
 * <p>The contract is {@code LockSupport}'s permit, which the protocols' proofs rely on ({@code docs/sleep.md},
 * "Blocking and waking"):
 * <ul>
 *   <li>An {@link #unpark()} that comes before a {@link #park} makes that park return at once: a waker that
 *       publishes its decision and then unparks can never be lost, whichever thread runs first.</li>
 *   <li>{@code park} may return early (spuriously, on an interrupt, or for a stale unpark), so every caller parks
 *       in a loop that re-checks its own condition.</li>
 * </ul>
 * One parker per worker. Only the worker's current thread parks; any thread unparks. Every park of a worker's
 * thread goes through its parker: the sleep protocol's, the latch-ended park below, the drain after shutdown.
 */
abstract class Parker {
    /** {@link #park}: no deadline. */
    static final long FOREVER = Long.MAX_VALUE;

    /** True from before the owner's CAS of its latch to SLEEPING until after its latch-ended park. */
    private volatile boolean latchParked;
    /** How long the last latch-ended park parked, or -1 if it did not (its latch was SET first); a test hook. */
    private long lastLatchParkNanos = -1L;

    /**
     * Owner: the calling thread is the one a later {@link #unpark()} must reach. Called before the protocol
     * publishes that this worker may block (a single-threaded pool's worker changes threads between waits).
     */
    abstract void bindCurrentThread();

    /** Owner: blocks for at most {@code nanos} ({@link #FOREVER}: no limit), or until unparked or interrupted. */
    abstract void park(long nanos);

    /** Any thread: ends the bound thread's current park, or makes its next one return at once. */
    abstract void unpark();

    /**
     * Owner: whether this worker has something to do although nobody unparked it (an IO worker's parker found
     * socket readiness). The protocol then ends the sleep the way a passed deadline does. {@link ThreadParker}:
     * never.
     */
    abstract boolean eventsFound();

    /**
     * Owner, inside a job: blocks like {@link #park} but watches nothing else, so that a worker blocked in a job
     * does not spin on readiness it cannot serve (an IO worker's channels are left to the takeover meanwhile).
     */
    void parkInJob(long nanos) {
        park(nanos);
    }

    /**
     * Owner: the worker's one park that a set of {@code latch}, its own, ends at once. The JEC's nap, the search
     * policy's lone-job pause and a wait past the help bound all park here ({@code inJob}: the last, through
     * {@link #parkInJob}); only the latch's setter, through {@link #latchSet}, and the park's bound end it early.
     * Returns whether it parked: false when the latch was SET first.
     *
     * <p>Pair D of {@code docs/sleep.md}: the owner publishes {@link #latchParked} and then CASes its latch SLEEPY
     * to SLEEPING; a setter swaps in SET and, if it saw SLEEPING, reads {@code latchParked}. Volatile accesses are
     * totally ordered, so either the owner's CAS fails (SET came first, no park) or the setter sees the flag and
     * unparks the owner. An unpark that comes after the park ended is a spare permit, which at most shortens a
     * later park: every park of a worker loops or is bounded. jcstress {@code LatchSetVsLoneJobPause} pins it.
     */
    final boolean parkUntilSet(CoreLatch latch, long nanos, boolean inJob) {
        lastLatchParkNanos = -1L;
        if (!latch.getSleepy()) {
            return false; // SET: the caller sees it
        }
        bindCurrentThread();
        latchParked = true;
        boolean parked = latch.fallAsleep();
        if (parked) {
            // An interrupt (shutdownNow) makes this return at once; the caller decides what it means.
            long start = System.nanoTime();
            if (inJob) {
                parkInJob(nanos);
            } else {
                park(nanos);
            }
            lastLatchParkNanos = System.nanoTime() - start;
            latch.wakeUp();
        }
        latchParked = false;
        return parked;
    }

    /**
     * The setter of the owner's latch, which swapped out SLEEPING and found the owner not asleep in its protocol:
     * ends a latch-ended park in progress. Returns whether there was one.
     */
    final boolean latchSet() {
        if (latchParked) {
            unpark();
            return true;
        }
        return false;
    }

    /** Test hook, read after the owner's thread was joined: how long the last latch-ended park lasted, or -1. */
    final long lastLatchParkNanos() {
        return lastLatchParkNanos;
    }
}
