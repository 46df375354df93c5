package dev.forage.coroutines

import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlinx.coroutines.Runnable

public actual suspend fun <A, B> ForagePool.awaitJoin(a: () -> A, b: () -> B): Pair<A, B> {
    var resultA: A? = null
    var resultB: B? = null
    var failureA: Throwable? = null
    var failureB: Throwable? = null
    val failure = {
        val fa = failureA
        val fb = failureB
        if (fa != null && fb != null && fa !== fb) fa.addSuppressed(fb)
        fa ?: fb
    }
    awaitPoolJob(name(), ::execute, ::rejection, failure, onCancel = {}) { cancelled ->
        if (!cancelled()) {
            try { resultA = a() } catch (t: Throwable) { failureA = t }
        }
        if (!cancelled()) {
            try { resultB = b() } catch (t: Throwable) { failureB = t }
        }
    }
    @Suppress("UNCHECKED_CAST")
    return Pair(resultA as A, resultB as B)
}

public actual suspend fun <T> ForagePool.awaitScope(body: (Scope) -> T): T {
    val scope = Scope()
    var result: T? = null
    awaitPoolJob(name(), ::execute, ::rejection, scope::failure, onCancel = scope::cancel) { _ ->
        result = scope.runBodyThenJobs(body)
    }
    @Suppress("UNCHECKED_CAST")
    return result as T
}

public actual fun Scope.spawn(task: (Scope) -> Unit) {
    spawn(Runnable { task(this) })
}

/** One awaitScope's jobs on one thread: the body, then every spawned job in the order spawned. */
@OptIn(ExperimentalAtomicApi::class)
public actual class Scope internal constructor() {
    private val jobs = ArrayDeque<Runnable>()
    private val cancelled = AtomicBoolean(false)
    private var ended = false
    private var firstFailure: Throwable? = null

    public actual fun spawn(job: Runnable) {
        check(!ended) {
            "Scope.spawn called after the scope ended; spawn only from the scope's body or from jobs spawned into it"
        }
        if (!cancelled.load()) jobs.addLast(job)
    }

    public actual fun cancel() {
        cancelled.store(true)
    }

    public actual fun isCancelled(): Boolean = cancelled.load()

    internal fun failure(): Throwable? = firstFailure

    internal fun <T> runBodyThenJobs(body: (Scope) -> T): T? {
        var result: T? = null
        if (!cancelled.load()) {
            try { result = body(this) } catch (t: Throwable) { fail(t) }
        }
        while (true) {
            val next = jobs.removeFirstOrNull() ?: break
            if (cancelled.load()) continue
            try { next.run() } catch (t: Throwable) { fail(t) }
        }
        ended = true
        return result
    }

    private fun fail(t: Throwable) {
        val first = firstFailure
        if (first == null) firstFailure = t else if (first !== t) first.addSuppressed(t)
    }
}
