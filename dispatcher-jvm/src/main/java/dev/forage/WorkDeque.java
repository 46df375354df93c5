package dev.forage;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A Chase-Lev work-stealing deque of jobs. Not part of Forage's API.
 *
 * <p>One owner thread calls {@link #push} and {@link #pop} at the bottom (LIFO); any thread calls
 * {@link #steal} at the top (FIFO). The buffer is a power-of-two ring that the owner doubles when full, up to a
 * capacity ({@link #DEFAULT_CAPACITY} jobs): a push to a full deque throws {@link RejectedExecutionException} and
 * changes nothing, so a job that spawns without bound meets a clear error instead of exhausting the heap.
 *
 * <p>Memory ordering (the JMM rendering of Lê et al., "Correct and Efficient Work-Stealing for Weak Memory
 * Models", PPoPP 2013):
 * <ul>
 *   <li>{@code push}: the slot is written with an ordered store, then {@code bottom} with a volatile store.
 *       Release would be enough for the deque itself (a thief that reads the new bottom sees the job); the
 *       volatile store is for the sleep protocol: it puts the push into the JMM's synchronization order
 *       before the pusher's read of the sleep counters, so an idle or sleepy worker that is counted after that
 *       read is sure to see the job (the Dekker pair of {@code docs/sleep.md} section 4.5, for internal jobs).
 *       ForkJoinPool pays the same full fence per push.</li>
 *   <li>{@code pop}: {@code bottom} is decremented with a volatile write and {@code top} read with a volatile
 *       read. Volatile accesses are totally ordered (the JMM's synchronization order), which is the StoreLoad
 *       fence the algorithm needs between "I reserve the last slot" and "did a thief take it?".</li>
 *   <li>{@code steal}: volatile reads of {@code top} then {@code bottom}, then a CAS on {@code top} that
 *       decides the race for the last job against the owner and other thieves.</li>
 * </ul>
 * Exactly one of {@code pop} and {@code steal} wins the last job: both must CAS {@code top} from the same
 * value (jcstress {@code DequeLastItemRace}; Lincheck {@code WorkDequeLincheckTest}).
 *
 * <p>Slots are cleared lazily: the owner nulls the slots thieves consumed when it next finds the deque empty,
 * wins its last job, or pushes with {@link #CLEAR_BATCH} consumed slots not yet cleared, so the buffer keeps at
 * most that many stolen jobs reachable. A slot below {@code top} is never returned again: a thief that reads a
 * cleared slot sees null and retries, and one that read the job before the clear fails its CAS.
 *
 * <p>Layout: {@code top} (written by thieves) and the owner's fields ({@code bottom}, {@code buffer},
 * {@code cleared}) sit on cache lines of their own, padded by superclasses (Java 8 has no {@code @Contended}
 * for library code), so neither shares a line with the other or with a neighbouring object that another thread
 * writes. Unpadded, which objects ended up side by side depended on allocation and GC order, and the same
 * benchmark ran at bimodal speeds from one JVM to the next.
 */
final class WorkDeque extends WorkDequeOwnerFields {
    /** Returned by {@link #steal()} when it lost a race and the deque may still hold work. */
    public static final Runnable RETRY = new Runnable() {
        @Override
        public void run() {
            throw new IllegalStateException("WorkDeque.RETRY is a marker, not a job");
        }

        @Override
        public String toString() {
            return "WorkDeque.RETRY";
        }
    };

    private static final int INITIAL_CAPACITY = 64;
    /**
     * The most jobs a deque holds, 2^22. At that size its ring is 16 MiB of references (compressed oops), so a
     * runaway producer meets the bound while the queue is a small part of even a 256 MiB heap; and it is four
     * times the largest "launch a million coroutines in a loop" programs, which on a one-thread pool queue every
     * child before the first one runs. {@code ForkJoinPool} bounds its queues at 2^26 for its index arithmetic,
     * which a 256 MiB heap cannot reach.
     */
    static final int DEFAULT_CAPACITY = 1 << 22;
    /**
     * A push clears the slots thieves consumed once this many have piled up: a worker that only produces (a
     * coroutine launching children that others run) never pops, so without it every stolen job stayed reachable
     * from the ring until the ring wrapped around, and a ring grown to 2^19 slots kept half a million finished
     * coroutines alive through every GC. 32 references are two cache lines with compressed oops.
     */
    static final int CLEAR_BATCH = 32;
    private static final AtomicLongFieldUpdater<WorkDequeTop> TOP =
            AtomicLongFieldUpdater.newUpdater(WorkDequeTop.class, "top");

    /** Trailing padding: the owner's fields end a line before whatever the JVM places next. */
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;

    /** The most jobs this deque holds, a power of two. */
    private final int capacity;

    public WorkDeque() {
        this(INITIAL_CAPACITY, CLEAR_BATCH, DEFAULT_CAPACITY);
    }

    /** A deque of the default ring that holds at most {@code capacity} jobs (a power of two, at least 64). */
    WorkDeque(int capacity) {
        this(INITIAL_CAPACITY, CLEAR_BATCH, capacity);
    }

    WorkDeque(int initialCapacity, int clearBatch) {
        this(initialCapacity, clearBatch, DEFAULT_CAPACITY);
    }

    /**
     * For tests: a ring of {@code initialCapacity} slots (a power of two) that a push clears every
     * {@code clearBatch} consumed slots, so that model checking reaches wrap-around, growth and the push-side
     * clearing within a few operations.
     */
    WorkDeque(int initialCapacity, int clearBatch, int capacity) {
        if (Integer.bitCount(initialCapacity) != 1 || clearBatch < 1 || Integer.bitCount(capacity) != 1
                || capacity < initialCapacity) {
            throw new IllegalArgumentException("initialCapacity and capacity must be powers of two with capacity >= "
                    + "initialCapacity, and clearBatch >= 1; were " + initialCapacity + ", " + capacity + " and "
                    + clearBatch);
        }
        this.capacity = capacity;
        this.buffer = new AtomicReferenceArray<>(initialCapacity);
        this.clearBatch = clearBatch;
    }

    /**
     * Owner only. Pushes a job at the bottom; returns whether the deque looked empty just before (the sleep
     * protocol's "queue was empty" signal), from the reads of {@code bottom} and {@code top} the push makes
     * anyway, so the pusher reads the thief-written {@code top} once per push, not twice.
     *
     * @throws RejectedExecutionException if the deque holds {@link #capacity()} jobs; nothing changed
     */
    public boolean push(Runnable job) {
        long b = bottom;
        long t = top;
        AtomicReferenceArray<Runnable> a = buffer;
        if (b - t >= a.length()) {
            a = grow(a, t, b);
        } else if (t - cleared >= clearBatch) {
            clearStolen(a, t, b);
        }
        a.lazySet(index(a, b), job);
        // Volatile, not lazySet: a thief that reads bottom == b + 1 sees the slot written above (release), and
        // the sleep protocol needs this store ordered before the pusher's next read of the counters (StoreLoad;
        // class comment). A lazySet here let a worker that was counted idle leave without seeing the job.
        bottom = b + 1;
        return b - t <= 0;
    }

    /** Owner only. Pops the newest job, or returns {@code null} when the deque is empty. */
    public Runnable pop() {
        // Fast path for the empty deque, which idle workers pop on every search: reads only, so thieves that
        // probe this deque keep their cached copy of bottom. Sound because only the owner adds jobs: if it
        // sees empty here, no job can appear until it pushes one itself.
        long t0 = top;
        if (bottom - t0 <= 0) {
            if (cleared != t0) {
                clearStolen(buffer, t0, t0);
            }
            return null;
        }
        long b = bottom - 1;
        AtomicReferenceArray<Runnable> a = buffer;
        // StoreLoad: the volatile write of bottom and the volatile read of top below are totally ordered
        // with a thief's read of bottom and CAS of top (see the class comment).
        bottom = b;
        long t = top;
        if (t > b) {
            // Empty: restore bottom, and clear the slots that thieves consumed.
            bottom = b + 1;
            clearStolen(a, t, t);
            return null;
        }
        int i = index(a, b);
        Runnable job = a.get(i);
        if (t == b) {
            // The last job: race the thieves for it with the same CAS they use.
            boolean won = TOP.compareAndSet(this, t, t + 1);
            bottom = b + 1;
            if (!won) {
                return null;
            }
            if (cleared != t) {
                clearStolen(a, t, t); // the slots thieves took before this one (job t is already read)
            }
            cleared = t + 1;
        }
        a.lazySet(i, null);
        return job;
    }

    /**
     * Any thread. Steals the oldest job; returns {@code null} when empty and {@link #RETRY} when it lost a race
     * to another thief or to the owner (the caller may try again or move on).
     */
    public Runnable steal() {
        long t = top;
        long b = bottom;
        if (t >= b) {
            return null;
        }
        AtomicReferenceArray<Runnable> a = buffer;
        Runnable job = a.get(index(a, t));
        // A null slot means the owner already cleared it, so top has moved and the CAS would fail anyway.
        if (job == null || !TOP.compareAndSet(this, t, t + 1)) {
            return RETRY;
        }
        return job;
    }

    /** {@link #loneJobIndex()}: the deque is empty. */
    public static final long NO_JOBS = -1L;
    /** {@link #loneJobIndex()}: the deque holds more than one job. */
    public static final long SEVERAL_JOBS = -2L;

    /**
     * Any thread; a snapshot. The index of the oldest job when the deque holds exactly one, otherwise
     * {@link #NO_JOBS} or {@link #SEVERAL_JOBS}. While {@code top} stays at that index the same job sits in the
     * deque: {@code top} only grows, and whoever takes the job at index {@code t} moves it past {@code t}.
     */
    public long loneJobIndex() {
        long t = top;
        long n = bottom - t;
        return n == 1 ? t : n <= 0 ? NO_JOBS : SEVERAL_JOBS;
    }

    /** Owner only: one past the index of the newest job ({@code bottom}); the index its next push takes. */
    long bottomIndex() {
        return bottom;
    }

    /** Any thread; a snapshot: the index of the oldest job if the deque holds any ({@code top}). */
    public long oldestIndex() {
        return top;
    }

    /** Any thread; a snapshot that may be stale by the time it returns. */
    public boolean isEmpty() {
        return bottom - top <= 0;
    }

    /** Any thread; a snapshot. */
    public int size() {
        long n = bottom - top;
        return n <= 0 ? 0 : (int) Math.min(n, Integer.MAX_VALUE);
    }

    /** The most jobs this deque holds. */
    int capacity() {
        return capacity;
    }

    private AtomicReferenceArray<Runnable> grow(AtomicReferenceArray<Runnable> old, long t, long b) {
        if (old.length() >= capacity) {
            // The caller names the pool and the worker; nothing was changed.
            throw new RejectedExecutionException("queue capacity exceeded: a worker's deque holds " + capacity
                    + " jobs");
        }
        AtomicReferenceArray<Runnable> a = new AtomicReferenceArray<>(old.length() << 1);
        for (long i = t; i < b; i++) {
            a.lazySet(index(a, i), old.get(index(old, i)));
        }
        // The old buffer is left intact: a thief that still reads it sees the same jobs at the same indices,
        // and its CAS on top decides ownership exactly as with the new buffer.
        buffer = a;
        cleared = t;
        return a;
    }

    /**
     * Nulls the consumed slots below {@code t}, except those that share a ring slot with a job still live in
     * {@code [t, liveEnd)}: index {@code i} and {@code i + length} are the same slot, so only indices from
     * {@code liveEnd - length} on are safe. A push may clear with a nearly full ring (up to {@code length - 1}
     * live jobs) and a long backlog, where the older indices are the live jobs' slots.
     */
    private void clearStolen(AtomicReferenceArray<Runnable> a, long t, long liveEnd) {
        long from = Math.max(cleared, liveEnd - a.length());
        for (long i = from; i < t; i++) {
            a.lazySet(index(a, i), null);
        }
        cleared = t;
    }

    private static int index(AtomicReferenceArray<Runnable> a, long i) {
        return (int) i & (a.length() - 1);
    }
}

abstract class WorkDequeTop extends LeadingPad {
    /** Index of the oldest job; only ever increases; advanced by CAS (thieves, and the owner for the last job). */
    volatile long top;
}

abstract class WorkDequePad1 extends WorkDequeTop {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class WorkDequeOwnerFields extends WorkDequePad1 {
    /** One past the newest job; written only by the owner. */
    volatile long bottom;
    volatile AtomicReferenceArray<Runnable> buffer;
    /** Owner-only: slots below this index have been nulled. */
    long cleared;
    /** A push clears the consumed slots once this many wait ({@code WorkDeque.CLEAR_BATCH} but in tests). */
    int clearBatch;
}
