package dev.forage;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Parker} of an IO worker: it blocks in its {@link IoReactor}'s select, so that a waker's
 * {@link #unpark()} ({@code selector.wakeup()}) and socket readiness on the worker's channels wake the same thread
 * (EMPER's IO sleep; Tokio's parked worker parks in its IO driver). This class holds only the permit protocol;
 * what a select finds is the reactor's. The protocol and its proof are in {@code docs/io.md}, section 2; the step
 * labels below (P0..P4, U1..U2) point there.
 *
 * <p>Threads: {@link #unpark()} from any thread; everything else on the owner thread only.
 */
final class SelectorParker extends Parker {
    /** Where the owner blocks, for {@link #unpark()}: nowhere, in {@code select}, or in {@code LockSupport}. */
    private static final int RUNNING = 0;
    private static final int SELECTING = 1;
    private static final int PARKING = 2;
    /** In {@code LockSupport}, until a neighbour that took over the reactor releases its drive (T1). */
    private static final int AWAITING_DRIVE = 3;
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final IoReactor reactor;
    private volatile Thread thread;
    /** The permit (U1): set by every unpark, cleared by the owner when a park ends. */
    private volatile boolean permit;
    /** Published by the owner before it re-reads the permit and blocks (P1). */
    private volatile int blockedIn = RUNNING;

    /** Made by {@code reactor}, whose selector this parker blocks in. */
    SelectorParker(IoReactor reactor) {
        this.reactor = reactor;
    }

    @Override
    public void bindCurrentThread() {
        Thread current = Thread.currentThread();
        if (thread != current) {
            thread = current;
        }
    }

    /** Any thread: whether the owner blocks in its select now (its channels are watched). */
    boolean isSelecting() {
        return blockedIn == SELECTING;
    }

    /** A driver just released the reactor: the owner, if it waits for the drive, may take it now (T1). */
    void driveReleased() {
        if (blockedIn == AWAITING_DRIVE) {
            unpark();
        }
    }

    /**
     * P0..P4: let the reactor apply what was handed over, publish where we block, re-read the permit, block, and
     * let the reactor collect what the select found. A wait shorter than a millisecond (the protocol's nap, the
     * lone-job pause, a timer about to fire) parks in {@code LockSupport} instead, after a look without blocking:
     * {@code select} cannot wait less than a millisecond, and a nap that lasted a whole one would cost the neighbour
     * it protects. Readiness found by the look ends the wait before it starts; readiness that comes during it waits
     * for its end and the next look (the next short park's, or a select), since every short park starts with one.
     */
    @Override
    public void park(long nanos) {
        if (!reactor.tryDrive()) {
            parkPlain(nanos, AWAITING_DRIVE); // a neighbour looks at our selector for a moment (T1)
            return;
        }
        boolean mayBlock;
        try {
            mayBlock = reactor.prepareToBlock(); // P0
            if (mayBlock && nanos > 0) {
                if (nanos == FOREVER || nanos >= MILLI) {
                    select(nanos);
                    return;
                }
                mayBlock = !reactor.lookWithoutBlocking();
            }
        } finally {
            reactor.release();
        }
        if (mayBlock || reactor.isClosed()) { // a wait shorter than a millisecond; or no selector left after close
            parkPlain(nanos, PARKING);
        } // else a wait ended: the protocol ends the sleep (docs/io.md, section 4)
    }

    /** P1..P4, driving the reactor: a select blocks only under the drive, so no registration waits for it. */
    private void select(long nanos) {
        blockedIn = SELECTING; // P1
        try {
            if (permit) { // P2
                reactor.selectNow();
            } else {
                reactor.select(nanos); // P3
            }
        } finally {
            blockedIn = RUNNING; // P4
            reactor.selectEnded();
        }
        permit = false; // an unpark that came during the select was absorbed by it, as LockSupport's would be
        reactor.collectSelected(); // P4': the waits handed over during the select, then R2
    }

    /**
     * Parks in {@code LockSupport} for a wait shorter than a millisecond ({@code PARKING}), or until the neighbour
     * holding the drive releases it ({@code AWAITING_DRIVE}: published, then the drive re-read, the Dekker pair of
     * {@link IoReactor#release()}).
     */
    private void parkPlain(long nanos, int where) {
        if (nanos <= 0) {
            return;
        }
        blockedIn = where; // P1
        if (!permit && (where == PARKING || reactor.isDriven())) { // P2
            if (nanos == FOREVER) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, nanos);
            }
        }
        blockedIn = RUNNING;
        permit = false;
    }

    /**
     * A park inside a job ({@link Parker#parkInJob}): in {@code LockSupport}, never in the select, whose readiness
     * this worker could not serve before its job ends; the takeover watches its channels meanwhile.
     */
    @Override
    void parkInJob(long nanos) {
        parkPlain(nanos, PARKING);
    }

    /** U1: set the permit; U2: wake the owner where it blocks, if it does. */
    @Override
    public void unpark() {
        permit = true; // U1
        int where = blockedIn; // U2
        if (where == SELECTING) {
            reactor.wakeup(); // before a select, it makes that select return at once
        } else if (where == PARKING || where == AWAITING_DRIVE) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Test hook: whether an unpark left its permit that no park has absorbed yet. */
    boolean hasPermit() {
        return permit;
    }

    @Override
    public boolean eventsFound() {
        return reactor.hasReady();
    }

    @Override
    public String toString() {
        Thread t = thread;
        return "SelectorParker[" + (t == null ? "unbound" : t.getName()) + ", " + reactor + "]";
    }
}
