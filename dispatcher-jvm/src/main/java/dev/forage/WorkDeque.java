package dev.forage;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

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
 * <p>The next slot (Tokio's LIFO slot, Go's {@code runnext}): {@link #pushNext} puts a job in one field beside
 * the ring when that field is empty, and the owner's {@link #pop} takes it before anything in the ring. A job
 * that the running job resumes (a coroutine woken by a channel send) then runs next on the same worker, and the
 * hand-off costs one volatile store and one CAS instead of the ring's index updates: its push's store and the
 * pop's store, load and CAS of the last job. The slot is not private: a thief takes its job once no ring job is
 * older ({@link #steal}), so it is in the queue like any other job, and the sleep protocol's checks see it
 * ({@link #isEmpty}). The owner's order is then: the slot, then the ring's newest; thieves' order stays the
 * oldest first. {@link #push} moves the slot's job into the ring before it pushes, so that the pushed job is the
 * owner's next pop (a join's second half), and {@link #floorForNewJobs} does the same before a scope records
 * where its own jobs start. Exactly one of the owner and the thieves wins the slot's job: all take it by a CAS to
 * null, and a job is put in the slot once (jcstress {@code DequeNextSlotRace}).
 *
 * <p>Slots are cleared lazily: the owner nulls the slots thieves consumed when it next finds the deque empty,
 * wins its last job, or reads {@code top} in a push (below) and finds {@link #CLEAR_BATCH} consumed slots not yet
 * cleared, so a producer that never pops keeps stolen jobs reachable for at most that many pushes. A slot below
 * {@code top} is never returned again: a thief that reads a cleared slot sees null and retries, and one that read
 * the job before the clear fails its CAS.
 *
 * <p>The owner's view of {@code top}: a push compares {@code bottom} with {@code topSeen}, the value of
 * {@code top} the owner last read. Since {@code top} only grows, that view never shows the ring emptier than it
 * is, so a push that would overwrite a live job or exceed the capacity by that view reads {@code top} again before
 * it grows the ring or refuses the job; otherwise it reads {@code top} once in {@link #CLEAR_BATCH} pushes, to
 * clear. Beside a thief that takes each job as it is pushed (a coroutine that launches children in a loop), the
 * thief's CAS then keeps {@code top}'s line instead of the producer pulling it back on every push: one cache-line
 * transfer less per job, which is what such a loop pays for when the two cores are far apart. The sleep
 * protocol's "was the queue empty" question, which needs the real {@code top}, is asked after the push and only
 * when someone sleeps ({@link #heldNoOtherJob}).
 *
 * <p>Its fields, and the padding that keeps the thieves' {@code top} off the owner's cache lines:
 * {@link WorkDequeOwnerFields}.
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
     * A push reads {@code top} once in this many pushes and clears the slots thieves consumed if this many have
     * piled up: a worker that only produces (a coroutine launching children that others run) never pops, so
     * without it every stolen job stayed reachable from the ring until the ring wrapped around, and a ring grown to
     * 2^19 slots kept half a million finished coroutines alive through every GC. 32 references are two cache lines
     * with compressed oops.
     */
    static final int CLEAR_BATCH = 32;
    private static final AtomicLongFieldUpdater<WorkDequeTop> TOP =
            AtomicLongFieldUpdater.newUpdater(WorkDequeTop.class, "top");
    private static final AtomicReferenceFieldUpdater<WorkDequeOwnerFields, Runnable> NEXT =
            AtomicReferenceFieldUpdater.newUpdater(WorkDequeOwnerFields.class, Runnable.class, "next");
    private static final AtomicIntegerFieldUpdater<WorkDequeOwnerFields> NEXT_PUTS =
            AtomicIntegerFieldUpdater.newUpdater(WorkDequeOwnerFields.class, "nextPuts");
    /** In the next slot while the owner moves the slot's job into the ring ({@code flushNext}). */
    private static final Runnable MOVING = new Runnable() {
        @Override
        public void run() {
            throw new IllegalStateException("WorkDeque.MOVING is a marker, not a job");
        }

        @Override
        public String toString() {
            return "WorkDeque.MOVING";
        }
    };

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
     * Owner only. Pushes a job at the bottom of the ring, after moving the job in the next slot, if there is one,
     * into the ring first, so that the pushed job is the newest and the owner's next pop takes it. Used where that
     * position matters (a join's second half, a fair yield). {@link #heldNoOtherJob} then tells whether it had
     * company (the sleep protocol's "queue was empty" signal).
     *
     * @throws RejectedExecutionException if the deque holds {@link #capacity()} jobs; nothing was queued
     */
    public void push(Runnable job) {
        if (next != null) {
            flushNext();
        }
        pushRing(job, capacity);
    }

    /**
     * Owner only. Puts a job in the next slot if it is empty (Tokio's LIFO slot, Go's {@code runnext}): the owner's
     * next pop, without the ring's index updates and fences; otherwise pushes it at the bottom of the ring, so a
     * job put there earlier stays the owner's next (a producer's first child waits in the slot while the others
     * go where thieves take them).
     *
     * @throws RejectedExecutionException if the deque holds {@link #capacity()} jobs; nothing was queued
     */
    public void pushNext(Runnable job) {
        if (next != null) {
            pushRing(job, capacity - 1);
            return;
        }
        long b = bottom;
        if (b - topSeen >= capacity && b - readTop() >= capacity) {
            throw full();
        }
        // Before the publication below, so a thief that sees the job sees it: which ring jobs are older (steal).
        nextFloor = bottom;
        // Only the owner fills the slot and thieves only empty it, so the null read above stays null until this
        // store. Volatile: a thief that reads the job sees it whole, and, as push's store of bottom, it orders
        // the publication before the pusher's read of the sleep counters (StoreLoad; class comment).
        next = job;
        // After the publication: a thief that read the old tag and then an empty slot sees a new tag once the
        // job it missed can matter to it (steal).
        NEXT_PUTS.lazySet(this, nextPuts + 1);
    }

    /**
     * Owner only, right after a push: whether the deque holds no job but the one pushed, read now (a thief may have
     * taken the others, or that one, since): the sleep protocol's "queue was empty" signal. It reads {@code top},
     * the thieves' line, so the protocol asks only when the answer matters (a worker asleep or napping) instead of
     * every push reading it.
     */
    boolean heldNoOtherJob() {
        return size() <= 1;
    }

    /**
     * Owner only, with a job in the slot: moves it to the bottom of the ring. The slot holds {@link #MOVING}
     * meanwhile, which thieves read as "retry": the job is in neither place for a moment, and a thief that found
     * the slot empty then could take a newer job, or report an empty deque, while it is on its way.
     */
    private void flushNext() {
        Runnable old = NEXT.getAndSet(this, MOVING);
        if (old != null) {
            pushRing(old, capacity); // null: a thief took it before our swap
        }
        next = null;
    }

    private RejectedExecutionException full() {
        // The caller names the pool and the worker; nothing was changed.
        return new RejectedExecutionException("queue capacity exceeded: a worker's deque holds " + capacity
                + " jobs");
    }

    /**
     * Owner only. Pushes {@code jobs[from]} to {@code jobs[to - 1]} at the bottom of the ring in that order, the
     * first the oldest, as if pushed one by one but published by one volatile store of {@code bottom} (the push's
     * fence, once per batch): a batch moved from the injector ({@link Injector#pollBatch}). Returns whether the
     * deque looked empty just before.
     *
     * @throws RejectedExecutionException if the jobs would not fit under {@link #capacity()}; nothing was queued
     */
    boolean pushAll(Runnable[] jobs, int from, int to) {
        if (next != null) {
            flushNext();
        }
        int count = to - from;
        long b = bottom;
        long t = readTop();
        if (b - t + count > capacity) {
            throw full();
        }
        AtomicReferenceArray<Runnable> a = buffer;
        while (b - t + count > a.length()) {
            a = grow(a, t, b);
        }
        if (t - cleared >= clearBatch) {
            clearStolen(a, t, b);
        }
        for (int i = from; i < to; i++) {
            a.lazySet(index(a, b + i - from), jobs[i]);
        }
        // As pushRing's store: a thief that reads the new bottom sees every slot above; the sleep protocol's fence.
        bottom = b + count;
        return b - t <= 0;
    }

    /** Owner only: the index the next pushed job gets; the jobs pushed so far have lower ones. */
    long endIndex() {
        return bottom;
    }

    /**
     * The Chase-Lev push at the bottom of the ring, refused when it holds {@code limit} jobs. It reads {@code top}
     * only when the ring looks full by the owner's last reading ({@code topSeen}), and once in {@link #clearBatch}
     * pushes to clear the slots thieves consumed (class comment, "The owner's view of top").
     */
    private void pushRing(Runnable job, int limit) {
        long b = bottom;
        long t = topSeen;
        AtomicReferenceArray<Runnable> a = buffer;
        if (b - t >= Math.min(limit, a.length()) || ++pushesSinceTopRead >= clearBatch) {
            t = readTop();
            pushesSinceTopRead = 0;
            if (b - t >= limit) {
                throw full();
            }
            if (b - t >= a.length()) {
                a = grow(a, t, b);
            } else if (t - cleared >= clearBatch) {
                clearStolen(a, t, b);
            }
        }
        a.lazySet(index(a, b), job);
        // Volatile, not lazySet: a thief that reads bottom == b + 1 sees the slot written above (release), and
        // the sleep protocol needs this store ordered before the pusher's next read of the counters (StoreLoad;
        // class comment). A lazySet here let a worker that was counted idle leave without seeing the job.
        bottom = b + 1;
    }

    /** Owner only: reads {@code top} and keeps it as the owner's view ({@code topSeen}). */
    private long readTop() {
        long t = top;
        topSeen = t;
        return t;
    }

    /** Owner only. Pops the next slot's job, else the ring's newest job; {@code null} when the deque is empty. */
    public Runnable pop() {
        Runnable n = takeNext();
        if (n != null) {
            return n;
        }
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
     *
     * <p>The job in the next slot is the oldest once the ring holds no job older than it (none below
     * {@code nextFloor}). The slot is read first: if it still holds the same job at our CAS, the owner never took
     * it meanwhile (a job is put in the slot once), so the ring jobs older than it, all below {@code nextFloor}
     * and gone when we read {@code top}, stayed gone, and the job we take is the oldest at the CAS.
     */
    public Runnable steal() {
        int tag = nextPuts;
        Runnable n = next;
        long t = top;
        if (n != null) {
            if (n == MOVING) {
                return RETRY; // the owner is moving the slot's job into the ring: the next try sees it there
            }
            if (t >= nextFloor) {
                return NEXT.compareAndSet(this, n, null) ? n : RETRY;
            }
        }
        long b = bottom;
        if (t >= b) {
            // The ring was empty when we read bottom. Empty only if the slot was too: it is empty now and nobody
            // put a job there since our first read (the tag), so it was empty all along, or emptied before the
            // owner took from the ring. Otherwise a job put in the slot after our read could be the only one left.
            return next == null && nextPuts == tag ? null : RETRY;
        }
        AtomicReferenceArray<Runnable> a = buffer;
        Runnable job = a.get(index(a, t));
        // A null slot means the owner already cleared it, so top has moved and the CAS would fail anyway. A job put
        // in the next slot since our first read may be older than job t (it was put while t was still to come):
        // retry, and the next try compares the two. One put after this check has its floor at bottom, above t.
        if (job == null || nextPuts != tag || !TOP.compareAndSet(this, t, t + 1)) {
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
        Runnable slot = next;
        long t = top;
        long n = bottom - t;
        if (slot == null) {
            return n == 1 ? t : n <= 0 ? NO_JOBS : SEVERAL_JOBS;
        }
        // A job in the slot has the index it takes when it moves into the ring: bottom, here equal to top.
        return n <= 0 && slot != MOVING ? t : SEVERAL_JOBS;
    }

    /** Any thread; a snapshot: the slot's put count ({@code nextPuts}), which tells apart lone jobs in the slot. */
    public int nextSlotTag() {
        return nextPuts;
    }

    /**
     * Owner only: where the jobs pushed from now on go. Moves the slot's job, pushed before, into the ring and
     * returns {@code bottom}: each job pushed after this call sits in the slot or in the ring at that index or
     * above, until {@link #popAbove} takes it.
     */
    long floorForNewJobs() {
        if (next != null) {
            flushNext();
        }
        return bottom;
    }

    /**
     * Owner only: the job in the slot, or the newest job of the ring if it sits at index {@code floor} or above;
     * null when there is neither ({@link #floorForNewJobs}).
     */
    Runnable popAbove(long floor) {
        Runnable n = takeNext();
        if (n != null) {
            return n;
        }
        return bottom > floor ? pop() : null; // the slot is empty now: only the owner fills it
    }

    /** Owner only: the slot's job by the thieves' CAS, or null (the owner never reads MOVING: it clears it). */
    private Runnable takeNext() {
        Runnable n = next;
        return n != null && NEXT.compareAndSet(this, n, null) ? n : null;
    }

    /** Any thread; a snapshot: the index of the oldest job if the deque holds any ({@code top}). */
    public long oldestIndex() {
        return top;
    }

    /** Any thread; a snapshot that may be stale by the time it returns. */
    public boolean isEmpty() {
        return next == null && bottom - top <= 0;
    }

    /** Any thread; a snapshot. */
    public int size() {
        long n = Math.max(bottom - top, 0L) + (next == null ? 0 : 1);
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    /** The most jobs this deque holds. */
    int capacity() {
        return capacity;
    }

    /** Doubles the ring; the caller made sure it holds fewer than {@link #capacity()} jobs. */
    private AtomicReferenceArray<Runnable> grow(AtomicReferenceArray<Runnable> old, long t, long b) {
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
