@file:OptIn(ExperimentalForeignApi::class, ExperimentalNativeApi::class)

package dev.forage.coroutines.engine

import kotlin.experimental.ExperimentalNativeApi
import kotlin.native.ref.createCleaner
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.alloc
import kotlinx.cinterop.convert
import kotlinx.cinterop.free
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.nativeHeap
import kotlinx.cinterop.ptr
import platform.posix.CLOCK_UPTIME_RAW
import platform.posix.ETIMEDOUT
import platform.posix.clock_gettime_nsec_np
import platform.posix.pthread_cond_broadcast
import platform.posix.pthread_cond_destroy
import platform.posix.pthread_cond_init
import platform.posix.pthread_cond_signal
import platform.posix.pthread_cond_t
import platform.posix.pthread_cond_timedwait_relative_np
import platform.posix.pthread_cond_wait
import platform.posix.pthread_mutex_destroy
import platform.posix.pthread_mutex_init
import platform.posix.pthread_mutex_lock
import platform.posix.pthread_mutex_t
import platform.posix.pthread_mutex_unlock
import platform.posix.timespec

/**
 * Nanoseconds on CLOCK_UPTIME_RAW: Darwin's monotonic clock that, like Linux's CLOCK_MONOTONIC, stands still while
 * the system sleeps, so a deadline means the same running time on both.
 */
internal actual fun nanoTime(): Long = clock_gettime_nsec_np(CLOCK_UPTIME_RAW.convert()).toLong()

/**
 * The longest single relative wait, in seconds: watchOS's arm64_32 has 32-bit `timespec` fields, and a wait this
 * long (about a year) that ends early is only a spurious return, which every caller loops on.
 */
private const val MAX_WAIT_SECONDS = 1L shl 25

/**
 * Darwin (macOS, iOS, watchOS): a pthread mutex with one condition variable, whose timed waits are relative.
 *
 * Why relative: Darwin has no `pthread_condattr_setclock`, so an absolute `pthread_cond_timedwait` deadline is
 * always on the wall clock, and a step of the wall clock would make a sleeping worker oversleep its timer or
 * keep-alive deadline, or wake at once and spin. `pthread_cond_timedwait_relative_np` waits for (deadline - now)
 * with `now` read from [nanoTime]'s monotonic clock, so the wall clock plays no part. A wait that ends at the
 * relative timeout while the deadline has not been reached on the monotonic clock (a long wait cut to
 * [MAX_WAIT_SECONDS]) reports a spurious return, not a passed deadline.
 */
internal actual class PosixLock actual constructor() {
    private val handles = Handles()

    @Suppress("unused") // kept alive with this object; runs once it is unreachable
    private val cleaner = createCleaner(handles) { it.destroy() }

    actual fun lock() {
        pthread_mutex_lock(handles.mutex.ptr)
    }

    actual fun unlock() {
        pthread_mutex_unlock(handles.mutex.ptr)
    }

    actual fun signal() {
        pthread_cond_signal(handles.cond.ptr)
    }

    actual fun signalAll() {
        pthread_cond_broadcast(handles.cond.ptr)
    }

    actual fun await(deadline: Long): Boolean {
        if (deadline == NO_DEADLINE) {
            pthread_cond_wait(handles.cond.ptr, handles.mutex.ptr)
            return true
        }
        val remaining = deadline - nanoTime()
        if (remaining <= 0) return false
        val seconds = minOf(remaining / 1_000_000_000L, MAX_WAIT_SECONDS)
        val rc = memScoped {
            val ts = alloc<timespec>()
            // .convert(): the fields are Long on 64-bit Darwin and Int on watchOS's arm64_32.
            ts.tv_sec = seconds.convert()
            ts.tv_nsec = (remaining % 1_000_000_000L).convert()
            pthread_cond_timedwait_relative_np(handles.cond.ptr, handles.mutex.ptr, ts.ptr)
        }
        return rc != ETIMEDOUT || nanoTime() < deadline
    }

    private class Handles {
        val mutex = nativeHeap.alloc<pthread_mutex_t>()
        val cond = nativeHeap.alloc<pthread_cond_t>()

        init {
            pthread_mutex_init(mutex.ptr, null)
            pthread_cond_init(cond.ptr, null)
        }

        fun destroy() {
            pthread_cond_destroy(cond.ptr)
            pthread_mutex_destroy(mutex.ptr)
            nativeHeap.free(cond)
            nativeHeap.free(mutex)
        }
    }
}
