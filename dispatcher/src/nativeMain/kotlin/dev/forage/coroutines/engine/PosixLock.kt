package dev.forage.coroutines.engine

/**
 * Nanoseconds on a monotonic clock: the clock every deadline given to [PosixLock.await] is on. Each platform family
 * (linuxMain, appleMain, mingwMain) pairs it with its lock so that deadlines and timed waits agree, and a step of the
 * wall clock neither shortens nor lengthens a wait.
 */
internal expect fun nanoTime(): Long

/** No deadline: wait until signalled. */
internal const val NO_DEADLINE: Long = Long.MAX_VALUE

/**
 * A mutex with one condition variable: the native engine's lock and parker, as a Rayon worker's `Mutex` +
 * `Condvar`. Each worker sleeps on its own (one-owner wake-ups), the timers' heap and the close wait use one each.
 * One implementation per platform family, because each keeps timed waits monotonic in its own way: Linux times
 * the condition variable on CLOCK_MONOTONIC, Darwin waits for a relative time (it has no
 * `pthread_condattr_setclock`), Windows uses its own slim reader/writer lock and condition variable, which time
 * relative milliseconds. The native objects live outside the Kotlin heap; a cleaner frees them once no Kotlin
 * object can reach this lock any more, so a late waker never signals freed memory.
 */
internal expect class PosixLock() {
    fun lock()

    fun unlock()

    /**
     * Wakes one waiter, if any. With the lock held or not: a waker that changed the waiter's condition under the
     * lock may signal after it unlocks (JecSleep does, so the waiter does not wake into a held lock).
     */
    fun signal()

    /** Wakes every waiter, with the lock held or not, as [signal]. */
    fun signalAll()

    /**
     * Waits, holding the lock before and after, until signalled, a spurious return, or [deadline] ([nanoTime]
     * nanoseconds, or [NO_DEADLINE]). Returns false once the deadline passed. Callers loop on their own condition.
     */
    fun await(deadline: Long): Boolean
}

/** Runs [body] holding the lock: one body for every platform's lock. */
internal inline fun <T> PosixLock.locked(body: () -> T): T {
    lock()
    try {
        return body()
    } finally {
        unlock()
    }
}
