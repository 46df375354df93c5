@file:OptIn(ExperimentalForeignApi::class)

package dev.forage.bench.native

import kotlin.concurrent.Volatile
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.alloc
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.ptr
import platform.posix.CLOCK_MONOTONIC
import platform.posix.CLOCK_PROCESS_CPUTIME_ID
import platform.posix.CLOCK_THREAD_CPUTIME_ID
import platform.posix.TIMER_ABSTIME
import platform.posix.clock_gettime
import platform.posix.clock_nanosleep
import platform.posix.timespec

/** The POSIX clocks the scenarios read: wall time, the whole process's CPU and the calling thread's CPU. */
internal object Clocks {
    fun now(): Long = read(CLOCK_MONOTONIC)

    /** CPU time of every thread of the process (the runtime's own, such as the collector's, included). */
    fun processCpu(): Long = read(CLOCK_PROCESS_CPUTIME_ID)

    /** CPU time of the calling thread: subtracted from the process's to leave what the pool's threads used. */
    fun threadCpu(): Long = read(CLOCK_THREAD_CPUTIME_ID)

    private fun read(clock: Int): Long = memScoped {
        val ts = alloc<timespec>()
        check(clock_gettime(clock, ts.ptr) == 0) { "clock_gettime($clock) failed" }
        ts.tv_sec * 1_000_000_000L + ts.tv_nsec
    }

    /**
     * Sleeps until the monotonic clock reads [deadline] (an absolute deadline, so that a late wake-up does not
     * push the following ones back: the low-load schedule is open loop).
     */
    fun sleepUntil(deadline: Long) = memScoped {
        val ts = alloc<timespec>()
        ts.tv_sec = deadline / 1_000_000_000L
        ts.tv_nsec = deadline % 1_000_000_000L
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, ts.ptr, null) != 0) {
            // EINTR: sleep on to the same deadline
        }
    }

    fun sleepNanos(nanos: Long) = sleepUntil(now() + nanos)
}

/**
 * A CPU-bound task of a chosen length (20 µs in the low-load scenarios): a loop the optimizer cannot remove, its
 * iteration count calibrated against the clock on the calling thread, as the JVM runner's BusyWork does.
 */
internal class BusyWork private constructor(val iterations: Int) {
    fun run() {
        sink = spin(iterations)
    }

    /** CPU nanoseconds of one run on the calling thread's CPU clock: the "useful CPU" of one task. */
    fun measureCpuNanos(runs: Int): Double {
        val c0 = Clocks.threadCpu()
        repeat(runs) { run() }
        return (Clocks.threadCpu() - c0).toDouble() / runs
    }

    companion object {
        /** Written so that the loop has an observable result. */
        @Volatile
        private var sink = 0L

        fun calibrate(nanos: Long): BusyWork {
            var iters = 1000
            repeat(2000) { sink = spin(iters) }
            repeat(8) {
                var best = Long.MAX_VALUE
                repeat(50) {
                    val t0 = Clocks.now()
                    sink = spin(iters)
                    best = minOf(best, Clocks.now() - t0)
                }
                iters = (iters.toDouble() * nanos / maxOf(best, 1L)).toLong().coerceIn(1L, Int.MAX_VALUE / 2L).toInt()
            }
            return BusyWork(iters)
        }

        private fun spin(iterations: Int): Long {
            var x = -0x61c8864680b583ebL
            for (i in 0 until iterations) {
                x = x xor (x shl 13)
                x = x xor (x ushr 7)
                x = x xor (x shl 17)
            }
            return x
        }
    }
}
