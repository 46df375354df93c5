package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.Runnable
import kotlinx.coroutines.cancel
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.withContext

// What the Kotlin actuals of the non-JVM targets share (the one-thread pool of JS and Wasm-JS, the native engine):
// the builder's rules, the named view, and how a coroutine waits for one job of a pool. The JVM's actuals are
// over the Java engine and have their own; these are compiled there too (commonMain), unused.

/** The most threads a pool may be given on any platform (the JVM engine's limit), so common code fails alike. */
internal const val MAX_THREADS = 65535

internal fun checkThreads(value: Int) {
    require(value in 1..MAX_THREADS) { "threads must be between 1 and $MAX_THREADS, was $value" }
}

internal fun checkName(value: String?) {
    requireNotNull(value) { "name must not be null; leave it unset for the default forage-K" }
    require(value.isNotBlank()) { "name must not be blank" }
}

/** `close()` on `Dispatchers.Forage`'s pool. */
internal fun sharedPoolCannotClose(name: String): UnsupportedOperationException = UnsupportedOperationException(
    "Dispatchers.Forage runs on the shared pool $name, which lives as long as the program and cannot be closed; " +
        "use forageDispatcher { ... } for a dispatcher you can close",
)

/** A dispatcher with the parallelism of the whole pool and a name of its own, as on the JVM. */
internal class NamedView(private val dispatcher: CoroutineDispatcher, private val name: String) : CoroutineDispatcher() {
    override fun dispatch(context: CoroutineContext, block: Runnable) = dispatcher.dispatch(context, block)

    override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher =
        dispatcher.limitedParallelism(parallelism, name)

    override fun toString(): String = name
}

/**
 * Runs [job] as one job of a pool ([execute] queues it, false once the pool is closed), suspends until it ended,
 * then rethrows [failure] or the caller's cancellation: `awaitJoin` and `awaitScope` on every non-JVM target.
 * [job] learns through its argument whether the caller was cancelled meanwhile ([onCancel] runs then); a closed
 * pool cancels the caller with a cause that carries [rejection].
 */
@OptIn(ExperimentalAtomicApi::class)
internal suspend fun awaitPoolJob(
    poolName: String,
    execute: (Runnable) -> Boolean,
    rejection: () -> Throwable,
    failure: () -> Throwable?,
    onCancel: () -> Unit,
    job: (cancelled: () -> Boolean) -> Unit,
) {
    val cancelled = AtomicBoolean(false)
    val done = CompletableDeferred<Unit>()
    val accepted = execute(Runnable {
        try {
            job { cancelled.load() }
        } finally {
            done.complete(Unit)
        }
    })
    if (!accepted) {
        val cause = CancellationException(
            "pool $poolName is shut down and accepts no new jobs: the coroutine that waited for its jobs was " +
                "cancelled",
            rejection(),
        )
        currentCoroutineContext().cancel(cause)
        throw cause
    }
    try {
        done.await()
    } catch (e: CancellationException) {
        cancelled.store(true)
        onCancel()
        withContext(NonCancellable) { done.await() }
        failure()?.let { throw it }
        throw e
    }
    failure()?.let { throw it }
    currentCoroutineContext().ensureActive()
}
