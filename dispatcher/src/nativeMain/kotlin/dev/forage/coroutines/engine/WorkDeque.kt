@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicLongArray
import kotlin.concurrent.atomics.AtomicReference
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlinx.coroutines.Runnable

/**
 * A worker's Chase–Lev deque (Chase and Lev, "Dynamic circular work-stealing deque", SPAA 2005; the
 * sequentially consistent form of Lê et al., PPoPP 2013): the owner pushes and pops at the bottom (LIFO), thieves
 * steal at the top (FIFO). Kotlin/Native's atomics are sequentially consistent, so the owner's store of `bottom`
 * in [pop] is ordered before its read of `top` without an explicit fence: the store-load pair that decides who
 * takes the last job (docs/deque.md describes the JVM form; the argument is the same).
 *
 * The buffer grows (never shrinks) by copying into a buffer twice the size; a thief holding the old buffer still
 * reads the right job at its `top`, since the copy leaves the old buffer untouched and the garbage collector keeps
 * it while a thief can reach it.
 *
 * Slots are cleared so that a finished job is not kept reachable by the deque (a coroutine's continuation holds
 * its whole frame): the owner nulls the slot of a job it pops, and lazily the slots thieves consumed, when it next
 * finds the deque empty or pushes with [CLEAR_BATCH] consumed slots not yet cleared (the JVM deque's rule) below
 * the `top` it last read. A push reads `top` only when the ring looks full ([topSeen]), so a producer whose jobs
 * thieves take keeps at most one ring of taken jobs reachable. Only slots below `top` are cleared that way, which no steal can take any more: a thief that reads a cleared slot has
 * read a stale `top`, and retries.
 *
 * The last job's CAS ([takeLast]) and the clearing of a slot ([clearSlot]) are `protected open`, so that the native
 * stress suite can build a deque with one of them broken and show that its races and checks catch it.
 */
internal open class WorkDeque {
    /**
     * `top` and `bottom` in one array, [TOP] and [BOTTOM] 64 bytes apart and from the array's header: thieves CAS
     * `top` while the owner writes `bottom` on every push, and on one cache line each would stall the other.
     * Kotlin/Native has no field-layout rule (no `@Contended`), but an array's elements are contiguous.
     */
    private val ends = AtomicLongArray(PADDED_LENGTH)
    private val buffer = AtomicReference(Buffer(INITIAL_CAPACITY))

    /** Owner only: every slot below this index was cleared after its job was taken. */
    private var cleared = 0L

    /**
     * Owner only: a `top` this owner read before. `top` only grows, so the real one is at least this: a push that
     * sees room against it has room, and reads `top` itself (a cache line every thief's CAS writes) only when the
     * ring looks full; [pop] and [takeOldest], which read `top` anyway, refresh it.
     */
    private var topSeen = 0L

    /**
     * Owner only. Returns whether the deque was empty before (the JEC's `queueWasEmpty`, docs/sleep.md 3.5). The
     * answer may be a stale "no" (from [topSeen]), never a stale "yes": a "no" only makes the post wake more.
     */
    fun push(job: Runnable): Boolean {
        val b = ends.loadAt(BOTTOM)
        var t = topSeen
        var buf = buffer.load()
        if (b - t >= buf.capacity - 1) {
            t = ends.loadAt(TOP)
            topSeen = t
        }
        if (b - t >= buf.capacity - 1) {
            buf = buf.grow(t, b)
            buffer.store(buf)
            cleared = t // the new buffer holds nothing below top
        } else if (t - cleared >= CLEAR_BATCH) {
            clearTaken(buf, t, b)
        }
        buf[b] = job
        ends.storeAt(BOTTOM, b + 1) // publishes the job: a thief that reads this bottom reads the slot written above
        return b <= t
    }

    /** Owner only: the newest job, or null. */
    fun pop(): Runnable? {
        val b = ends.loadAt(BOTTOM) - 1
        val buf = buffer.load()
        ends.storeAt(BOTTOM, b) // (store) before (load) of top: a thief's steal and this pop see each other
        val t = ends.loadAt(TOP)
        topSeen = t
        if (t > b) {
            ends.storeAt(BOTTOM, b + 1) // empty: put bottom back
            clearTaken(buf, t, t)
            return null
        }
        val job = buf[b]
        if (t < b) { // more than one job left: no thief can reach this one
            clearSlot(buf, b)
            return job
        }
        val won = takeLast(t)
        ends.storeAt(BOTTOM, b + 1)
        clearTaken(buf, t + 1, t + 1) // ours or the thief's: below top now
        return if (won) job else null
    }

    /** The last job: thieves may race for it, and the CAS of `top` from [top] decides who takes it. */
    protected open fun takeLast(top: Long): Boolean = ends.compareAndSetAt(TOP, top, top + 1)

    /** Nulls the slot of a taken job, so that the deque does not keep the job reachable. */
    protected open fun clearSlot(buf: Buffer, index: Long) {
        buf[index] = null
    }

    /** Owner only: the position the next push takes; a wait's floor (Worker's stack bound). */
    fun bottom(): Long = ends.loadAt(BOTTOM)

    /** Owner only: the newest job if it was pushed at position [floor] or later, else null (and nothing taken). */
    fun popAbove(floor: Long): Runnable? = if (ends.loadAt(BOTTOM) > floor) pop() else null

    /**
     * Owner only: nulls the slots from [cleared] up to [top], whose jobs were taken, but for those whose place in
     * the ring a job up to [bottom] already took again (index i shares its slot with i + capacity): a slot that
     * far behind was overwritten, and nulling it would drop a queued job.
     */
    private fun clearTaken(buf: Buffer, top: Long, bottom: Long) {
        for (i in maxOf(cleared, bottom - buf.capacity + 1) until top) clearSlot(buf, i)
        cleared = top
    }

    /** Any thread: the oldest job, null if empty, or [RETRY] when another thread took it first. */
    fun steal(): Runnable? {
        val t = ends.loadAt(TOP)
        val b = ends.loadAt(BOTTOM) // after top (sequential consistency): a job between them was published by push
        if (t >= b) return null
        // A cleared slot: the owner cleared it after top moved past t, so the CAS below would fail too.
        val job = buffer.load()[t] ?: return RETRY
        return if (ends.compareAndSetAt(TOP, t, t + 1)) job else RETRY
    }

    /**
     * Owner only: the oldest job, as a thief takes it (the top-level loop's order), or null if empty. Keeps
     * [topSeen] fresh, so that a worker that takes its own jobs oldest first still answers [push]'s "was it
     * empty?" from a recent `top`: a stale "no" would make each post wake a sleeper that an idle, awake worker
     * could have served.
     */
    fun takeOldest(): Runnable? {
        while (true) {
            topSeen = ends.loadAt(TOP)
            val job = steal()
            if (job !== RETRY) return job
        }
    }

    fun isEmpty(): Boolean = ends.loadAt(TOP) >= ends.loadAt(BOTTOM)

    fun size(): Int = (ends.loadAt(BOTTOM) - ends.loadAt(TOP)).coerceAtLeast(0L).toInt()

    /** Owner only, for tests: the slots of the current buffer that still hold a job, taken or not. */
    fun slotsHoldingJobs(): Int = buffer.load().holding()

    /** The ring: a power-of-two array of slots, indexed by the ever-growing positions `top` and `bottom`. */
    /**
     * The slots are a plain array: a Kotlin/Native atomic store is sequentially consistent, a locked `xchg` on
     * x86-64, and a push paid two of them. The owner writes a slot before its (atomic) store of `bottom`, and a
     * thief reads it after its (atomic) load of `bottom`, so the job is published by that store and load alone, as
     * the C11 form of Chase–Lev publishes it with a release store and an acquire load (Lê et al.). A thief that
     * read a stale `top` may race with the owner reusing or clearing that slot; whatever it reads, its CAS on `top`
     * then fails, and it retries.
     */
    class Buffer(val capacity: Int) {
        private val slots = arrayOfNulls<Runnable>(capacity)
        private val mask = capacity - 1

        operator fun get(index: Long): Runnable? = slots[(index and mask.toLong()).toInt()]

        operator fun set(index: Long, job: Runnable?) {
            slots[(index and mask.toLong()).toInt()] = job
        }

        fun holding(): Int = slots.count { it != null }

        fun grow(top: Long, bottom: Long): Buffer {
            val bigger = Buffer(capacity * 2)
            for (i in top until bottom) bigger[i] = this[i]
            return bigger
        }
    }

    companion object {
        private const val INITIAL_CAPACITY = 256

        /** Consumed slots a push leaves uncleared at most (the JVM deque's batch). */
        private const val CLEAR_BATCH = 32
        private const val TOP = 8
        private const val BOTTOM = 16
        private const val PADDED_LENGTH = 24

        /** Returned by [steal] when a race lost the job to another thread: the deque may still hold work. */
        val RETRY: Runnable = Runnable { error("the steal retry marker is never run") }
    }
}
