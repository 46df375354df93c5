@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi

/**
 * The JEC's counters word (docs/sleep.md, section 2): sleeping threads in bits 0-15, inactive threads in bits
 * 16-31, the jobs event counter in bits 32-63. One [AtomicLong]; on Kotlin/Native every atomic operation is
 * sequentially consistent, so each read and read-modify-write below is a full fence, which is what the
 * protocol's fence pairs (section 4) need.
 */
internal class JecCounters {
    private val word = AtomicLong(0L)

    fun load(): Long = word.load()

    /** active -> idle (`startLooking`). */
    fun addInactiveThread() {
        word.fetchAndAdd(ONE_INACTIVE)
    }

    /** E1, idle -> active (`workFound`): returns the sleepers counted before the decrement. */
    fun subInactiveThread(): Int = sleepingThreads(word.fetchAndAdd(-ONE_INACTIVE))

    /** A retiring worker leaves the inactive count without E1's hand-off (it leaves the pool, not idleness). */
    fun subInactiveThreadQuietly() {
        word.fetchAndAdd(-ONE_INACTIVE)
    }

    /** S2: counts the caller as a sleeper only if the word is still [seen] (so the JEC did not move). */
    fun tryAddSleepingThread(seen: Long): Boolean = word.compareAndSet(seen, seen + ONE_SLEEPING)

    /** Un-counts one sleeper: the waker does it (section 3.4), or the sleeper on an S4 hit or its own deadline. */
    fun subSleepingThread() {
        word.fetchAndAdd(-ONE_SLEEPING)
    }

    /** I3, step 1: makes the JEC odd ("work was posted") if it was even; returns the word after. */
    fun incrementJecIfSleepy(): Long {
        while (true) {
            val c = word.load()
            if (!isJecSleepy(c)) return c
            val next = c + ONE_JEC
            if (word.compareAndSet(c, next)) return next
        }
    }

    /** S1: makes the JEC even ("a worker got sleepy") if it was odd; returns the word after. */
    fun incrementJecIfActive(): Long {
        while (true) {
            val c = word.load()
            if (isJecSleepy(c)) return c
            val next = c + ONE_JEC
            if (word.compareAndSet(c, next)) return next
        }
    }

    override fun toString(): String {
        val c = load()
        return "JecCounters[sleeping=${sleepingThreads(c)}, inactive=${inactiveThreads(c)}, jec=${jec(c)}]"
    }

    companion object {
        const val ONE_SLEEPING: Long = 1L
        const val ONE_INACTIVE: Long = 1L shl 16
        const val ONE_JEC: Long = 1L shl 32
        const val THREADS_MAX: Int = 0xFFFF

        fun sleepingThreads(c: Long): Int = (c and 0xFFFF).toInt()
        fun inactiveThreads(c: Long): Int = ((c ushr 16) and 0xFFFF).toInt()
        fun jec(c: Long): Long = c ushr 32
        fun isJecSleepy(c: Long): Boolean = jec(c) and 1L == 0L

        /** The idle and sleepy workers, and those just woken that have not run yet. */
        fun awakeButIdleThreads(c: Long): Int = inactiveThreads(c) - sleepingThreads(c)
    }
}
