package dev.forage.coroutines

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers

/**
 * INTERIM, not the Forage engine: until the engine is ported to Kotlin/Native, this build runs the one-thread
 * implementation (the JS one) on one thread borrowed from kotlinx's `Dispatchers.Default`, so that the common
 * contract suite compiles and runs on linuxX64. The native target is not published.
 */
internal actual fun eventLoop(): CoroutineDispatcher = Dispatchers.Default.limitedParallelism(1, "forage-interim-native")
