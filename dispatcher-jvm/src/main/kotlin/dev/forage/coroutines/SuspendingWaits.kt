@file:JvmName("SuspendingWaits")

package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.Scope
import dev.forage.ScopeBody
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.Continuation
import kotlin.coroutines.coroutineContext
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine
import kotlinx.coroutines.ensureActive

/**
 * The suspending form of [ForagePool.join]: runs [a] and [b], potentially in parallel, and returns both results.
 * The coroutine suspends instead of blocking while the jobs run, and the last job to finish resumes it through
 * its dispatcher.
 *
 * Called on one of this pool's workers, [a] runs right here and [b] is pushed where idle workers can steal it;
 * called anywhere else (the main thread, `Dispatchers.IO`, another pool), both run as jobs on this pool. If [a] or
 * [b] throws, the exception is rethrown after both finished (when both throw, [a]'s carries [b]'s as suppressed).
 *
 * Cancellation: the jobs cannot be interrupted and may use the caller's data, so this returns only after both
 * finished, even when the coroutine is cancelled meanwhile; then it throws the coroutine's
 * [kotlinx.coroutines.CancellationException] instead of returning the results. To stop early, a job can check
 * the caller's `Job` (captured before the call) for `isActive`.
 * ```
 * // In a coroutine: both halves run on the pool; the coroutine suspends until both are done.
 * val mid = data.size / 2
 * val (left, right) = pool.awaitJoin({ data.sum(0, mid) }, { data.sum(mid, data.size) })
 * val total = left + right
 * ```
 *
 * After the pool was shut down, a call (from outside it, or from a coroutine still running on it) starts nothing
 * and cancels the calling coroutine, as a dispatch to a closed pool does: it throws a [kotlinx.coroutines.CancellationException] whose cause is the
 * pool's [RejectedExecutionException].
 */
public suspend fun <A, B> ForagePool.awaitJoin(a: () -> A, b: () -> B): Pair<A, B> {
    Requirements.requireKotlin() // the stdlib that compiled suspend code here calls into
    val join = SuspendedJoin(a, b)
    try {
        suspendCoroutine<Unit> { continuation -> join.start(this, continuation) }
    } catch (e: RejectedExecutionException) {
        throw ClosedPool.rejectedWait(this, coroutineContext, e)
    }
    return join.outcome()
}

/**
 * The suspending form of [ForagePool.scope]: runs [body], which may [spawn][Scope.spawn] jobs, and returns its
 * result once the body and every spawned job finished. The coroutine suspends instead of blocking meanwhile;
 * the last job to finish resumes it through its dispatcher.
 *
 * Called on one of this pool's workers, [body] runs right here; anywhere else, it runs as a job on this pool.
 * Failures: as [ForagePool.scope] (the first failure is rethrown after every job finished, later ones
 * suppressed; a failing job does not cancel its siblings). Cancellation: as [awaitJoin], the scope always waits
 * for its jobs, then throws the coroutine's cancellation instead of returning the result.
 * ```
 * val squares = IntArray(n)
 * pool.awaitScope { s ->
 *     for (i in 0 until n) s.spawn { -> squares[i] = i * i }
 * }
 * ```
 * (`Scope.spawn` takes a `Runnable` or a `ScopeTask`; write `{ -> ... }` for a plain job and `{ inner -> ... }` for
 * one that spawns more, or Kotlin cannot choose.)
 * ```
 * pool.awaitScope { s -> s.spawn { inner -> inner.spawn { -> leaf() } } }
 * ```
 *
 * After the pool was shut down, a call (from outside it, or from a coroutine still on it) starts nothing and
 * cancels the calling coroutine (see [awaitJoin]).
 */
public suspend fun <T> ForagePool.awaitScope(body: (Scope) -> T): T {
    Requirements.requireKotlin() // the stdlib that compiled suspend code here calls into
    val scope = SuspendedScope(this, body)
    try {
        suspendCoroutine<Unit> { continuation -> scope.start(continuation) }
    } catch (e: RejectedExecutionException) {
        throw ClosedPool.rejectedWait(this, coroutineContext, e)
    }
    return scope.outcome()
}

/**
 * The state of one [awaitJoin]: the results are written by the jobs before they count themselves out, and read
 * after the resume. The last of the two jobs to finish resumes the coroutine: an intercepted continuation, so
 * exactly one dispatch, never a wake-everyone; if both finished before the coroutine finished suspending,
 * `suspendCoroutine` returns at once and nothing is dispatched.
 */
private class SuspendedJoin<A, B>(private val a: () -> A, private val b: () -> B) {
    private var resultA: A? = null
    private var resultB: B? = null
    private var failureA: Throwable? = null
    private var failureB: Throwable? = null
    private val running = AtomicInteger(2)
    private lateinit var continuation: Continuation<Unit>

    fun start(pool: ForagePool, continuation: Continuation<Unit>) {
        this.continuation = continuation
        val jobB = Runnable {
            runB()
            countOut()
        }
        if (pool.isCurrentThreadWorker) {
            pool.execute(jobB) // our own deque; refused after shutdown, as from outside: nothing started yet
            runA()
            countOut()
            return
        }
        pool.execute(Runnable { // throws RejectedExecutionException after shutdown: nothing started yet
            runA()
            countOut()
        })
        try {
            pool.execute(jobB)
        } catch (e: RejectedExecutionException) {
            // Shut down between the two submissions: a runs; b never will.
            failureB = e
            countOut()
        }
    }

    private fun countOut() {
        if (running.decrementAndGet() == 0) {
            // Hazard: the coroutine may run (and drop this object) from here on; nothing follows.
            continuation.resume(Unit)
        }
    }

    private fun runA() {
        try {
            resultA = a()
        } catch (t: Throwable) {
            failureA = t
        }
    }

    private fun runB() {
        try {
            resultB = b()
        } catch (t: Throwable) {
            failureB = t
        }
    }

    suspend fun outcome(): Pair<A, B> {
        val fa = failureA
        val fb = failureB
        if (fa != null) {
            if (fb != null && fb !== fa) {
                fa.addSuppressed(fb)
            }
            throw fa
        }
        if (fb != null) {
            throw fb
        }
        coroutineContext.ensureActive()
        @Suppress("UNCHECKED_CAST")
        return Pair(resultA as A, resultB as B)
    }
}

/**
 * The state of one [awaitScope], over [ForagePool.scopeAsync]: the listener, called once by whoever finished
 * last, records the outcome and resumes the coroutine.
 */
private class SuspendedScope<T>(private val pool: ForagePool, private val body: (Scope) -> T) {
    private var result: T? = null
    private var failure: Throwable? = null

    fun start(continuation: Continuation<Unit>) {
        pool.scopeAsync(ScopeBody { scope -> body(scope) }) { value, error ->
            result = value
            failure = error
            // Hazard: the coroutine may run (and drop this object) from here on; nothing follows.
            continuation.resume(Unit)
        }
    }

    suspend fun outcome(): T {
        failure?.let { throw it }
        coroutineContext.ensureActive()
        @Suppress("UNCHECKED_CAST")
        return result as T
    }
}
