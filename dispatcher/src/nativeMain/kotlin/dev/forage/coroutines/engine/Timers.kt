@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi

/**
 * The pool's timers (docs/sleep.md, section 7): a binary heap by deadline under one lock, fired by the workers
 * themselves. At most one sleeping worker, the **watcher**, sleeps with the earliest deadline; the others sleep
 * untimed. A new timer that is the earliest, or that finds no watcher, wakes a sleeper; a worker about to sleep
 * becomes the watcher if there is none. Both decisions are taken under [lock], which is what keeps a timer from
 * being left with nobody awake for it: either the sleeper registered first (then the adder sees it) or the timer
 * was added first (then the sleeper sees it). A sleeper that finds no timer at all takes no lock ([watch]): then a
 * timer added later finds no watcher and posts, and the post wakes the sleeper like any other.
 *
 * Not on Native: the JVM's monitor thread, which fires due timers while every worker is busy. Here a timer waits
 * for a worker to finish its job.
 */
internal class Timers {
    private val lock = PosixLock()
    private var heap = arrayOfNulls<Timer>(16)
    private var size = 0
    /** The worker sleeping with the earliest deadline; written under [lock], read without it by E2. */
    private val watcher = AtomicInt(NO_WATCHER)
    private var seq = 0L

    /** The earliest deadline, or [NO_DEADLINE]: read without the lock by every search. */
    private val earliest = AtomicLong(NO_DEADLINE)

    class Timer(val deadline: Long, val seq: Long, val action: () -> Unit, val onClose: () -> Unit) {
        internal var index = -1
    }

    /** What an adder must do after [add]: nothing, wake this watcher, or wake any sleeper. */
    sealed class Wake {
        object None : Wake()
        object AnySleeper : Wake()
        class Watcher(val index: Int) : Wake()
    }

    fun add(deadline: Long, action: () -> Unit, onClose: () -> Unit): Pair<Timer, Wake> = lock.locked {
        val timer = Timer(deadline, seq++, action, onClose)
        if (size == heap.size) heap = heap.copyOf(size * 2)
        timer.index = size
        heap[size++] = timer
        siftUp(timer.index)
        earliest.store(heap[0]!!.deadline)
        val wake = when {
            watcher.load() == NO_WATCHER -> Wake.AnySleeper
            heap[0] === timer -> Wake.Watcher(watcher.load()) // it must shorten its sleep
            else -> Wake.None
        }
        timer to wake
    }

    /** Removes [timer] if still pending (a cancelled delay must not keep its memory or a watcher's sleep). */
    fun cancel(timer: Timer): Boolean = lock.locked {
        val i = timer.index
        if (i < 0) return@locked false
        removeAt(i)
        earliest.store(if (size == 0) NO_DEADLINE else heap[0]!!.deadline)
        true
    }

    fun hasDue(now: Long): Boolean = earliest.load() <= now

    fun isEmpty(): Boolean = earliest.load() == NO_DEADLINE

    /** Removes and returns the timers due at [now], earliest first. */
    fun takeDue(now: Long): List<Timer> {
        if (earliest.load() > now) return emptyList()
        return lock.locked {
            val due = ArrayList<Timer>()
            while (size > 0 && heap[0]!!.deadline <= now) {
                val t = heap[0]!!
                removeAt(0)
                due.add(t)
            }
            earliest.store(if (size == 0) NO_DEADLINE else heap[0]!!.deadline)
            due
        }
    }

    /** Pending timers that no sleeper watches (E2's "unclaimed work"). */
    fun isUnwatched(): Boolean = earliest.load() != NO_DEADLINE && watcher.load() == NO_WATCHER

    /**
     * Called by a worker about to block: the deadline it must wake at. It becomes the watcher when timers are
     * pending and nobody watches; [NO_DEADLINE] otherwise.
     */
    fun watch(worker: Int): Long {
        // No timer: no watch, and no lock (every sleep of an idle pool comes here). A timer added after this read
        // finds no watcher and posts (Registry.postUnwatchedTimer), and this sleeper, counted at S2 before the
        // read, is one that post sees and wakes: pair A's argument, with the timer's deadline as the job.
        if (earliest.load() == NO_DEADLINE) return NO_DEADLINE
        return watchLocked(worker)
    }

    private fun watchLocked(worker: Int): Long = lock.locked {
        if (size == 0) return@locked NO_DEADLINE
        if (watcher.load() == NO_WATCHER) watcher.store(worker)
        if (watcher.load() == worker) heap[0]!!.deadline else NO_DEADLINE
    }

    fun unwatch(worker: Int) {
        lock.locked { if (watcher.load() == worker) watcher.store(NO_WATCHER) }
    }

    /** Close: every pending timer, removed. */
    fun drain(): List<Timer> = lock.locked {
        val all = (0 until size).map { heap[it]!! }
        for (t in all) t.index = -1
        heap.fill(null)
        size = 0
        earliest.store(NO_DEADLINE)
        all
    }

    fun count(): Int = lock.locked { size }

    private fun removeAt(i: Int) {
        val removed = heap[i]!!
        removed.index = -1
        size--
        if (i == size) {
            heap[size] = null
            return
        }
        val last = heap[size]!!
        heap[size] = null
        heap[i] = last
        last.index = i
        siftDown(i)
        if (heap[i] === last) siftUp(i)
    }

    private fun less(a: Timer, b: Timer) = a.deadline < b.deadline || (a.deadline == b.deadline && a.seq < b.seq)

    private fun siftUp(start: Int) {
        var i = start
        val t = heap[i]!!
        while (i > 0) {
            val parent = (i - 1) / 2
            val p = heap[parent]!!
            if (!less(t, p)) break
            heap[i] = p
            p.index = i
            i = parent
        }
        heap[i] = t
        t.index = i
    }

    private fun siftDown(start: Int) {
        var i = start
        val t = heap[i]!!
        while (true) {
            var child = 2 * i + 1
            if (child >= size) break
            if (child + 1 < size && less(heap[child + 1]!!, heap[child]!!)) child++
            val c = heap[child]!!
            if (!less(c, t)) break
            heap[i] = c
            c.index = i
            i = child
        }
        heap[i] = t
        t.index = i
    }

    private companion object {
        const val NO_WATCHER = -1
    }
}
