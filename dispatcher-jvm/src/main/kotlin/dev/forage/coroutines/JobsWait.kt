package dev.forage.coroutines

import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.atomic.AtomicReference
import kotlin.coroutines.Continuation
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * How a coroutine waits in [awaitJoin] or [awaitScope] for jobs it started on a pool, cancellably, with the
 * guarantee of `coroutineScope`: no job it started still runs when it resumes.
 *
 * 1. [start] the jobs inside a cancellable suspension; the last job to end calls [jobsEnded], which resumes it
 *    (one dispatch, or none if everything ended before the coroutine suspended).
 * 2. Cancelled meanwhile: [cancelJobs] runs on the cancelling thread, so that jobs not started yet never run, and
 *    the coroutine resumes with the `CancellationException`. It then waits again, not cancellably, until the jobs
 *    that were already running have ended (nobody interrupts them) and the skipped ones have been taken off
 *    the pool's queues by the workers that reached them, and only then throws. Like `coroutineScope`
 *    with children in blocking code, and `withContext(Dispatchers.IO)` around a blocking call: the caller's
 *    `finally` blocks never race with a job that still uses the caller's data.
 *
 * The waiter slot holds the continuation to resume: the cancellable one, then possibly the second one; [DONE] once
 * the jobs ended. Both sides swap it atomically, so exactly one of them resumes each continuation.
 */
internal abstract class JobsWait {
    private val waiter = AtomicReference<Any?>(null)

    /**
     * Starts the jobs. May call [jobsEnded] before it returns. Throws [RejectedExecutionException] only if nothing
     * started.
     */
    protected abstract fun start()

    /** Cancellation: jobs that have not started must not start. Any thread; must not throw. */
    protected abstract fun cancelJobs()

    /** The jobs' failure to throw instead of the cancellation, or null. Read only after the jobs ended. */
    abstract fun failure(): Throwable?

    /** Called exactly once, by whichever job (or [start]) ended last. */
    fun jobsEnded() {
        val w = waiter.getAndSet(DONE)
        if (w is Continuation<*>) {
            // Hazard: the coroutine may run (and drop this object) from here on; nothing follows.
            @Suppress("UNCHECKED_CAST")
            (w as Continuation<Unit>).resume(Unit)
        }
    }

    /**
     * Steps 1 and 2 above. Returns normally when the jobs ended without the coroutine being cancelled; otherwise
     * throws the coroutine's `CancellationException` after every job that had started ended. Throws
     * [RejectedExecutionException] when [start] started nothing.
     */
    suspend fun await() {
        try {
            suspendCancellableCoroutine { cont: CancellableContinuation<Unit> ->
                waiter.set(cont) // before start: a job may end while start() still runs
                cont.invokeOnCancellation { cancelJobs() }
                try {
                    start()
                } catch (e: RejectedExecutionException) {
                    waiter.set(DONE) // nothing started, nothing will end
                    cont.resumeWith(Result.failure(e))
                }
            }
        } catch (e: CancellationException) {
            awaitRunningJobs()
            throw e
        }
    }

    /** After a cancellation: waits, not cancellably, until the jobs that had started have ended. */
    private suspend fun awaitRunningJobs() {
        val first = waiter.get()
        if (first === DONE) {
            return
        }
        suspendCoroutine { second: Continuation<Unit> ->
            // Mirrors jobsEnded(): we publish the second continuation unless the jobs ended meanwhile.
            if (!waiter.compareAndSet(first, second)) {
                second.resume(Unit)
            }
        }
    }

    private companion object {
        val DONE = Any()
    }
}
