package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * EMPER's sleepers count, decremented by the notifier.
 *
 * <p>Value: workers counted as sleeping and not yet claimed by a notifier, minus pending notifications. A negative
 * value {@code -e} means {@code e} notifications found nobody to wake: the next {@code e} workers that are about to
 * sleep consume one each and search again instead ({@link #countSleeper} returns a negative value to them).
 *
 * <p>Why the notifier decrements, and why with CAS loops (EMPER's notes, in our words):
 * <ul>
 *   <li>If sleepers decremented the count themselves when they woke, two notifiers running close together would
 *       both read the same count, both decide to wake the same sleepers, and write twice as many hints as there
 *       are readers. In EMPER the surplus hints fill the pipe until a notifier blocks in {@code write}: a
 *       deadlock. Here the surplus would wake workers later for nothing. Claiming the sleepers with the same
 *       atomic step that reads them gives each sleeper to exactly one notifier.</li>
 *   <li>The claim must depend on the value read: {@code min(observed, n)} for a worker's notification, or
 *       "nothing if {@code n} are already pending" from anywhere. A blind {@code getAndAdd(-n)} followed by a
 *       correction ({@code +excess}) is racy: a second notifier can read the value between the two steps and
 *       count the first one's excess as sleepers (or as pending), so the two corrections together add back too
 *       much or too little, and the count no longer matches the readers. A CAS loop makes
 *       "read, decide, write" one step: a notifier whose CAS fails re-reads and decides again.</li>
 * </ul>
 */
final class EmperSleepers {
    private final AtomicInteger count = new AtomicInteger();

    public int get() {
        return count.get();
    }

    /**
     * A worker about to sleep counts itself. Returns the value before the increment: if it is negative, the worker
     * consumed a pending notification and must search again instead of sleeping.
     */
    public int countSleeper() {
        return count.getAndIncrement();
    }

    /**
     * {@code NotifyEmper(n)}, from a worker: claims {@code min(observed, n)} sleepers and returns how many hints
     * the caller must write. Returns 0 without writing when nobody is counted (the count never goes below 0
     * here: the calling worker is awake and will take its own job if nobody else does).
     */
    public int notifyEmper(int n) {
        while (true) {
            int observed = count.get();
            if (observed <= 0) {
                return 0;
            }
            int toWake = Math.min(observed, n);
            if (count.compareAndSet(observed, observed - toWake)) {
                return toWake;
            }
        }
    }

    /**
     * {@code NotifyAnywhere(n)}: takes {@code n} off the count even below zero, so that every one of the
     * {@code n} notifications takes effect, either as a sleeper woken now or as a pending notification that a
     * worker about to sleep consumes. Stops when {@code n} are already pending. Returns how many hints the caller
     * must write: {@code min(observed, n)} of the sleepers it saw, or 0.
     */
    public int notifyAnywhere(int n) {
        while (true) {
            int observed = count.get();
            if (observed <= -n) {
                return 0;
            }
            if (count.compareAndSet(observed, observed - n)) {
                return observed > 0 ? Math.min(observed, n) : 0;
            }
        }
    }

    /**
     * A counted worker that stops waiting for its own reason (its latch, its timer, or work it saw itself) gives
     * its count back, unless every counted worker is already claimed by a notifier whose hint is on its way;
     * returns false then, and the caller must wait for that hint instead.
     */
    public boolean uncountSleeper() {
        while (true) {
            int observed = count.get();
            if (observed <= 0) {
                return false;
            }
            if (count.compareAndSet(observed, observed - 1)) {
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return "EmperSleepers{" + get() + "}";
    }
}
