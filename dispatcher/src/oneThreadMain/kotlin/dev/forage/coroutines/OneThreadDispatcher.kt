package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CloseableCoroutineDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Delay
import kotlinx.coroutines.DisposableHandle
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.Runnable
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlin.coroutines.resume
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.TimeSource

/** kotlinx's dispatcher for this platform's one loop, which runs the pool's jobs and times its timers. */
internal expect fun eventLoop(): CoroutineDispatcher

/**
 * The dispatcher over a one-thread pool: dispatches are queued on the event loop through the pool (counted in its
 * statistics, refused after close); `delay` and `withTimeout` use the platform's timers (kotlinx's own `delay` on
 * the loop), tracked so that [close] cancels the coroutines waiting in them.
 */
@OptIn(ExperimentalCoroutinesApi::class, InternalCoroutinesApi::class)
public actual class ForageDispatcher internal constructor(
    public actual val pool: ForagePool,
    private val displayName: String?,
) : CloseableCoroutineDispatcher(), Delay {
    /** Parent of every pending timer: cancelled by [close]. */
    private val timers = SupervisorJob()
    private val timerScope = CoroutineScope(timers + pool.host)

    actual override fun dispatch(context: CoroutineContext, block: Runnable) {
        if (!pool.execute(block)) {
            // As on the JVM: the coroutine is cancelled and finishes outside the pool, so its finally blocks run.
            context.cancel(closedCause())
            pool.host.dispatch(context, block)
        }
    }

    /** This dispatcher (or a view with [name]): with one thread, every limit from 1 up covers the pool. */
    actual override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher {
        require(parallelism >= 1) { "limitedParallelism: parallelism must be at least 1, was $parallelism" }
        return if (name == null) this else NamedView(this, name)
    }

    override fun scheduleResumeAfterDelay(timeMillis: Long, continuation: CancellableContinuation<Unit>) {
        if (pool.isShutdown()) {
            cancelForClose(continuation.context, continuation)
            return
        }
        val timer = timerScope.launch {
            waitAtLeast(timeMillis)
            continuation.resume(Unit) // through this dispatcher, so the coroutine resumes on the pool
        }
        // On completion, not in the timer's body: close() may cancel a timer that has not started yet.
        timer.invokeOnCompletion { cause ->
            if (cause != null && pool.isShutdown()) cancelForClose(continuation.context, continuation)
        }
        continuation.invokeOnCancellation { timer.cancel() }
    }

    override fun invokeOnTimeout(timeMillis: Long, block: Runnable, context: CoroutineContext): DisposableHandle {
        if (pool.isShutdown()) {
            cancelForClose(context, null)
            return DisposableHandle { }
        }
        var disposed = false
        val timer = timerScope.launch {
            waitAtLeast(timeMillis)
            block.run()
        }
        timer.invokeOnCompletion { cause ->
            if (cause != null && !disposed && pool.isShutdown()) cancelForClose(context, null)
        }
        return DisposableHandle {
            disposed = true
            timer.cancel()
        }
    }

    /**
     * kotlinx's `delay` on the loop (not [Delay.delay] of this class), again for what is left until [timeMillis] has
     * passed by the monotonic clock: Node's timers count from the time the loop cached when its turn began, so one
     * can fire up to a millisecond before its time has passed (measured: a `delay(50)` that returned after 49.92 ms).
     */
    private suspend fun waitAtLeast(timeMillis: Long) {
        val start = TimeSource.Monotonic.markNow()
        val total = timeMillis.milliseconds
        while (true) {
            val left = total - start.elapsedNow()
            if (left <= Duration.ZERO) return
            kotlinx.coroutines.delay(left) // rounds a part of a millisecond up to one
        }
    }

    actual override fun close() {
        pool.close()
        timers.cancel(closedCause())
    }

    private fun cancelForClose(context: CoroutineContext, continuation: CancellableContinuation<Unit>?) {
        val cause = closedCause()
        context.cancel(cause)
        continuation?.cancel(cause)
    }

    private fun closedCause(): CancellationException =
        CancellationException("pool ${pool.name()} is shut down and accepts no new jobs", pool.rejection())

    override fun equals(other: Any?): Boolean = other is ForageDispatcher && other.pool === pool

    override fun hashCode(): Int = pool.hashCode()

    override fun toString(): String = displayName ?: "ForageDispatcher[${pool.name()}]"
}

public actual class ForageDispatcherBuilder internal constructor() {
    /** Accepted from 1 to 65535, as on the JVM; the pool still has the event loop's one thread. Default 1. */
    public actual var threads: Int = 1
        set(value) {
            checkThreads(value)
            field = value
        }

    public actual var name: String? = null
        set(value) {
            checkName(value)
            field = value
        }
}

public actual fun forageDispatcher(configure: ForageDispatcherBuilder.() -> Unit): ForageDispatcher {
    val builder = ForageDispatcherBuilder()
    builder.configure()
    return ForageDispatcher(ForagePool(builder.name ?: ForagePool.nextName(), eventLoop(), closeable = true), null)
}

private val commonForage: ForageDispatcher by lazy {
    ForageDispatcher(ForagePool("forage-common", eventLoop(), closeable = false), "Dispatchers.Forage")
}

@Suppress("UnusedReceiverParameter")
public actual val Dispatchers.Forage: CoroutineDispatcher
    get() = commonForage
