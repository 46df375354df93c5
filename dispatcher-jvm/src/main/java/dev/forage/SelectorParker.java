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
final class SelectorParker implements Parker {
    /** Where the owner blocks, for {@link #unpark()}: nowhere, in {@code select}, or in {@code LockSupport}. */
    private static final int RUNNING = 0;
    private static final int SELECTING = 1;
    private static final int PARKING = 2;
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

    /** Whether the calling thread is the bound one, which alone touches the reactor's selector keys. */
    boolean isOwner() {
        return Thread.currentThread() == thread;
    }

    /**
     * P0..P4: let the reactor apply what was handed over, publish where we block, re-read the permit, block, and
     * let the reactor collect what the select found. A wait shorter than a millisecond (the protocol's nap, a timer
     * about to fire) parks in {@code LockSupport} instead, where readiness waits for the next select: {@code select}
     * cannot wait less than a millisecond, and a nap that lasted a whole one would cost the neighbour it protects.
     */
    @Override
    public void park(long nanos) {
        if (!reactor.prepareToBlock()) { // P0
            if (reactor.isClosed()) {
                parkPlain(nanos); // after shutdown: no selector left to block in
            }
            return; // a wait ended: the protocol ends the sleep (docs/io.md, section 4)
        }
        if (nanos <= 0) {
            return;
        }
        if (nanos != FOREVER && nanos < MILLI) {
            parkPlain(nanos);
            return;
        }
        blockedIn = SELECTING; // P1
        try {
            if (permit) { // P2
                reactor.selectNow();
            } else {
                reactor.select(nanos); // P3
            }
        } finally {
            blockedIn = RUNNING; // P4
        }
        permit = false; // an unpark that came during the select was absorbed by it, as LockSupport's would be
        reactor.collectSelected();
    }

    private void parkPlain(long nanos) {
        if (nanos <= 0) {
            return;
        }
        blockedIn = PARKING; // P1
        if (!permit) { // P2
            if (nanos == FOREVER) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, nanos);
            }
        }
        blockedIn = RUNNING;
        permit = false;
    }

    /** U1: set the permit; U2: wake the owner where it blocks, if it does. */
    @Override
    public void unpark() {
        permit = true; // U1
        int where = blockedIn; // U2
        if (where == SELECTING) {
            reactor.wakeup(); // before a select, it makes that select return at once
        } else if (where == PARKING) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
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
