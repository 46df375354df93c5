@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi

/**
 * Shutdown admission (the Java engine's `Lifecycle`): one word packs the SHUTDOWN bit with the number of outside
 * submissions in flight. A submission [enters][enter] (one read-modify-write: counts itself and reads the bit),
 * pushes its job and [exits][exit]; `close` sets the bit (C1) and then waits until none is in flight (C2).
 * Kotlin/Native's atomics are sequentially consistent, so the submission's RMW and C1's are totally ordered: either
 * the submission came first (C2 waits for its push, and the job is drained), or it sees the bit and is refused.
 */
internal class Lifecycle {
    private val control = AtomicLong(0L)

    /** S1 and S2: counts an outside submission in flight, unless the pool is shut down (then nothing is counted). */
    fun enter(): Boolean {
        val c = control.fetchAndAdd(1L)
        if (c and SHUTDOWN != 0L) {
            control.fetchAndAdd(-1L)
            return false
        }
        return true
    }

    /** The submission that [enter] admitted has pushed its job. */
    fun exit() {
        control.fetchAndAdd(-1L)
    }

    fun submissionsInFlight(): Boolean = control.load() and SHUTDOWN.inv() != 0L

    /** C1: sets the SHUTDOWN bit; true for the one call that set it. */
    fun startShutdown(): Boolean {
        while (true) {
            val c = control.load()
            if (c and SHUTDOWN != 0L) return false
            if (control.compareAndSet(c, c or SHUTDOWN)) return true
        }
    }

    fun isShutdown(): Boolean = control.load() and SHUTDOWN != 0L

    private companion object {
        const val SHUTDOWN = 1L shl 62
    }
}
