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
    get() = CommonForage.DISPATCHER

/**
 * A coroutine dispatcher over this pool. Closing the dispatcher closes the pool, as with kotlinx's
 * `ExecutorService.asCoroutineDispatcher()`; dispatchers over the same pool are equal.
 * ```
 * val pool = ForagePool.builder().threads(4).name("render").build()
 * pool.asCoroutineDispatcher().use { render -> runBlocking(render) { draw() } }
 * ```
 */
@JvmName("from")
public fun ForagePool.asCoroutineDispatcher(): ForageDispatcher = ForageDispatcher.from(this)
