package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.QueueFullPolicy
import java.util.Collections
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.Executor
import java.util.concurrent.RejectedExecutionException
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.DisposableHandle
import kotlinx.coroutines.ExecutorCoroutineDispatcher
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.cancel

/**
 * A [CoroutineDispatcher] that runs coroutines on a [ForagePool]: a drop-in replacement for
 * `Dispatchers.Default` whose workers steal work and sleep by Rayon's jobs-event-counter protocol.
 *
 * How coroutine events map onto the pool (details in `docs/architecture.md`, "The Kotlin face"):
 * - [dispatch] is [ForagePool.execute]: from one of the pool's workers, a new internal job in that worker's next
 *   slot (its next take, so a coroutine resumed by the running one runs next on the same worker) or on its own
 *   deque; from any other thread, a new injected job. The block never runs inline, and `dispatch` never throws.
 * - [dispatchYield] (used by `yield()`) is [ForagePool.executeFair]: the continuation goes behind the queued jobs
 *   (the back of the worker's own deque, or of the injector while outside jobs wait) and a sleeper is signalled
 *   if one is needed, so a `yield()` loop cannot starve other coroutines.
 * - `delay` and `withTimeout` are timed by the pool ([ForagePool.schedule], [ForagePool.scheduleTimeout]): a
 *   sleeping worker parks until the nearest deadline, so no `kotlinx.coroutines.DefaultExecutor` thread is
 *   created; a timeout's cancel runs where the deadline is noticed (the pool's monitor while every worker is
 *   busy). A cancelled coroutine's timer is removed from the pool's timer queue at once.
 * - [limitedParallelism] returns this dispatcher when the limit covers the pool, and otherwise a view that never
 *   runs more than the limit at once and re-queues itself fairly.
 *
 * After the pool is shut down or closed, a dispatch the pool rejects cancels the coroutine with a
 * [kotlinx.coroutines.CancellationException] naming the pool and runs it on `Dispatchers.IO`, so its `finally`
 * blocks still run; a `delay` or `withTimeout` started then cancels the coroutine the same way.
 *
 * Uncaught coroutine exceptions follow the usual rules: a `CoroutineExceptionHandler` in the context gets them;
 * otherwise the worker thread's uncaught-exception handler does (the pool's handler when one was configured).
 * No exception ever kills a worker.
 *
 * Get one with `Dispatchers.Forage` (the shared pool), [forageDispatcher] (a private pool) or
 * [ForagePool.asForageDispatcher]:
 * ```
 * forageDispatcher { threads = 4; name = "compute" }.use { compute ->
 *     val sum = runBlocking(compute) {
 *         (1..100).map { i -> async { i * i } }.awaitAll().sum()
 *     }
 * }
 * ```
 *
 * Two dispatchers over the same pool are equal, so `withContext` between them does not dispatch.
 */
@OptIn(InternalCoroutinesApi::class)
public actual class ForageDispatcher internal constructor(
    /** The pool this dispatcher runs coroutines on. For example `dispatcher.pool.statistics()`. */
    public actual val pool: ForagePool,
    private val displayName: String?,
    closeable: Boolean,
) : ExecutorCoroutineDispatcher(), Delay {
    init {
        // kotlinx and the stdlib are optional dependencies: refuse versions below the floors instead of
        // running with kotlinx's limitedParallelism in place of ours.
        Requirements.requireKotlinAndKotlinx()
    }

    /**
     * Timers of `delay`/`withTimeout` that have not fired yet, so that [close] can cancel their coroutines at once
     * instead of waiting for their deadlines. Null for `Dispatchers.Forage`, which cannot be closed.
     */
    private val pendingTimers: MutableSet<PoolTimer>? =
        if (closeable) Collections.newSetFromMap(ConcurrentHashMap<PoolTimer, Boolean>()) else null

    /** The pool runs an outside job on its caller when the queue is full, which a dispatch must not let happen. */
    private val callerRunsWhenFull = pool.queueFullPolicy() == QueueFullPolicy.CALLER_RUNS

    /** Timers of this dispatcher still pending (tracked only when it can be closed). For tests. */
    internal val pendingTimerCount: Int
        get() = pendingTimers?.size ?: 0

    /**
     * The dispatcher for blocking calls on this dispatcher's pool ([ForageBlockingDispatcher]), Forage's
     * counterpart of `Dispatchers.IO`:
     * ```
     * forageDispatcher { threads = 4 }.use { compute ->
     *     runBlocking(compute) { val rows = withContext(compute.blocking) { jdbc.query(sql) } }
     * }
     * ```
     */
    public val blocking: ForageBlockingDispatcher by lazy(LazyThreadSafetyMode.PUBLICATION) {
        ForageBlockingDispatcher(this, pool.blockingExecutor(), pool.maxBlockingThreads(), null)
    }

    /**
     * The pool, as an [Executor] (what kotlinx's `asExecutor()` returns for this dispatcher).
     * For example `dispatcher.executor.execute { println("on the pool") }`.
     */
    override val executor: Executor
        get() = pool

    /**
     * Runs [block] on the pool: in the calling worker's next slot, else on its own deque (its next takes, and
     * stealable either way) when called on one of the pool's workers, otherwise through the pool's injector
     * (FIFO). Never runs the block inline (whatever the pool's `QueueFullPolicy`) and never throws; after the pool
     * closed, or when its queue is full, cancels the coroutine and runs the block on `Dispatchers.IO`.
     *
     * Called by kotlinx.coroutines, not by user code; for example `launch(dispatcher) { ... }` ends up here.
     */
    actual override fun dispatch(context: CoroutineContext, block: Runnable) {
        try {
            if (callerRunsWhenFull && !pool.isCurrentThreadWorker) {
                // From outside, executeFair is execute but for a full queue, which it refuses instead of running
                // the block on this thread: a dispatcher must not run its block inline.
                pool.executeFair(block)
            } else {
                pool.execute(block)
            }
        } catch (e: RejectedExecutionException) {
            ClosedPool.redirect(pool, context, block, e)
        }
    }

    /**
     * Runs [block] behind the jobs already queued ([ForagePool.executeFair]), and wakes a sleeping worker if one is
     * needed: `yield()` puts the coroutine at the back of the line, so a loop such as
     * `while (isActive) { work(); yield() }` lets every other coroutine run. On a worker with no outside job
     * waiting, the line is the worker's own deque (as in kotlinx's and Tokio's schedulers), so a `yield()` costs
     * no trip through the pool's shared queue; with outside jobs waiting, it goes behind them.
     */
    @InternalCoroutinesApi
    override fun dispatchYield(context: CoroutineContext, block: Runnable) {
        try {
            pool.executeFair(block)
        } catch (e: RejectedExecutionException) {
            ClosedPool.redirect(pool, context, block, e)
        }
    }

    /**
     * A dispatcher that runs at most [parallelism] of its coroutines at once on this pool: `this` (or a view
     * carrying [name]) when [parallelism] is at least the most threads the pool may ever have
     * ([ForagePool.maxParallelism]: a view made before a `setParallelism` stays a limit after it), otherwise a view
     * with its own FIFO queue that runs at most [parallelism] batches on the pool and puts itself at the back of the
     * pool's queue after every few tasks, so it never starves other work.
     * ```
     * val database = Dispatchers.Forage.limitedParallelism(2, "database")
     * withContext(database) { query() }   // never more than two queries at once
     * ```
     *
     * @throws IllegalArgumentException if [parallelism] is less than 1
     */
    actual override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher {
        checkParallelism(parallelism)
        if (parallelism >= pool.maxParallelism()) {
            return if (name == null) this else NamedForageDispatcher(this, this, name)
        }
        return LimitedForageDispatcher(this, this, parallelism, name)
    }

    /**
     * Resumes [continuation] after [timeMillis] on the pool (the `delay` of coroutines on this dispatcher). The
     * worker that runs the fired timer resumes the coroutine in place; cancelling the coroutine removes the timer
     * from the pool at once. If the pool is closed, the coroutine is cancelled.
     *
     * Called by kotlinx.coroutines: `withContext(dispatcher) { delay(100) }` ends up here.
     */
    override fun scheduleResumeAfterDelay(timeMillis: Long, continuation: CancellableContinuation<Unit>) {
        val timer = ResumeTimer(this, continuation, pendingTimers)
        val rejection = timer.start(pool, timeMillis)
        if (rejection != null) {
            val cause = ClosedPool.cause(pool, rejection)
            continuation.context.cancel(cause)
            continuation.cancel(cause)
            return
        }
        continuation.invokeOnCancellation { timer.dispose() }
    }

    /**
     * Runs [block] once [timeMillis] passed (the timer of `withTimeout` and `select`'s `onTimeout`) on the thread
     * that notices the deadline, without waiting for a free worker ([ForagePool.scheduleTimeout]): a sleeping
     * worker, or the pool's monitor while every worker is busy, so a timeout around a loop that keeps every worker
     * busy still fires on time, as on `Dispatchers.Default`. Disposing the returned handle removes the timer from
     * the pool at once. If the pool is closed, the coroutine of [context] is cancelled instead.
     *
     * Called by kotlinx.coroutines: `withContext(dispatcher) { withTimeout(100) { work() } }` ends up here.
     */
    override fun invokeOnTimeout(timeMillis: Long, block: Runnable, context: CoroutineContext): DisposableHandle {
        val timer = TimeoutTimer(block, context, pendingTimers)
        val rejection = timer.start(pool, timeMillis)
        if (rejection != null) {
            context.cancel(ClosedPool.cause(pool, rejection))
        }
        return timer
    }

    /**
     * Closes the pool: it accepts no new outside work, coroutines waiting in this dispatcher's `delay` or
     * `withTimeout` are cancelled at once, and the call waits until every job the pool accepted has run and its
     * threads have ended (called on one of the pool's own workers, it cannot wait for itself and only shuts down).
     * Coroutines resumed later are cancelled and finish on `Dispatchers.IO`. Idempotent.
     * ```
     * val compute = forageDispatcher { threads = 2 }
     * try { runBlocking(compute) { work() } } finally { compute.close() }
     * ```
     *
     * @throws UnsupportedOperationException for a dispatcher over `ForagePool.commonPool()`, such as
     *   `Dispatchers.Forage`, which lives as long as the JVM
     */
    actual override fun close() {
        try {
            pool.shutdown()
        } catch (e: UnsupportedOperationException) {
            throw UnsupportedOperationException(
                "$this runs on ForagePool.commonPool(), which lives as long as the JVM and cannot be closed; " +
                    "use forageDispatcher { ... } (or ForageDispatcher.from(pool)) for a dispatcher you can close",
                e,
            )
        }
        // After shutdown no new timer is accepted, and every accepted one was added to the set before (start()).
        val timers = pendingTimers
        if (timers != null && timers.isNotEmpty()) {
            val cause = ClosedPool.cause(pool, null)
            for (timer in timers.toList()) {
                timer.closeEarly(cause)
            }
        }
        pool.close()
    }

    /** Equal to any [ForageDispatcher] over the same pool: `pool.asForageDispatcher() == pool.asForageDispatcher()`. */
    override fun equals(other: Any?): Boolean = other is ForageDispatcher && other.pool === pool

    /** Consistent with [equals]: the pool's identity. */
    override fun hashCode(): Int = System.identityHashCode(pool)

    /** `Dispatchers.Forage` for the shared dispatcher, otherwise `ForageDispatcher[pool name]`. */
    override fun toString(): String = displayName ?: "ForageDispatcher[${pool.name()}]"

    /**
     * Factories for Java callers (Kotlin code uses `Dispatchers.Forage`, [forageDispatcher] and
     * [ForagePool.asForageDispatcher]).
     * ```java
     * CoroutineDispatcher shared = ForageDispatcher.common();
     * ForageDispatcher compute = ForageDispatcher.from(ForagePool.builder().threads(4).name("compute").build());
     * ```
     */
    public companion object {
        /** The shared dispatcher over `ForagePool.commonPool()`, the same object as `Dispatchers.Forage`. */
        @JvmStatic
        public fun common(): CoroutineDispatcher {
            Requirements.requireKotlinAndKotlinx() // before CommonForage: an error in its initialiser would be wrapped
            return CommonForage.DISPATCHER
        }

        /**
         * A dispatcher over [pool]; closing it closes the pool (like kotlinx's `ExecutorService.asCoroutineDispatcher`).
         * For example `ForageDispatcher.from(ForagePool.builder().threads(2).build())`.
         */
        @JvmStatic
        public fun from(pool: ForagePool): ForageDispatcher = ForageDispatcher(pool, null, closeable = true)
    }
}

/** The dispatcher behind `Dispatchers.Forage`, created on first use (and with it the common pool). */
internal object CommonForage {
    @JvmField
    val DISPATCHER: ForageDispatcher = ForageDispatcher(ForagePool.commonPool(), "Dispatchers.Forage", closeable = false)
}

/**
 * The argument check of every `limitedParallelism` here. Synthetic: an internal top-level function is a public
 * static method of `ForageDispatcherKt` to Java, and this one is no API.
 */
@JvmSynthetic
internal fun checkParallelism(parallelism: Int) {
    require(parallelism >= 1) {
        "limitedParallelism: parallelism must be at least 1, was $parallelism"
    }
}
