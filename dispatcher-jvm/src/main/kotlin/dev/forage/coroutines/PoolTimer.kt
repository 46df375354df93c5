package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.TaskWrapper
import dev.forage.TimerHandle
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.DisposableHandle

/**
 * A timer a [ForageDispatcher] sets on its pool for `delay` or `withTimeout`. It ends in exactly one of three
 * ways, decided by one CAS on [state]:
 * - it fires: when due, the pool queued it for a worker, or ran it where it noticed the deadline when it needs no
 *   worker ([fire]);
 * - it is disposed: the coroutine was cancelled, or the timeout is no longer needed; the pool's timer is
 *   cancelled, which removes it from the timer queue at once (nothing piles up);
 * - it is closed early: the dispatcher was closed while it was pending ([closeEarly]); the coroutine is cancelled
 *   at once instead of keeping the closing pool alive until a distant deadline.
 *
 * [pending] is the dispatcher's set of pending timers, or null for a dispatcher that cannot be closed (nothing to
 * close early, so nothing is tracked).
 */
internal abstract class PoolTimer(
    private val pending: MutableSet<PoolTimer>?,
    /**
     * The action needs no worker: the pool runs it on whichever thread notices the deadline
     * ([ForagePool.scheduleTimeout]: a sleeping worker that watches the timers, or the pool's monitor while every
     * worker is busy), as kotlinx runs it on its `DefaultExecutor` thread. Otherwise a worker runs it.
     */
    private val needsNoWorker: Boolean,
) : Runnable, DisposableHandle, TaskWrapper {
    private val state = AtomicInteger(PENDING)

    @Volatile
    private var handle: TimerHandle? = null

    /**
     * Schedules this timer on [pool]. Returns the rejection when the pool is closed (the timer is then inert), or
     * null when scheduled.
     */
    fun start(pool: ForagePool, timeMillis: Long): RejectedExecutionException? {
        // Tracked before the pool can accept it, so that close() (which shuts the pool down first) sees every
        // timer the pool will ever hold.
        pending?.add(this)
        val h = try {
            if (needsNoWorker) {
                pool.scheduleTimeout(this, timeMillis, TimeUnit.MILLISECONDS)
            } else {
                pool.schedule(this, timeMillis, TimeUnit.MILLISECONDS)
            }
        } catch (e: RejectedExecutionException) {
            state.set(DONE)
            pending?.remove(this)
            return e
        }
        handle = h
        // Mirror of dispose()/closeEarly(): they CAS the state, then read the handle; we write the handle, then
        // read the state. One of the two sides sees the other, so a disposed timer never stays in the queue.
        if (state.get() != PENDING) {
            h.cancel()
        }
        return null
    }

    /** Called by the pool worker that took the fired timer, or (when [needsNoWorker]) the thread that fired it. */
    final override fun run() {
        if (state.compareAndSet(PENDING, DONE)) {
            pending?.remove(this)
            fire()
        }
    }

    /** The coroutine no longer needs this timer: remove it from the pool's timer queue. Idempotent. */
    final override fun dispose() {
        if (state.compareAndSet(PENDING, DONE)) {
            pending?.remove(this)
            handle?.cancel()
        }
    }

    /** The dispatcher is closing: remove the timer and cancel its coroutine with [cause]. */
    fun closeEarly(cause: CancellationException) {
        if (state.compareAndSet(PENDING, DONE)) {
            pending?.remove(this)
            handle?.cancel()
            onClosed(cause)
        }
    }

    /** The deadline passed. Runs on a pool worker, or on the pool's monitor when [needsNoWorker]. */
    protected abstract fun fire()

    /** The dispatcher closed before the deadline. */
    protected abstract fun onClosed(cause: CancellationException)

    private companion object {
        const val PENDING = 0
        const val DONE = 1
    }
}
