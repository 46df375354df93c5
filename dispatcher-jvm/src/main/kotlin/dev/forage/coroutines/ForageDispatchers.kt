@file:JvmName("ForageDispatchers")

package dev.forage.coroutines

import dev.forage.ForagePool
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers

/**
 * The shared Forage dispatcher, over `ForagePool.commonPool()`: daemon threads named `forage-common-worker-N`,
 * one per available processor (system property `forage.common.parallelism`). Use it where you would use
 * `Dispatchers.Default`:
 * ```
 * val checksum = withContext(Dispatchers.Forage) { files.map { async { crc(it) } }.awaitAll() }
 * ```
 * It cannot be closed: `close()` on it throws [UnsupportedOperationException]. For a pool you can close, use
 * [forageDispatcher].
 */
@Suppress("UnusedReceiverParameter")
public val Dispatchers.Forage: CoroutineDispatcher
    get() = ForageDispatcher.common()

/**
 * Forage's coroutine dispatcher over this pool: dispatches go to the pool's deques and injector, `delay` and
 * `withTimeout` use the pool's timers, `limitedParallelism` gives Forage views, and closing the dispatcher
 * closes the pool. Dispatchers over the same pool are equal.
 * ```
 * val pool = ForagePool.builder().threads(4).name("render").build()
 * pool.asForageDispatcher().use { render -> runBlocking(render) { draw() } }
 * ```
 * Not `asCoroutineDispatcher()`: a `ForagePool` is a `java.util.concurrent.Executor`, so that name already
 * belongs to kotlinx's `Executor.asCoroutineDispatcher()`, which wraps any executor in a generic dispatcher
 * without Forage's timers, views or close. Under a name of its own, this function cannot be shadowed by an
 * import, and the generic wrapper is never what a Forage call returns.
 */
@JvmName("from")
public fun ForagePool.asForageDispatcher(): ForageDispatcher = ForageDispatcher.from(this)
