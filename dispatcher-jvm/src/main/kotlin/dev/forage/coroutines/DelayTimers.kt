package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.cancel

/**
 * The timer of a `delay`: when it fires, the worker that runs it resumes the coroutine in place (it already runs
 * on the pool). `resumeUndispatched` only skips the dispatch when the continuation belongs to [dispatcher]
 * itself; a coroutine on a view (`limitedParallelism`) is dispatched through its view, so the view's bound holds.
 */
internal class ResumeTimer(
    private val dispatcher: CoroutineDispatcher,
    private val continuation: CancellableContinuation<Unit>,
    pending: MutableSet<PoolTimer>?,
) : PoolTimer(pending, needsNoWorker = false) {
    @OptIn(ExperimentalCoroutinesApi::class)
    override fun fire() {
        with(continuation) { dispatcher.resumeUndispatched(Unit) }
    }

    override fun onClosed(cause: CancellationException) {
        continuation.context.cancel(cause)
        continuation.cancel(cause)
    }

    override fun wrappedTask(): Any = continuation

    override fun toString(): String = "ResumeTimer[$continuation]"
}

/**
 * The timer of a `withTimeout` (or any `invokeOnTimeout` user, such as `select`'s `onTimeout`): runs [block] on the
 * thread that notices the deadline, a worker or the pool's monitor, never waiting for a free worker. The block
 * only cancels a coroutine or completes a select (which dispatches whatever it resumes), as on kotlinx's
 * `DefaultExecutor`; queued as a job instead, it would wait behind the very loops it is meant to stop.
 */
internal class TimeoutTimer(
    private val block: Runnable,
    private val context: CoroutineContext,
    pending: MutableSet<PoolTimer>?,
) : PoolTimer(pending, needsNoWorker = true) {
    override fun fire() {
        block.run()
    }

    override fun onClosed(cause: CancellationException) {
        context.cancel(cause)
    }

    override fun wrappedTask(): Any = block

    override fun toString(): String = "TimeoutTimer[$block]"
}
