package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one atomic word of Rayon's pre-RFC-5 sleep module ("The global state").
 *
 * <pre>
 *   bit  0      someone is asleep (or on the way: it holds the lock)     ASLEEP_BIT
 *   bits 1..31  (sleepy worker index + 1), or 0 when nobody is sleepy
 * </pre>
 * Examples from that module: 0 everyone awake; 1 some asleep, nobody sleepy; 2 worker 0 sleepy; 3 worker 0 sleepy
 * and some asleep. At most one worker is sleepy at a time, which is why one word is enough and nothing can roll
 * over. Every access is volatile: the module asks for SeqCst throughout, and its "Correctness level 2" scenarios
 * are exactly the Dekker pairs that the JMM's synchronization order gives volatile accesses.
 */
final class SleepyWorkerWord {
    /** Nobody sleepy, nobody asleep. */
    public static final int AWAKE = 0;
    /** The module's SLEEPING: some worker is asleep, or holds the lock on its way to sleep. */
    public static final int ASLEEP_BIT = 1;

    private final AtomicInteger word = new AtomicInteger(AWAKE);

    public int load() {
        return word.get();
    }

    /** {@code get_sleepy}: becomes the one sleepy worker if nobody is; false if someone else already is. */
    public boolean getSleepy(int workerIndex) {
        while (true) {
            int s = word.get();
            if (anyWorkerSleepy(s)) {
                return false; // wait our turn; a worker never asks twice (it counts rounds only on success)
            }
            if (word.compareAndSet(s, withSleepyWorker(s, workerIndex))) {
                return true;
            }
        }
    }

    /** {@code still_sleepy}: false once a tickle has cleared us. */
    public boolean stillSleepy(int workerIndex) {
        return workerIsSleepy(word.get(), workerIndex);
    }

    /**
     * The sleep CAS: from "this worker is sleepy" to exactly {@link #ASLEEP_BIT} (we stop being sleepy, and say
     * someone sleeps). The caller holds the sleep lock, so a tickle that sees the bit cannot notify before the
     * caller waits. False when a tickle cleared us first: the caller must not sleep.
     */
    public boolean fallAsleep(int workerIndex) {
        while (true) {
            int s = word.get();
            if (!workerIsSleepy(s, workerIndex)) {
                return false;
            }
            // Only a tickle can change the word while we are the sleepy one; the loop then returns false.
            if (word.compareAndSet(s, ASLEEP_BIT)) {
                return true;
            }
        }
    }

    /**
     * {@code tickle}: one volatile load when nobody is sleepy or asleep (the common case); otherwise a swap to
     * {@link #AWAKE}. Returns true when the swap found the asleep bit: the caller must wake every sleeper.
     */
    public boolean tickle() {
        if (word.get() == AWAKE) {
            return false;
        }
        return anyoneAsleep(word.getAndSet(AWAKE));
    }

    public static boolean anyoneAsleep(int word) {
        return (word & ASLEEP_BIT) != 0;
    }

    public static boolean anyWorkerSleepy(int word) {
        return (word >>> 1) != 0;
    }

    public static boolean workerIsSleepy(int word, int workerIndex) {
        return (word >>> 1) == workerIndex + 1;
    }

    /** The word with {@code workerIndex} as the sleepy worker and the asleep bit kept. */
    public static int withSleepyWorker(int word, int workerIndex) {
        return ((workerIndex + 1) << 1) | (word & ASLEEP_BIT);
    }

    /** The sleepy worker's index, or -1. */
    public static int sleepyWorker(int word) {
        return (word >>> 1) - 1;
    }

    public static String describe(int word) {
        return "SleepyWorkerWord{sleepy=" + sleepyWorker(word) + ", anyoneAsleep=" + anyoneAsleep(word) + ", word=0x"
                + Integer.toHexString(word) + "}";
    }

    @Override
    public String toString() {
        return describe(load());
    }
}
