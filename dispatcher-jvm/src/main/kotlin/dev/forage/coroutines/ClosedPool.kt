package dev.forage.coroutines

import dev.forage.ForagePool
import java.util.concurrent.RejectedExecutionException
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.cancel

/**
 * What a dispatcher does with work its pool does not accept: the pool was shut down or closed, or a queue is at its
 * capacity (a producer that outruns the pool without end). The pattern of kotlinx's
 * `ExecutorCoroutineDispatcherImpl`: cancel the coroutine with a cause that names the pool, then run the block on
 * `Dispatchers.IO` so the coroutine can still run its `finally` blocks. Nothing hangs, and the caller of `dispatch`
 * never sees an exception.
 */
internal object ClosedPool {
    /**
     * The cancellation cause of a coroutine whose dispatch to [pool] was refused (closed, or a queue full), in the
     * Kotlin face's words. The pool's own refusal is the cause's cause; its message is not repeated, since it names
     * kotlinx's continuation (a long string) and the Java builder's settings.
     */
    fun cause(pool: ForagePool, rejection: RejectedExecutionException?, refusal: String? = null): CancellationException =
        CancellationException(
            (if (rejection == null || pool.isShutdown) "pool ${pool.name()} is shut down"
            else refusal ?: "pool ${pool.name()}: queue capacity exceeded (queueCapacity ${pool.queueCapacity()})") +
                ", the coroutine was cancelled; its finally blocks run on Dispatchers.IO",
            rejection,
        )

    /**
     * A suspending wait ([awaitJoin], [awaitScope]) whose work [pool] rejected: cancels the calling coroutine as a
     * rejected dispatch does, and returns the cancellation for the caller to throw. Nothing of the work started.
     */
    fun rejectedWait(pool: ForagePool, context: CoroutineContext, rejection: RejectedExecutionException):
        CancellationException {
        val cause = CancellationException(
            "pool ${pool.name()} is shut down and accepts no new jobs: the coroutine that waited for its jobs " +
                "was cancelled",
            rejection,
        )
        context.cancel(cause)
        return cause
    }

    /**
     * Cancels the coroutine of [context] and runs [block] on `Dispatchers.IO`; a [RefusalAwareJob] decides for
     * itself. [refusal] says why a running pool refused, when not for a full queue. Never throws.
     */
    fun redirect(
        pool: ForagePool,
        context: CoroutineContext,
        block: Runnable,
        rejection: RejectedExecutionException,
        refusal: String? = null,
    ) {
        if (block is RefusalAwareJob) {
            block.refused(context, rejection)
            return
        }
        context.cancel(cause(pool, rejection, refusal))
        Dispatchers.IO.dispatch(context, block)
    }
}

/**
 * A job that carries work its dispatcher already accepted (a `limitedParallelism` view's loop): when the pool
 * refuses it, [refused] cancels the coroutine of `context` and finds the job another way to run, instead of the
 * plain redirect to `Dispatchers.IO`, which would run the accepted work off the pool.
 */
internal interface RefusalAwareJob : Runnable {
    /** The pool refused this job for the dispatch of [context]. Never throws. */
    fun refused(context: CoroutineContext, rejection: RejectedExecutionException)
}
