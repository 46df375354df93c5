package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.QueueFullPolicy
import java.util.concurrent.Executor
import java.util.concurrent.RejectedExecutionException
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.InternalCoroutinesApi

/**
 * The dispatcher for blocking calls on a Forage pool: Forage's counterpart of `Dispatchers.IO`, sharing the
 * pool's threads instead of starting a scheduler of its own. Get it as `Dispatchers.ForageBlocking` (over the
 * common pool) or [ForageDispatcher.blocking]:
 * ```
 * val text = withContext(Dispatchers.ForageBlocking) { File(path).readText() }   // blocks a thread, not the pool
 * val words = text.split(' ').size                                               // back on Dispatchers.Forage
 * ```
 *
 * How it works (`docs/coroutines.md`, "Blocking calls"):
 * - A dispatched block is a task of the pool's [blocking executor][ForagePool.blockingExecutor]: it runs on the
 *   pool inside a *blocking section*, during which another thread stands in for the blocked worker, so the pool
 *   keeps its parallelism ([ForagePool.managedBlock]).
 * - Switching in from a coroutine on the same pool costs no thread hop: the block goes on the worker's own deque
 *   and runs on that worker as soon as the coroutine has suspended. Switching back is a push on the same
 *   worker's deque, which that worker pops once the block returns: no hop either.
 * - At most `maxBlockingThreads` blocks (the pool builder's, default 64) run at once; the others wait in a FIFO
 *   queue. [limitedParallelism] gives a view with its own limit, independent of this one, as for
 *   `Dispatchers.IO.limitedParallelism`. The queue holds at most the pool's `queueCapacity` blocks; past it a
 *   dispatch cancels its coroutine as over a closed pool (its `finally` blocks run on `Dispatchers.IO`).
 * - `delay` and `withTimeout` use the pool's timers. After the pool closed, a dispatch cancels the coroutine as
 *   [ForageDispatcher] does.
 *
 * `Dispatchers.ForageBlocking` follows its caller: dispatched from a worker of any Forage pool (a private one
 * too), the block runs on *that* pool's blocking executor, with that pool's compensation and `maxBlockingThreads`,
 * so it costs no hop to the common pool and back. Elsewhere (a thread of no pool, a single-threaded pool, or a
 * pool whose blocking executor refuses: shut down, `maxBlockingThreads = 0`, or its queue full) it runs on the
 * common pool. Its [limitedParallelism] views and its `delay` stay on the common pool, which holds their limit
 * and timers. `dispatcher.blocking` always runs on its own pool.
 *
 * Two blocking dispatchers over the same executor are equal, so `withContext` between them does not dispatch.
 */
@OptIn(InternalCoroutinesApi::class)
public class ForageBlockingDispatcher internal constructor(
    private val parent: ForageDispatcher,
    private val executor: Executor,
    private val parallelism: Int,
    private val name: String?,
    /** `Dispatchers.ForageBlocking`: a dispatch from a worker of another pool uses that pool's blocking executor. */
    private val followsCaller: Boolean = false,
) : CoroutineDispatcher(), Delay by parent {
    /**
     * The pool whose threads run the blocking calls (for `Dispatchers.ForageBlocking`, the common pool: a call from
     * a worker of another pool runs on that pool). For example `blocking.pool.statistics().blockedWorkers()`.
     */
    public val pool: ForagePool
        get() = parent.pool

    /**
     * Queues [block] on the pool's blocking executor: from a worker of the pool, on that worker's own deque.
     * Never runs the block inline and never throws; after the pool closed, cancels the coroutine.
     *
     * Called by kotlinx.coroutines: `withContext(Dispatchers.ForageBlocking) { ... }` ends up here.
     */
    override fun dispatch(context: CoroutineContext, block: Runnable) {
        // The caller's pool is looked up once per dispatch: it says both where a following dispatch runs and
        // whether the caller is one of this pool's workers.
        val callers = if (followsCaller) ForagePool.current() else null
        if (callers != null && dispatchOnCallersPool(callers, block)) {
            return
        }
        try {
            if (callerRunsWhenFull && !isPoolWorker(callers)) {
                // Over a full queue the executor runs an outside caller's task on the caller, which a dispatch
                // must not: dispatch again from a worker, where a full queue refuses (and executeFair refuses
                // rather than run inline).
                pool.executeFair { dispatch(context, block) }
            } else {
                executor.execute(block)
            }
        } catch (e: RejectedExecutionException) {
            val refusal = if (parallelism == 0) "pool ${pool.name()} has maxBlockingThreads = 0" else null
            ClosedPool.redirect(pool, context, block, e, refusal)
        }
    }

    /**
     * Whether the calling thread is a worker of [pool]. [callers] is the caller's pool when [followsCaller] looked
     * it up: a pool is the only face of its workers, so the same answer comes without asking the thread again.
     */
    private fun isPoolWorker(callers: ForagePool?): Boolean =
        if (followsCaller) callers === pool else pool.isCurrentThreadWorker

    /**
     * On a worker of [callers], a Forage pool other than this dispatcher's: queues [block] on that pool's blocking
     * executor, on the worker's own deque, and returns true. False, with nothing queued, on a worker of this
     * dispatcher's pool, on a single-threaded pool (its jobs run only when a thread drives it, which a blocking
     * call must not wait for), and when that pool refuses (shut down, no blocking threads, queue full): the caller
     * then dispatches to this dispatcher's own pool. A worker's submission is never run inline, whatever the
     * pool's queue-full policy.
     */
    private fun dispatchOnCallersPool(callers: ForagePool, block: Runnable): Boolean {
        if (callers === pool || callers.isSingleThreaded) {
            return false
        }
        return try {
            callers.blockingExecutor().execute(block)
            true
        } catch (e: RejectedExecutionException) {
            false
        }
    }

    /** The pool's outside submitters run their own jobs when a queue is full, which a dispatch must not let happen. */
    private val callerRunsWhenFull = parent.pool.queueFullPolicy() == QueueFullPolicy.CALLER_RUNS

    /**
     * A view that runs at most [parallelism] of its blocks at once, independently of this dispatcher's limit and
     * of other views (as `Dispatchers.IO.limitedParallelism`):
     * ```
     * val database = Dispatchers.ForageBlocking.limitedParallelism(10, "database")
     * withContext(database) { jdbc.query(sql) }   // never more than ten at once
     * ```
     *
     * @throws IllegalArgumentException if [parallelism] is less than 1
     */
    override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher {
        checkParallelism(parallelism)
        return ForageBlockingDispatcher(parent, pool.blockingExecutor(parallelism), parallelism, name)
    }

    override fun toString(): String = name ?: "$parent.blocking(parallelism=$parallelism)"

    override fun equals(other: Any?): Boolean =
        other is ForageBlockingDispatcher && other.executor === executor

    override fun hashCode(): Int = System.identityHashCode(executor)
}

/** The dispatcher behind `Dispatchers.ForageBlocking`, created on first use (and with it the common pool). */
internal object CommonForageBlocking {
    @JvmField
    val DISPATCHER: ForageBlockingDispatcher = CommonForage.DISPATCHER.let {
        ForageBlockingDispatcher(
            it, it.pool.blockingExecutor(), it.pool.maxBlockingThreads(), "Dispatchers.ForageBlocking",
            followsCaller = true,
        )
    }
}
