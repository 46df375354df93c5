package dev.forage;

/**
 * The sleep module's one atomic word (Rayon's sleep module, "The counters").
 *
 * <p>Bit layout of the 64-bit word, low to high:
 * <pre>
 *   bits  0..15  sleeping threads   (unit ONE_SLEEPING)
 *   bits 16..31  inactive threads   (unit ONE_INACTIVE) = idle + sleeping
 *   bits 32..63  jobs event counter (unit ONE_JEC); even: "sleepy", odd: "new work since the last sleepy"
 * </pre>
 * The JEC occupies the top bits, so adding {@code ONE_JEC} past its maximum wraps only the JEC: Java's
 * {@code long} addition overflows out of bit 63 and never carries into the thread counts (rollover; see
 * {@code docs/sleep.md}). A pool may therefore have at most {@link #THREADS_MAX} workers.
 *
 * <p>Every operation is a volatile read or read-modify-write; together with the injector's volatile publish
 * they form the Dekker pair that Rayon builds with two SeqCst fences.
 */
final class JecCounters {
    static final int THREADS_BITS = 16;
    /** The most workers a pool can have: the largest count a 16-bit field holds. */
    public static final int THREADS_MAX = (1 << THREADS_BITS) - 1;
    static final long THREADS_MASK = THREADS_MAX;
    static final long ONE_SLEEPING = 1L;
    static final long ONE_INACTIVE = 1L << THREADS_BITS;
    static final int JEC_SHIFT = 2 * THREADS_BITS;
    static final long ONE_JEC = 1L << JEC_SHIFT;

    /** Padded: every post reads it and every idle transition writes it; no neighbour should pay for that. */
    private final PaddedAtomicLong word = new PaddedAtomicLong();

    /** Volatile load of the whole word. */
    long load() {
        return word.get();
    }

    /** A worker starts looking for work: inactive += 1. */
    void addInactiveThread() {
        word.getAndAdd(ONE_INACTIVE);
    }

    /**
     * A worker leaves the inactive state: inactive -= 1. Returns the number of sleepers at that moment, so the
     * caller can apply its ramp-up rule (Rayon wakes up to 2 of them).
     */
    int subInactiveThread() {
        long old = word.getAndAdd(-ONE_INACTIVE);
        assert inactiveThreads(old) > 0 : "inactive underflow: " + describe(old);
        return sleepingThreads(old);
    }

    /** Called by the thread that wakes a sleeper: the waker decrements, not the sleeper (as in Rayon). */
    void subSleepingThread() {
        long old = word.getAndAdd(-ONE_SLEEPING);
        assert sleepingThreads(old) > 0 : "sleeping underflow: " + describe(old);
    }

    /**
     * The whole-word CAS of Rayon's sleep module: adds one sleeper only if no field of the word changed since
     * {@code old} was read, in particular the JEC. Returns false when anything moved; the caller re-reads and decides
     * again.
     */
    boolean tryAddSleepingThread(long old) {
        assert sleepingThreads(old) < THREADS_MAX : "sleeping overflow: " + describe(old);
        return word.compareAndSet(old, old + ONE_SLEEPING);
    }

    /** Posting work: make the JEC odd if it is even (sleepy). Returns the word after the update. */
    long incrementJecIfSleepy() {
        while (true) {
            long old = word.get();
            if (!isJecSleepy(old)) {
                return old;
            }
            long updated = old + ONE_JEC;
            if (word.compareAndSet(old, updated)) {
                return updated;
            }
        }
    }

    /** Getting sleepy: make the JEC even if it is odd (active). Returns the word after the update. */
    long incrementJecIfActive() {
        while (true) {
            long old = word.get();
            if (isJecSleepy(old)) {
                return old;
            }
            long updated = old + ONE_JEC;
            if (word.compareAndSet(old, updated)) {
                return updated;
            }
        }
    }

    /** Test hook: sets the whole word, for rollover tests. */
    void setForTest(long value) {
        word.set(value);
    }

    static int sleepingThreads(long word) {
        return (int) (word & THREADS_MASK);
    }

    static int inactiveThreads(long word) {
        return (int) ((word >>> THREADS_BITS) & THREADS_MASK);
    }

    /** Threads that are searching for work and not asleep. */
    static int awakeButIdleThreads(long word) {
        return inactiveThreads(word) - sleepingThreads(word);
    }

    static long jec(long word) {
        return word >>> JEC_SHIFT;
    }

    static boolean isJecSleepy(long word) {
        return (jec(word) & 1L) == 0L;
    }

    static String describe(long word) {
        return "JecCounters{sleeping=" + sleepingThreads(word) + ", inactive=" + inactiveThreads(word)
                + ", jec=" + jec(word) + ", word=0x" + Long.toHexString(word) + "}";
    }

    @Override
    public String toString() {
        return describe(load());
    }
}
