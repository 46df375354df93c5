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
import platform.windows.AcquireSRWLockExclusive
import platform.windows.CONDITION_VARIABLE
import platform.windows.ERROR_TIMEOUT
import platform.windows.GetLastError
import platform.windows.InitializeConditionVariable
import platform.windows.InitializeSRWLock
import platform.windows.LARGE_INTEGER
import platform.windows.QueryPerformanceCounter
import platform.windows.QueryPerformanceFrequency
import platform.windows.ReleaseSRWLockExclusive
import platform.windows.SRWLOCK
import platform.windows.SleepConditionVariableSRW
import platform.windows.WakeAllConditionVariable
import platform.windows.WakeConditionVariable

/** Ticks per second of the performance counter: fixed at boot, so read once. */
private val ticksPerSecond: Long = memScoped {
    val f = alloc<LARGE_INTEGER>()
    QueryPerformanceFrequency(f.ptr)
    f.QuadPart
}

/** Nanoseconds on the performance counter (QueryPerformanceCounter), Windows' monotonic clock. */
internal actual fun nanoTime(): Long {
    val ticks = memScoped {
        val t = alloc<LARGE_INTEGER>()
        QueryPerformanceCounter(t.ptr)
        t.QuadPart
    }
    // Whole seconds first: ticks * 1e9 would overflow after a few weeks of uptime.
    return ticks / ticksPerSecond * 1_000_000_000L + ticks % ticksPerSecond * 1_000_000_000L / ticksPerSecond
}

/**
 * The longest single wait, in milliseconds (about 12 days; INFINITE is 0xFFFFFFFF). A longer wait that ends early is
 * only a spurious return, which every caller loops on.
 */
private const val MAX_WAIT_MILLIS = 1L shl 30

/**
 * Windows (mingwX64): Windows' own slim reader/writer lock (SRWLOCK, taken exclusively) with a CONDITION_VARIABLE,
 * not winpthreads' mutex and condition variable. The class keeps the engine's one name for its lock on every
 * platform.
 *
 * Why not winpthreads: its `pthread_condattr_setclock(CLOCK_MONOTONIC)` fails (EINVAL), so its absolute deadlines
 * are on the wall clock, and a step of the wall clock would make a sleeping worker oversleep or wake at once and
 * spin (a monotonic deadline passed to it spins at once). Its `pthread_cond_timedwait_relative_np` would avoid that,
 * but it is winpthreads' own condition variable, emulated over Windows waits. SleepConditionVariableSRW waits a
 * relative number of milliseconds, which Windows times on its interrupt time, which the wall clock does not move;
 * the lock and the condition variable are a pointer each, need no destroy and cannot fail to initialise. The
 * remaining time is rounded up to a whole millisecond, so a worker never wakes just before its deadline and spins;
 * Windows' timer tick (about 15.6 ms unless an application asks for less) may make it wake that much late.
 */
internal actual class PosixLock actual constructor() {
    private val handles = Handles()

    @Suppress("unused") // kept alive with this object; runs once it is unreachable
    private val cleaner = createCleaner(handles) { it.destroy() }

    actual fun lock() {
        AcquireSRWLockExclusive(handles.lock.ptr)
    }

    actual fun unlock() {
        ReleaseSRWLockExclusive(handles.lock.ptr)
    }

    actual fun signal() {
        WakeConditionVariable(handles.cond.ptr)
    }

    actual fun signalAll() {
        WakeAllConditionVariable(handles.cond.ptr)
    }

    actual fun await(deadline: Long): Boolean {
        if (deadline == NO_DEADLINE) {
            SleepConditionVariableSRW(handles.cond.ptr, handles.lock.ptr, INFINITE_WAIT, 0u)
            return true
        }
        val remaining = deadline - nanoTime()
        if (remaining <= 0) return false
        val millis = remaining / 1_000_000L + if (remaining % 1_000_000L != 0L) 1 else 0
        if (SleepConditionVariableSRW(handles.cond.ptr, handles.lock.ptr, minOf(millis, MAX_WAIT_MILLIS).convert(), 0u) != 0) {
            return true
        }
        return GetLastError() != ERROR_TIMEOUT.convert<UInt>() || nanoTime() < deadline
    }

    private class Handles {
        val lock = nativeHeap.alloc<SRWLOCK>()
        val cond = nativeHeap.alloc<CONDITION_VARIABLE>()

        init {
            InitializeSRWLock(lock.ptr)
            InitializeConditionVariable(cond.ptr)
        }

        /** An SRWLOCK and a CONDITION_VARIABLE hold no kernel object: freeing their memory is all. */
        fun destroy() {
            nativeHeap.free(cond)
            nativeHeap.free(lock)
        }
    }
}

/** INFINITE (0xFFFFFFFF): wait until woken. */
private const val INFINITE_WAIT: UInt = 0xFFFFFFFFu
