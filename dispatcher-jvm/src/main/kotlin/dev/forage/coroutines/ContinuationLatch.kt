package dev.forage.coroutines

import dev.forage.internal.latch.Latch
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.coroutines.Continuation
import kotlin.coroutines.resume

/**
 * A latch whose owner is a suspended coroutine instead of a thread: where a worker would wait on a `SpinLatch`
 * (running other jobs) and an outside thread on a `LockLatch` (blocking), a coroutine suspends, and [set] resumes
 * it. [continuation] is an intercepted one, so the resumption goes through the coroutine's dispatcher: exactly
 * one dispatch (one new job on the pool, which wakes at most one sleeper), never a wake-everyone. When the latch
 * is set before the coroutine finished suspending, `suspendCoroutine` returns at once and nothing is dispatched.
 */
internal class ContinuationLatch(private val continuation: Continuation<Unit>) : Latch {
    private val isSet = AtomicBoolean()

    override fun set() {
        // Idempotent, like every latch; a continuation may be resumed only once.
        if (isSet.compareAndSet(false, true)) {
            // Hazard: the coroutine may run (and drop what this latch guards) from here on; nothing follows.
            continuation.resume(Unit)
        }
    }

    override fun probe(): Boolean = isSet.get()
}
