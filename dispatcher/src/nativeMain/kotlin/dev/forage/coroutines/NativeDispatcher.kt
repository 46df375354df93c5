@file:OptIn(ExperimentalCoroutinesApi::class, InternalCoroutinesApi::class)

package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.resume
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CloseableCoroutineDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.DisposableHandle
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.Runnable
import kotlinx.coroutines.cancel

/**
 * Forage's dispatcher on Kotlin/Native: coroutines run as jobs of [pool]'s workers; a dispatch from one of its
 * workers goes to that worker's deque, any other to the injector. `delay` and `withTimeout` time on the pool's
 * own timers (no timer thread). `yield()` goes behind the queued work (the engine's `Registry.submit` says
 * where).
 */
public actual class ForageDispatcher internal constructor(
    public actual val pool: ForagePool,
    private val displayName: String?,
) : CloseableCoroutineDispatcher(), Delay {
    private val registry = pool.registry

    actual override fun dispatch(context: CoroutineContext, block: Runnable) {
        if (!pool.execute(block)) rejected(context, block)
    }

    override fun dispatchYield(context: CoroutineContext, block: Runnable) {
        if (!registry.submit(block, yielding = true)) rejected(context, block)
    }

    /** As on the JVM: the coroutine is cancelled and finishes outside the pool, so its finally blocks run. */
    private fun rejected(context: CoroutineContext, block: Runnable) {
        context.cancel(closedCause())
        Dispatchers.Default.dispatch(context, block)
    }

    actual override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher {
        require(parallelism >= 1) { "limitedParallelism: parallelism must be at least 1, was $parallelism" }
        if (parallelism >= pool.parallelism()) return if (name == null) this else NamedView(this, name)
        return super.limitedParallelism(parallelism, name)
    }

    override fun scheduleResumeAfterDelay(timeMillis: Long, continuation: CancellableContinuation<Unit>) {
        if (pool.isShutdown()) {
            cancelForClose(continuation.context, continuation)
            return
        }
        val timer = registry.schedule(
            millisToNanos(timeMillis),
            action = { continuation.resume(Unit) }, // through its dispatcher: on this pool, within any view's limit
            onClose = { cancelForClose(continuation.context, continuation) },
        )
        continuation.invokeOnCancellation { registry.cancel(timer) } // a cancelled delay keeps nothing pending
    }

    override fun invokeOnTimeout(timeMillis: Long, block: Runnable, context: CoroutineContext): DisposableHandle {
        if (pool.isShutdown()) {
            cancelForClose(context, null)
            return DisposableHandle { }
        }
        val timer = registry.schedule(
            millisToNanos(timeMillis),
            action = { block.run() },
            onClose = { cancelForClose(context, null) },
        )
        return DisposableHandle { registry.cancel(timer) }
    }

    actual override fun close() {
        pool.close()
    }

    private fun cancelForClose(context: CoroutineContext, continuation: CancellableContinuation<Unit>?) {
        val cause = closedCause()
        context.cancel(cause)
        continuation?.cancel(cause)
    }

    private fun closedCause(): CancellationException = closedCause

    /**
     * One cause for every refusal after close, built at the first: Kotlin/Native captures a stack trace in every
     * exception's constructor, which made each refused dispatch of a runaway spawner cost two traces, and its
     * `close()` seconds. kotlinx never adds suppressed exceptions to a cancellation cause, so sharing it is safe.
     */
    private val closedCause: CancellationException by lazy {
        CancellationException("pool ${pool.name()} is shut down and accepts no new jobs", pool.rejection())
    }

    override fun equals(other: Any?): Boolean = other is ForageDispatcher && other.pool === pool

    override fun hashCode(): Int = pool.hashCode()

    override fun toString(): String = displayName ?: "ForageDispatcher[${pool.name()}]"
}

private fun millisToNanos(ms: Long): Long = when {
    ms <= 0L -> 0L
    ms >= Long.MAX_VALUE / 1_000_000L -> Long.MAX_VALUE
    else -> ms * 1_000_000L
}

public actual class ForageDispatcherBuilder internal constructor() {
    /** Worker threads, from 1 to 65535; default: the available processors. */
    public actual var threads: Int = ForagePool.availableProcessors()
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
    val pool = ForagePool.create(builder.name ?: ForagePool.nextName(), builder.threads, closeable = true)
    return ForageDispatcher(pool, null)
}

private val commonForage: ForageDispatcher by lazy {
    val pool = ForagePool.create("forage-common", ForagePool.availableProcessors(), closeable = false)
    ForageDispatcher(pool, "Dispatchers.Forage")
}

@Suppress("UnusedReceiverParameter")
public actual val Dispatchers.Forage: CoroutineDispatcher
    get() = commonForage
