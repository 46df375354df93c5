package dev.forage.coroutines

/**
 * Runs [a] and [b] on the pool, in parallel where the pool has threads, and returns both results; the coroutine
 * suspends (never blocks) until both finished. On JS and Wasm-JS both run, `a` then `b`, as one job on the event
 * loop.
 *
 * If [a] or [b] throws, the exception is rethrown after both finished (when both throw, [a]'s carries [b]'s as
 * suppressed). A half that has not started when the coroutine is cancelled never runs; a running half is not
 * interrupted and the call returns only after it ended. After the pool was closed, the call starts nothing and
 * cancels the calling coroutine.
 * ```
 * val mid = data.size / 2
 * val (left, right) = pool.awaitJoin({ data.sum(0, mid) }, { data.sum(mid, data.size) })
 * ```
 */
public expect suspend fun <A, B> ForagePool.awaitJoin(a: () -> A, b: () -> B): Pair<A, B>

/**
 * Runs [body], which may [spawn][Scope.spawn] jobs, and returns its result once the body and every spawned job
 * finished; the coroutine suspends meanwhile. On JS and Wasm-JS the body runs first, then every spawned job in
 * the order spawned.
 *
 * The first failure is rethrown after every job finished, later ones suppressed; a failing job does not cancel
 * its siblings. Cancelling the coroutine cancels the scope: jobs not started never run. After the pool was
 * closed, the call starts nothing and cancels the calling coroutine.
 * ```
 * val squares = IntArray(n)
 * pool.awaitScope { s -> for (i in 0 until n) s.spawn { squares[i] = i * i } }
 * ```
 */
public expect suspend fun <T> ForagePool.awaitScope(body: (Scope) -> T): T

/**
 * Spawns a job that receives this scope, so that it can spawn more: `s.spawn { inner -> inner.spawn { leaf() } }`.
 *
 * @throws IllegalStateException if the scope already ended
 */
public expect fun Scope.spawn(task: (Scope) -> Unit)
