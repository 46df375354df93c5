package dev.forage;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The pool's injector: a multi-producer, multi-consumer FIFO of jobs that came from outside the pool, or from a
 * worker that must put a job behind the others. Not part of Forage's API.
 *
 * <p>A queue of array blocks, after crossbeam's {@code SegQueue}. Jobs live in blocks of {@code blockSize - 1}
 * slots linked in order. A producer claims a slot by moving the tail index with a CAS, then writes its job into
 * the slot; a consumer claims the slot at the head index with a CAS, then waits (briefly: the producer is between
 * two instructions) until the job is there. Compared with a Michael-Scott list, a push allocates one block per
 * {@code blockSize - 1} jobs instead of a node per job, producers never touch the head, and consumers read the
 * tail only when they reach the tail's block.
 *
 * <p>An index counts slots shifted left by one; the last offset of each block ({@code blockSize - 1}) is never a
 * slot: an index there means "the thread that took the block's last slot is installing the next block", and
 * other threads wait for it. Bit 0 of the head index says the head's block has a successor (the tail is beyond
 * it), so consumers in a full block skip reading the tail. Bit 0 of the tail index says the injector is
 * {@linkplain #close() closed} to outside submissions (crossbeam-channel's mark bit, which disconnects its list
 * channel the same way): the claim CAS of an outside push compares the whole word, so a push either claimed its
 * slot before the close, and the pool's drain finds the job, or sees the bit and is refused. That one CAS is the
 * outside submission's whole admission check: no counter of submissions in flight for shutdown to wait out.
 *
 * <p>The sleep protocol's fence pair (see {@code docs/sleep.md}, "PushFence and SleepFence", and the jcstress
 * test {@code InjectorVsSleeper}) relies on two accesses being volatile: {@link #push} claims its slot with a CAS
 * on the tail index (a volatile write) before it returns, and {@link #isEmpty()} reads the head index and then the
 * tail index with volatile reads. The job itself is written into its slot with a release store, not a volatile
 * one: consumers find the slot through the claimed tail and wait for the job (its acquire read), so no reader
 * needs that store ordered before the pusher's next load, and on x86 a volatile store costs a full fence. A job whose push's CAS comes before {@code isEmpty} in the synchronization order
 * is seen: the tail read is at least past it, and the head read before it cannot be past it.
 *
 * <p>Capacity. A submission ({@link #pushFromOutside}, {@link #pushBounded}) is refused with {@link #FULL} once
 * {@code capacity} jobs wait. At the default capacity, a bound against runaway producers, the check is made only
 * by the producer that takes a block's last slot, before it allocates the next block: it reads the consumers' head
 * index once per block instead of on every push, and the queue holds at most one block more than its capacity. A
 * smaller capacity is a bound the user chose ({@link QueueBound}): every submission checks it, and concurrent
 * producers that all read the count below it overshoot it by at most one job each. The pool's own pushes ({@link #push}: due timers,
 * a job handed in from another pool) are never refused, since nobody could be told.
 *
 * <p>Unlike crossbeam, blocks are never freed by hand: once both indices have moved past a block nothing refers
 * to it and the GC takes it. Consumers clear the slots they take, so a block does not keep run jobs reachable.
 */
final class Injector extends InjectorTail {
    /** Slots per block plus the one "installing" offset. Crossbeam uses 32; a power of two keeps {@code &}. */
    static final int DEFAULT_BLOCK_SIZE = 64;
    static final int SHIFT = 1;
    /** Bit 0 of the head index: the head's block has a successor. */
    static final long HAS_NEXT = 1L;
    /** Bit 0 of the tail index: closed to outside pushes ({@link #close}). */
    static final long CLOSED = 1L;
    /** {@link #pushFromOutside}: the injector is closed, the job was not queued. */
    static final int REJECTED = -1;
    /** {@link #pushFromOutside}, {@link #pushBounded}: {@link #capacity()} jobs wait; the job was not queued. */
    static final int FULL = -2;
    /**
     * The most jobs waiting before submissions are refused: 2^22, as for a worker's deque ({@link
     * WorkDeque#DEFAULT_CAPACITY}, which says why).
     */
    static final long DEFAULT_CAPACITY = WorkDeque.DEFAULT_CAPACITY;
    /** {@link #pushFromOutside}: queued behind other jobs. */
    static final int QUEUED = 0;
    /** {@link #pushFromOutside}: queued, and the queue looked empty before it ({@link #push}'s hint). */
    static final int QUEUED_TO_EMPTY = 1;
    /** Spins on a slot or a block link before yielding the core; the wait is for a thread mid-push. */
    private static final int SPINS_BEFORE_YIELD = 64;

    private final int lastOffset;
    private final long capacity;
    /** A bound the user chose, below the default: checked on every bounded push instead of once per block. */
    private final boolean checkEveryPush;

    public Injector() {
        this(DEFAULT_BLOCK_SIZE, DEFAULT_CAPACITY);
    }

    /** {@code blockSize}: a power of two from 2; tests use small blocks to cross block boundaries often. */
    Injector(int blockSize) {
        this(blockSize, DEFAULT_CAPACITY);
    }

    /** Tests and pools with a smaller bound: {@code capacity} jobs, at least 1. */
    Injector(int blockSize, long capacity) {
        if (blockSize < 2 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block size " + blockSize + " must be a power of two, at least 2");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.lastOffset = blockSize - 1;
        this.capacity = capacity;
        this.checkEveryPush = capacity < DEFAULT_CAPACITY;
        Block first = new Block(lastOffset);
        headBlock = first;
        tailBlock = first;
    }

    /**
     * Any thread. Appends a job, and says whether the queue looked empty before it: the job before it in the
     * queue is already taken (or there is none). That is the sleep protocol's "was the queue empty" hint (Rayon
     * RFC #5's option A), which only tunes how many sleepers a push wakes; it reads the previous slot, on the cache
     * line this push writes anyway, instead of the head index that every consumer writes. A slot claimed by
     * another producer but not yet written also counts as taken: a hint, not a fact.
     */
    public boolean push(Runnable job) {
        return claimAndWrite(job, false, false) == QUEUED_TO_EMPTY;
    }

    /**
     * Any thread. {@link #push}, unless the injector is {@linkplain #close() closed} or full: then nothing is
     * queued and the answer is {@link #REJECTED} or {@link #FULL}; otherwise {@link #QUEUED_TO_EMPTY} or
     * {@link #QUEUED} (the hint).
     */
    public int pushFromOutside(Runnable job) {
        return claimAndWrite(job, true, true);
    }

    /** A worker's submission: {@link #push}, unless full ({@link #FULL}); closing does not refuse it. */
    public int pushBounded(Runnable job) {
        return claimAndWrite(job, false, true);
    }

    /** The most jobs that wait before a submission is refused (one block more at most). */
    long capacity() {
        return capacity;
    }

    private int claimAndWrite(Runnable job, boolean refuseWhenClosed, boolean bounded) {
        long tail = tailIndex;
        Block block = tailBlock;
        Block next = null;
        int waits = 0;
        while (true) {
            if (refuseWhenClosed && (tail & CLOSED) != 0) {
                return REJECTED;
            }
            int offset = offset(tail);
            if (offset == lastOffset) {
                // The thread that took the block's last slot is installing the next block: wait for it.
                waits = pause(waits);
                tail = tailIndex;
                block = tailBlock;
                continue;
            }
            boolean lastSlot = offset + 1 == lastOffset && next == null;
            if (bounded && (lastSlot || checkEveryPush) && jobsBetween(headIndex, tail) >= capacity) {
                return FULL; // see "Capacity" in the class comment
            }
            if (lastSlot) {
                // Allocate before claiming, so nothing can fail between the claim and the publication.
                next = new Block(lastOffset);
            }
            long newTail = tail + (1L << SHIFT);
            if (TAIL_INDEX.compareAndSet(this, tail, newTail)) {
                if (offset + 1 == lastOffset) {
                    // We took the last slot: install the next block and step the tail over the last offset.
                    // Block before index: a thread that reads the new index then the block sees the new block.
                    tailBlock = next;
                    tailIndex = newTail + (1L << SHIFT);
                    block.next = next;
                }
                block.slots.lazySet(offset, job); // release: see the class comment
                boolean wasEmpty;
                if (offset == 0) {
                    // The previous slot is in the previous block: ask the head instead (once per block).
                    wasEmpty = headIndex >> SHIFT >= tail >> SHIFT;
                } else {
                    wasEmpty = block.slots.get(offset - 1) == null;
                }
                return wasEmpty ? QUEUED_TO_EMPTY : QUEUED;
            }
            tail = tailIndex;
            block = tailBlock;
        }
    }

    /** Any thread. Removes and returns the oldest job, or {@code null} when empty. */
    public Runnable poll() {
        long head = headIndex;
        Block block = headBlock;
        int waits = 0;
        while (true) {
            int offset = offset(head);
            if (offset == lastOffset) {
                // Another consumer is moving the head to the next block: wait for it.
                waits = pause(waits);
                head = headIndex;
                block = headBlock;
                continue;
            }
            long newHead = head + (1L << SHIFT);
            if ((newHead & HAS_NEXT) == 0) {
                long tail = tailIndex;
                if (head >> SHIFT == tail >> SHIFT) {
                    return null;
                }
                if (blockStart(head) != blockStart(tail)) {
                    // The tail is in a later block: this block is full, so later polls in it skip the tail.
                    newHead |= HAS_NEXT;
                }
            }
            if (HEAD_INDEX.compareAndSet(this, head, newHead)) {
                if (offset + 1 == lastOffset) {
                    moveHeadPast(block, newHead); // we took the last slot
                }
                return take(block, offset);
            }
            head = headIndex;
            block = headBlock;
        }
    }

    /**
     * Any thread. Removes the oldest jobs into {@code into[0]} on, oldest first, and returns how many: 0 when empty.
     * With at least {@code minQueued} jobs queued it takes {@code 1 + queued / shares} of them (with {@code shares}
     * consumers draining, each takes about its share), at most {@code max} and no further than the head's block,
     * with one claim CAS, so consumers that drain a backlog meet on the head index once per batch instead of once
     * per job (Tokio and Go move a batch from their global queue to the worker's own). With fewer it takes one job,
     * as {@link #poll}. Reads the tail index on every call, which {@code poll} skips inside a full block: once per
     * batch.
     */
    public int pollBatch(Runnable[] into, int max, int shares, long minQueued) {
        long head = headIndex;
        Block block = headBlock;
        int waits = 0;
        while (true) {
            int offset = offset(head);
            if (offset == lastOffset) {
                waits = pause(waits); // another consumer is moving the head to the next block
                head = headIndex;
                block = headBlock;
                continue;
            }
            long tail = tailIndex;
            long queued = jobsBetween(head, tail);
            if (queued <= 0) {
                return 0;
            }
            long newHead = head;
            // Every slot before the block's last offset is claimed by a producer once the tail has left the block.
            long inBlock = queued;
            if (blockStart(head) != blockStart(tail)) {
                inBlock = lastOffset - offset;
                newHead |= HAS_NEXT; // as in poll: later claims in this block skip the tail
            }
            int n = queued < minQueued ? 1 : (int) Math.min(Math.min(max, 1 + queued / shares), inBlock);
            newHead += (long) n << SHIFT;
            if (HEAD_INDEX.compareAndSet(this, head, newHead)) {
                if (offset + n == lastOffset) {
                    moveHeadPast(block, newHead); // we took the block's last slot
                }
                for (int i = 0; i < n; i++) {
                    into[i] = take(block, offset + i);
                }
                return n;
            }
            head = headIndex;
            block = headBlock;
        }
    }

    /**
     * After a claim that took {@code block}'s last slot, the head index at its last offset ({@code newHead}): moves
     * the head to the next block, over that offset. Other consumers wait meanwhile (they see the last offset).
     */
    private void moveHeadPast(Block block, long newHead) {
        Block next = waitForNext(block);
        long nextIndex = (newHead & ~HAS_NEXT) + (1L << SHIFT);
        if (next.next != null) {
            nextIndex |= HAS_NEXT;
        }
        headBlock = next;
        headIndex = nextIndex;
    }

    /**
     * Any thread. Whether no job is queued: a volatile read of the head index, then of the tail index (the read
     * side of the sleep protocol's fence pair). May answer "not empty" while a consumer moves the head to the
     * next block; never "empty" when a push's claim came before the call.
     */
    public boolean isEmpty() {
        long head = headIndex;
        long tail = tailIndex;
        return head >> SHIFT == tail >> SHIFT;
    }

    /**
     * Any thread. Closes the injector to {@link #pushFromOutside}: once this returns, every outside push that
     * was not refused has claimed its slot, so its job is counted by {@link #isEmpty()}. Workers' own pushes
     * ({@link #push}) are still queued: a job that runs during the drain may submit more. Idempotent.
     */
    public void close() {
        int waits = 0;
        while (true) {
            long tail = tailIndex;
            if ((tail & CLOSED) != 0) {
                return;
            }
            if (offset(tail) == lastOffset) {
                // A push is installing the next block and will write the tail with a plain store: wait for it, so
                // that store cannot overwrite the bit.
                waits = pause(waits);
                continue;
            }
            if (TAIL_INDEX.compareAndSet(this, tail, tail | CLOSED)) {
                return;
            }
        }
    }

    /** Any thread. Whether {@link #close()} has run (or is about to return). */
    public boolean isClosed() {
        return (tailIndex & CLOSED) != 0;
    }

    /**
     * Any thread; an approximate snapshot for statistics: the slots between the head and the tail index, less
     * the "installing" offset at the end of each block between them. Approximate because the two indices are
     * read one after the other while others move them, and because a slot counts from the moment a producer
     * claims it (its job may still be on its way) until a consumer claims it (its job may still be in the slot).
     * Never negative.
     */
    public long approximateSize() {
        return jobsBetween(headIndex, tailIndex);
    }

    /** The slots between two indices, less the "installing" offset at the end of each block between them. */
    private long jobsBetween(long headIndex, long tailIndex) {
        long head = headIndex >> SHIFT;
        long tail = tailIndex >> SHIFT;
        if (tail <= head) {
            return 0;
        }
        long blockSize = lastOffset + 1L;
        // Index k is an "installing" offset iff k % blockSize == blockSize - 1: floor(n / blockSize) of them lie
        // in [0, n).
        long installing = tail / blockSize - head / blockSize;
        return Math.max(tail - head - installing, 0);
    }

    private int offset(long index) {
        return (int) (index >> SHIFT) & lastOffset;
    }

    /** The slot count at the start of the index's block: equal for two indices in the same block. */
    private long blockStart(long index) {
        return (index >> SHIFT) & ~(long) lastOffset;
    }

    /** The job a producer is writing into a claimed slot; cleared once taken. */
    private static Runnable take(Block block, int offset) {
        Runnable job;
        int waits = 0;
        while ((job = block.slots.get(offset)) == null) {
            waits = pause(waits);
        }
        block.slots.lazySet(offset, null); // nobody reads this slot again: only lets the GC have the job
        return job;
    }

    private static Block waitForNext(Block block) {
        Block next;
        int waits = 0;
        while ((next = block.next) == null) {
            waits = pause(waits);
        }
        return next;
    }

    /**
     * A short wait for a thread in the middle of a push or a block switch. Yields after a few spins: on an
     * oversubscribed machine that thread may be descheduled, and spinning would only delay it.
     */
    private static int pause(int waits) {
        if (waits >= SPINS_BEFORE_YIELD) {
            Thread.yield();
        }
        return waits + 1;
    }

    static final class Block {
        /** {@code null} until the producer that claimed a slot writes its job, and again once it is taken. */
        final AtomicReferenceArray<Runnable> slots;
        volatile Block next;

        Block(int slotCount) {
            slots = new AtomicReferenceArray<>(slotCount);
        }
    }
}

/** Padding (the superclass), the consumers' fields, padding: producers and consumers never share a line. */
abstract class InjectorHead extends LeadingPad {
    static final AtomicLongFieldUpdater<InjectorHead> HEAD_INDEX =
            AtomicLongFieldUpdater.newUpdater(InjectorHead.class, "headIndex");

    volatile long headIndex;
    volatile Injector.Block headBlock;
}

abstract class InjectorPad1 extends InjectorHead {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class InjectorTail extends InjectorPad1 {
    static final AtomicLongFieldUpdater<InjectorTail> TAIL_INDEX =
            AtomicLongFieldUpdater.newUpdater(InjectorTail.class, "tailIndex");

    volatile long tailIndex;
    volatile Injector.Block tailBlock;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}
