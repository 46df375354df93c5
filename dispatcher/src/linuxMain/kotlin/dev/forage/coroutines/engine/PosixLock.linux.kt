@file:OptIn(ExperimentalForeignApi::class, ExperimentalNativeApi::class)

package dev.forage.coroutines.engine

import kotlin.experimental.ExperimentalNativeApi
import kotlin.native.ref.createCleaner
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.alloc
import kotlinx.cinterop.free
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.nativeHeap
import kotlinx.cinterop.ptr
import platform.posix.CLOCK_MONOTONIC
import platform.posix.ETIMEDOUT
import platform.posix.clock_gettime
import platform.posix.pthread_cond_broadcast
import platform.posix.pthread_cond_destroy
import platform.posix.pthread_cond_init
import platform.posix.pthread_cond_signal
import platform.posix.pthread_cond_t
import platform.posix.pthread_cond_timedwait
import platform.posix.pthread_cond_wait
import platform.posix.pthread_condattr_destroy
import platform.posix.pthread_condattr_init
import platform.posix.pthread_condattr_setclock
import platform.posix.pthread_condattr_t
import platform.posix.pthread_mutex_destroy
import platform.posix.pthread_mutex_init
import platform.posix.pthread_mutex_lock
import platform.posix.pthread_mutex_t
import platform.posix.pthread_mutex_unlock
import platform.posix.timespec

/** Nanoseconds on CLOCK_MONOTONIC, the clock the condition variables time against, so deadlines and waits agree. */
internal actual fun nanoTime(): Long = memScoped {
    val ts = alloc<timespec>()
    clock_gettime(CLOCK_MONOTONIC, ts.ptr)
    ts.tv_sec * 1_000_000_000L + ts.tv_nsec
}

/**
 * Linux (glibc): a pthread mutex with one condition variable on CLOCK_MONOTONIC.
 *
 * Why CLOCK_MONOTONIC: a condition variable times an absolute deadline on CLOCK_REALTIME by default, so a step of
 * the wall clock (NTP, an administrator) would make a sleeping worker oversleep its timer or keep-alive deadline,
 * or wake at once and spin. `pthread_condattr_setclock(CLOCK_MONOTONIC)` puts the wait on the clock [nanoTime]
 * reads, and the deadline is passed through as it is.
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
        return memScoped {
            val ts = alloc<timespec>()
            ts.tv_sec = deadline / 1_000_000_000L
            ts.tv_nsec = deadline % 1_000_000_000L
            pthread_cond_timedwait(handles.cond.ptr, handles.mutex.ptr, ts.ptr) != ETIMEDOUT
        }
    }

    private class Handles {
        val mutex = nativeHeap.alloc<pthread_mutex_t>()
        val cond = nativeHeap.alloc<pthread_cond_t>()

        init {
            pthread_mutex_init(mutex.ptr, null)
            memScoped {
                val attr = alloc<pthread_condattr_t>()
                pthread_condattr_init(attr.ptr)
                pthread_condattr_setclock(attr.ptr, CLOCK_MONOTONIC)
                pthread_cond_init(cond.ptr, attr.ptr)
                pthread_condattr_destroy(attr.ptr)
            }
        }

        fun destroy() {
            pthread_cond_destroy(cond.ptr)
            pthread_mutex_destroy(mutex.ptr)
            nativeHeap.free(cond)
            nativeHeap.free(mutex)
        }
    }
}
