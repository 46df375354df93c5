@file:JvmName("SuspendingWaits")

package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.Scope
import dev.forage.ScopeBody
import dev.forage.ScopeTask
import dev.forage.TaskWrapper
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.coroutineContext
import kotlinx.coroutines.CancellationException
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
 * Cancellation: a half that has not started when the coroutine is cancelled never runs. A half already running
 * is not interrupted, and the call still returns only after it ended, as `coroutineScope` waits for its children:
 * then it throws the coroutine's [CancellationException] (or the half's failure, which wins, as in
 * `withContext`). A long half that should stop early can check the caller's `Job`, captured before the call:
 * ```
 * val job = currentCoroutineContext().job
 * val (left, right) = pool.awaitJoin({ searchLeft { job.isActive } }, { searchRight { job.isActive } })
 * ```
 * In a coroutine, both halves run on the pool and the coroutine suspends until both are done:
 * ```
 * val mid = data.size / 2
 * val (left, right) = pool.awaitJoin({ data.sum(0, mid) }, { data.sum(mid, data.size) })
 * val total = left + right
 * ```
 *
 * After the pool was shut down, a call (from outside it, or from a coroutine still running on it) starts nothing
 * and cancels the calling coroutine, as a dispatch to a closed pool does: it throws a [CancellationException]
 * whose cause is the pool's [RejectedExecutionException].
 */
public actual suspend fun <A, B> ForagePool.awaitJoin(a: () -> A, b: () -> B): Pair<A, B> {
    Requirements.requireKotlin() // the stdlib that compiled suspend code here calls into
    val join = SuspendedJoin(this, a, b)
    awaitJobs(this, join)
    return join.outcome()
}

/**
 * The suspending form of [ForagePool.scope]: runs [body], which may [spawn][Scope.spawn] jobs, and returns its
 * result once the body and every spawned job finished. The coroutine suspends instead of blocking meanwhile;
 * the last job to finish resumes it through its dispatcher.
 *
 * Called on one of this pool's workers, [body] runs right here; anywhere else, it runs as a job on this pool.
 * Failures: as [ForagePool.scope] (the first failure is rethrown after every job finished, later ones
 * suppressed; a failing job does not cancel its siblings).
 *
 * Cancellation: cancelling the coroutine [cancels][Scope.cancel] the scope. Jobs (and the body) that have not
 * started never run, and `spawn` queues nothing more. Jobs already running are not interrupted; they can stop
 * early by checking [Scope.isCancelled]. As [awaitJoin], the call returns only after the jobs that started have
 * ended, then throws the coroutine's [CancellationException] (or the first failure, which wins).
 * ```
 * val squares = IntArray(n)
 * pool.awaitScope { s ->
 *     for (i in 0 until n) s.spawn { squares[i] = i * i }
 * }
 * ```
 * A job that spawns more takes the scope as its parameter (the [Scope.spawn] extension of this package), or
 * simply uses the outer one:
 * ```
 * pool.awaitScope { s -> s.spawn { inner -> inner.spawn { leaf() } } }
 * ```
 *
 * After the pool was shut down, a call (from outside it, or from a coroutine still on it) starts nothing and
 * cancels the calling coroutine (see [awaitJoin]).
 */
public actual suspend fun <T> ForagePool.awaitScope(body: (Scope) -> T): T {
    Requirements.requireKotlin() // the stdlib that compiled suspend code here calls into
    val scope = SuspendedScope(this, body)
    awaitJobs(this, scope)
    return scope.outcome()
}

/**
 * Spawns a job that receives this scope, so that it can spawn more: `s.spawn { inner -> inner.spawn { leaf() } }`.
 * A plain job needs no parameter: `s.spawn { work() }` is [Scope.spawn] (`Runnable`). Java's `spawn(ScopeTask...)`
 * takes no trailing lambda, so without this function Kotlin would need `s.spawn({ inner -> ... })`.
 *
 * @throws IllegalStateException if the scope already ended
 */
public actual fun Scope.spawn(task: (Scope) -> Unit) {
    spawn(ScopeTask { scope -> task(scope) })
}

/** [JobsWait.await], with the pool's refusal turned into the caller's cancellation. */
private suspend fun awaitJobs(pool: ForagePool, wait: JobsWait) {
    try {
        wait.await()
    } catch (e: RejectedExecutionException) {
        throw ClosedPool.rejectedWait(pool, coroutineContext, e)
    } catch (e: CancellationException) {
        wait.failure()?.let { throw it } // a job's failure wins over the cancellation, as in withContext
        throw e
    }
}

/**
 * The state of one [awaitJoin]: the results are written by the jobs before they count themselves out, and read
 * after the resume. A half that starts after [cancelJobs] skips its function and only counts itself out.
 */
private class SuspendedJoin<A, B>(
    private val pool: ForagePool,
    private val a: () -> A,
    private val b: () -> B,
) : JobsWait() {
    private var resultA: A? = null
    private var resultB: B? = null
    private var failureA: Throwable? = null
    private var failureB: Throwable? = null
    private val running = AtomicInteger(2)
    @Volatile
    private var cancelled = false

    override fun start() {
        val jobB = Half(this, first = false)
        if (pool.isCurrentThreadWorker) {
            pool.execute(jobB) // our own deque; refused after shutdown, as from outside: nothing started yet
            Half(this, first = true).run()
            return
        }
        pool.execute(Half(this, first = true)) // throws RejectedExecutionException after shutdown: nothing started
        try {
            pool.execute(jobB)
        } catch (e: RejectedExecutionException) {
            // Shut down between the two submissions: a runs; b never will.
            failureB = e
            countOut()
        }
    }

    override fun cancelJobs() {
        cancelled = true
    }

    fun runHalf(first: Boolean) {
        if (!cancelled) {
            try {
                if (first) resultA = a() else resultB = b()
            } catch (t: Throwable) {
                if (first) failureA = t else failureB = t
            }
        }
        countOut()
    }

    fun userTask(first: Boolean): Any = if (first) a else b

    private fun countOut() {
        if (running.decrementAndGet() == 0) {
            jobsEnded()
        }
    }

    override fun failure(): Throwable? {
        val fa = failureA
        val fb = failureB
        if (fa != null && fb != null && fb !== fa) {
            fa.addSuppressed(fb)
        }
        return fa ?: fb
    }

    suspend fun outcome(): Pair<A, B> {
        failure()?.let { throw it }
        coroutineContext.ensureActive()
        @Suppress("UNCHECKED_CAST")
        return Pair(resultA as A, resultB as B)
    }

    /** One half as a pool job. */
    private class Half(private val join: SuspendedJoin<*, *>, private val first: Boolean) : Runnable, TaskWrapper {
        override fun run() = join.runHalf(first)

        override fun wrappedTask(): Any = join.userTask(first)

        override fun toString(): String = "awaitJoin half ${if (first) "a" else "b"}: ${join.userTask(first)}"
    }
}

/**
 * The state of one [awaitScope], over [ForagePool.scopeAsync]: the listener, called once by whoever finished
 * last, records the outcome and resumes the coroutine. Cancellation reaches the Java [Scope] once the body has
 * it; a body that has not started yet sees [cancelled] and skips.
 */
private class SuspendedScope<T>(private val pool: ForagePool, private val body: (Scope) -> T) :
    JobsWait(), ScopeBody<T?>, TaskWrapper {
    private var result: T? = null
    private var failure: Throwable? = null
    @Volatile
    private var cancelled = false
    @Volatile
    private var scope: Scope? = null

    override fun start() {
        pool.scopeAsync(this) { value, error ->
            result = value
            failure = error
            jobsEnded()
        }
    }

    /** The scope's body as the pool runs it. */
    override fun run(s: Scope): T? {
        // Mirrors cancelJobs(): we publish the scope, then read the flag; it writes the flag, then reads the
        // scope. At least one of us sees the other, so the scope is cancelled whichever came first.
        scope = s
        if (cancelled) {
            s.cancel()
            return null
        }
        return body(s)
    }

    override fun cancelJobs() {
        cancelled = true
        scope?.cancel()
    }

    override fun wrappedTask(): Any = body

    override fun failure(): Throwable? = failure

    suspend fun outcome(): T {
        failure?.let { throw it }
        coroutineContext.ensureActive()
        @Suppress("UNCHECKED_CAST")
        return result as T
    }
}
