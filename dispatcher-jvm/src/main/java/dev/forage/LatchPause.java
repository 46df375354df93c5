package dev.forage;

/**
 * One worker's bounded park that a set of the latch it waits for ends at once: the lone-job pause of its
 * {@link SearchPolicy} ({@code docs/sleep.md} section 4.6). Outside every sleep protocol: the worker stays counted
 * idle, no post ends the pause (the posts it waits for are the producer's), and only the latch's setter, through
 * {@link Registry#notifyWorkerLatchIsSet}, calls {@link #latchSet}.
 *
 * <p>The race with the setter is pair D of {@code docs/sleep.md}, as for the JEC's nap: the owner publishes
 * {@link #pausing} (volatile) and then CASes its latch SLEEPY to SLEEPING; a setter swaps in SET and, if it saw
 * SLEEPING, reads {@code pausing}. Volatile accesses are totally ordered, so either the owner's CAS fails (SET came
 * first, no park) or the setter sees {@code pausing} and unparks the owner. An unpark that comes after the pause
 * ended is a spare permit of the worker's {@link Parker}, which at most shortens a later park: every park of a
 * worker loops or is bounded. jcstress {@code LatchSetVsLoneJobPause} pins it.
 */
final class LatchPause {
    private final Parker parker;
    /** True from before the owner's CAS to SLEEPING until after its park. */
    private volatile boolean pausing;
    /** How long the last pause parked, or -1 if it did not park (its latch was SET first); a test hook. */
    private long lastParkNanos = -1L;

    /** {@code parker}: the worker's own, the one its sleep protocol parks it with. */
    LatchPause(Parker parker) {
        this.parker = parker;
    }

    /** Owner: parks for at most {@code nanos} (more than 0), unless {@code latch} is set first or meanwhile. */
    void pause(CoreLatch latch, long nanos) {
        lastParkNanos = -1L;
        if (!latch.getSleepy()) {
            return; // SET: the worker loop will see it
        }
        parker.bindCurrentThread();
        pausing = true;
        if (latch.fallAsleep()) {
            // An interrupt (shutdownNow) makes this return at once; it stays set for the protocol's next sleep,
            // which absorbs it.
            long start = System.nanoTime();
            parker.park(nanos);
            lastParkNanos = System.nanoTime() - start;
            latch.wakeUp();
        }
        pausing = false;
    }

    /** The setter of the owner's latch, which swapped out SLEEPING: ends a pause in progress. */
    void latchSet() {
        if (pausing) {
            parker.unpark();
        }
    }

    /** Test hook, read after the owner's thread was joined: see {@link #lastParkNanos}. */
    long lastParkNanos() {
        return lastParkNanos;
    }
}
