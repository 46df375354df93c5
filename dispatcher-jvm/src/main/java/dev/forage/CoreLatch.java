package dev.forage;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The four-state latch of Rayon RFC #5, appendix A.
 *
 * <pre>
 *   UNSET --getSleepy--> SLEEPY --fallAsleep--> SLEEPING --wakeUp--> UNSET
 *     any state --set--> SET (final)
 * </pre>
 * Only the owner calls {@link #getSleepy}, {@link #fallAsleep} and {@link #wakeUp}; any thread calls
 * {@link #setCore}. The owner holds its own sleep lock from before {@code fallAsleep} until it blocks on its
 * condition; a setter that sees SLEEPING takes the same lock before signalling, so it cannot signal before the
 * owner blocks (no lost wake-up; proof in {@code docs/sleep.md}, "Latches"; jcstress {@code LatchSetVsSleep}).
 * A setter that sees UNSET or SLEEPY does nothing: the owner's next CAS fails and it does not block.
 */
abstract class CoreLatch implements Latch {
    static final int UNSET = 0;
    static final int SLEEPY = 1;
    static final int SLEEPING = 2;
    static final int SET = 3;

    private static final AtomicIntegerFieldUpdater<CoreLatch> STATE =
            AtomicIntegerFieldUpdater.newUpdater(CoreLatch.class, "state");

    private volatile int state;

    @Override
    public final boolean probe() {
        return state == SET;
    }

    /** Owner: UNSET to SLEEPY. False means the latch is SET and the owner must not sleep. */
    public final boolean getSleepy() {
        return STATE.compareAndSet(this, UNSET, SLEEPY);
    }

    /** Owner, holding its sleep lock: SLEEPY to SLEEPING. False means the latch is SET. */
    public final boolean fallAsleep() {
        return STATE.compareAndSet(this, SLEEPY, SLEEPING);
    }

    /** Owner, after waking: back to UNSET unless a setter got there first (then it stays SET). */
    public final void wakeUp() {
        // A failed CAS means a setter published SET while we slept: it stays SET.
        STATE.compareAndSet(this, SLEEPING, UNSET);
    }

    /**
     * Any thread: publishes SET. Returns true when the owner was SLEEPING on this latch, in which case the
     * caller must wake the owner (it is the only thread that knows it has to).
     */
    protected final boolean setCore() {
        return STATE.getAndSet(this, SET) == SLEEPING;
    }

    /** For diagnostics and tests. */
    final int state() {
        return state;
    }

    @Override
    public String toString() {
        String[] names = {"UNSET", "SLEEPY", "SLEEPING", "SET"};
        return getClass().getSimpleName() + "[" + names[state] + "]";
    }
}
