@file:JvmName("DetachedScopes")

package dev.forage

import dev.forage.internal.latch.CountLatch

// Internal bridge for dev.forage.coroutines (not API; hidden from Java by @JvmSynthetic and from other Kotlin
// modules by `internal`): the suspending scope (`awaitScope`) needs a Scope whose end is reported by a latch it
// owns, rather than waited for by a worker. This file sits in package dev.forage only to reach Scope's
// package-private members, so the Java API stays as it is.

/** A scope on [pool] that counts its spawned jobs on [jobs]; its creator holds the initial count for the body. */
@JvmSynthetic
internal fun detachedScope(pool: ForagePool, jobs: CountLatch): Scope = Scope(pool.registry(), jobs)

/** Records the body's failure the way [ForagePool.scope] does (first failure wins, later ones suppressed). */
@JvmSynthetic
internal fun Scope.recordBodyFailure(failure: Throwable) = recordFailure(failure)

/** The first failure of the body or a spawned job, with later ones suppressed; null if none. */
@JvmSynthetic
internal fun Scope.firstFailure(): Throwable? = failure()
