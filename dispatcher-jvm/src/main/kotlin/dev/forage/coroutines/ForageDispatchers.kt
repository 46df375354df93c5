@file:JvmName("ForageDispatchers")

package dev.forage.coroutines

import dev.forage.ForagePool
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers

// The common API's types (declared `expect` in ../dispatcher/src/commonMain) are the Java engine's own classes on
// the JVM. They are aliases in this package, not in dev.forage: an `expect class` cannot be actualised by a type
// alias with its own fully qualified name, and Kotlin's direct Java actualisation would need a Kotlin annotation on
// the Java engine, which has no Kotlin dependency. So `dev.forage.coroutines.ForagePool` and `dev.forage.ForagePool`
// are one type on the JVM, and JVM code may name either. They live in this file so that they add no facade class.

/** On the JVM, the work-stealing pool itself: see `dev.forage.ForagePool`. */
public actual typealias ForagePool = dev.forage.ForagePool

/** On the JVM, the pool's full statistics: see `dev.forage.PoolStatistics`. */
public actual typealias PoolStatistics = dev.forage.PoolStatistics

/** On the JVM, the Java fork-join scope: see `dev.forage.Scope`. */
public actual typealias Scope = dev.forage.Scope

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
public actual val Dispatchers.Forage: CoroutineDispatcher
    get() = ForageDispatcher.common()

/**
 * The shared dispatcher for blocking calls: use it where you would use `Dispatchers.IO`. Called from a worker of a
 * Forage pool, the common pool or a private one, the blocking call runs on that pool, in a blocking section: while
 * it blocks, another thread keeps the pool at its parallelism, and switching in and out costs no thread hop to
 * another pool. Called from any other thread, it runs on `ForagePool.commonPool()`.
 * ```
 * val bytes = withContext(Dispatchers.ForageBlocking) { Files.readAllBytes(path) }
 * ```
 * See [ForageBlockingDispatcher].
 */
@Suppress("UnusedReceiverParameter")
public val Dispatchers.ForageBlocking: CoroutineDispatcher
    get() {
        ForageDispatcher.common() // the floors check, before the common pool starts
        return CommonForageBlocking.DISPATCHER
    }

/**
 * Forage's coroutine dispatcher over this pool: dispatches go to the pool's deques and injector, `delay` and
 * `withTimeout` use the pool's timers, `limitedParallelism` gives Forage views, and closing the dispatcher
 * closes the pool. Dispatchers over the same pool are equal.
 * ```
 * val pool = ForagePool.builder().threads(4).name("render").build()
 * pool.asForageDispatcher().use { render -> runBlocking(render) { draw() } }
 * ```
 * Prefer it to `asCoroutineDispatcher()`: a `ForagePool` is a `java.util.concurrent.Executor`, so that name also
 * belongs to kotlinx's `Executor.asCoroutineDispatcher()`, which wraps any executor in a generic dispatcher
 * without Forage's timers, views or close. Under a name of its own, this function cannot be shadowed by an
 * import, and the generic wrapper is never what a Forage call returns.
 */
@JvmName("from")
public fun ForagePool.asForageDispatcher(): ForageDispatcher = ForageDispatcher.from(this)

/**
 * The same as [asForageDispatcher], under the name kotlinx gives its `Executor.asCoroutineDispatcher()`, so that
 * `pool.asCoroutineDispatcher()` in a file that imports this package does not silently give kotlinx's generic
 * executor wrapper (which has none of Forage's timers, `limitedParallelism` views or `close`). Kotlin prefers the
 * extension with the more specific receiver, `ForagePool` over `Executor`, when both are imported alike (both
 * by `*`, or both by name); an import by name still beats an import by `*`. The warning points to
 * [asForageDispatcher], which no import can turn into kotlinx's wrapper.
 * ```
 * import dev.forage.coroutines.*
 * import kotlinx.coroutines.*
 *
 * val render = pool.asCoroutineDispatcher() // Forage's dispatcher, with a warning: say asForageDispatcher()
 * ```
 */
@Deprecated(
    "In a file that does not import dev.forage.coroutines, pool.asCoroutineDispatcher() is kotlinx's generic " +
        "executor wrapper, without Forage's timers, views or close; asForageDispatcher() is Forage's everywhere",
    ReplaceWith("asForageDispatcher()", "dev.forage.coroutines.asForageDispatcher"),
)
public fun ForagePool.asCoroutineDispatcher(): ForageDispatcher = ForageDispatcher.from(this)
