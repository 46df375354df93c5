package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CloseableCoroutineDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.Runnable

/**
 * Forage's coroutine dispatcher over a [ForagePool]. On the JVM and Android it runs coroutines on the
 * work-stealing pool (see its JVM documentation); on JS and Wasm-JS it runs them on the event loop, with the same
 * life cycle: after [close], new dispatches cancel their coroutines, which then finish (their `finally` blocks
 * run) outside the pool.
 * ```
 * forageDispatcher { threads = 4; name = "compute" }.use { compute ->
 *     val sum = withContext(compute) { (1..100).map { i -> async { i * i } }.awaitAll().sum() }
 * }
 * ```
 */
@OptIn(ExperimentalCoroutinesApi::class)
public expect class ForageDispatcher : CloseableCoroutineDispatcher {
    /** The pool this dispatcher runs coroutines on. For example `dispatcher.pool.statistics()`. */
    public val pool: ForagePool

    /** Runs [block] on the pool; never inline, never throws (after [close], cancels the coroutine instead). */
    override fun dispatch(context: CoroutineContext, block: Runnable)

    /**
     * A dispatcher that runs at most [parallelism] of its coroutines at once on this pool (this dispatcher, or a
     * view carrying [name], when [parallelism] covers the pool).
     *
     * @throws IllegalArgumentException if [parallelism] is less than 1
     */
    override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher

    /**
     * Closes the pool: no new work, coroutines waiting in this dispatcher's `delay` or `withTimeout` are
     * cancelled at once. Idempotent.
     *
     * @throws UnsupportedOperationException for `Dispatchers.Forage`, which cannot be closed
     */
    override fun close()
}

/**
 * The settings of [forageDispatcher]'s private pool that every platform has (the JVM has more: daemon threads,
 * thread factory, IO workers, keep-alive). Every setting is checked when it is set.
 */
public expect class ForageDispatcherBuilder {
    /**
     * Worker threads, from 1 to 65535; default: available processors (1 on JS and Wasm-JS). On JS and Wasm-JS a
     * valid count is accepted and the pool still has the event loop's one thread.
     */
    public var threads: Int

    /** The pool's name, the prefix of its threads' names (`name-worker-N`); default `forage-K`. Not null. */
    public var name: String?
}

/**
 * A dispatcher over a new private pool, configured by [configure]; closing the dispatcher closes the pool.
 * ```
 * val compute = forageDispatcher { threads = 4; name = "compute" }
 * compute.use { runBlocking(it) { work() } }   // JVM; in common code: withContext(compute) { work() }
 * ```
 */
public expect fun forageDispatcher(configure: ForageDispatcherBuilder.() -> Unit = {}): ForageDispatcher

/**
 * The shared Forage dispatcher, a drop-in for `Dispatchers.Default`: the common work-stealing pool on the JVM,
 * the event loop on JS and Wasm-JS. It cannot be closed.
 * ```
 * val checksum = withContext(Dispatchers.Forage) { files.map { async { crc(it) } }.awaitAll() }
 * ```
 */
public expect val Dispatchers.Forage: CoroutineDispatcher
