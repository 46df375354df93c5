@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines

import dev.forage.coroutines.engine.CountLatch
import dev.forage.coroutines.engine.PosixLock
import dev.forage.coroutines.engine.Registry
import dev.forage.coroutines.engine.Worker
import dev.forage.coroutines.engine.currentWorker
import dev.forage.coroutines.engine.locked
import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlinx.coroutines.Runnable

/**
 * Runs [a] and [b] in parallel on the pool (Rayon's `join` on one of its workers: `b` is pushed for thieves and
 * taken back if nobody stole it) and returns both results; the coroutine suspends meanwhile. Failures and
 * cancellation as on the JVM (docs/multiplatform.md, "The common API").
 */
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
        currentWorker()!!.join( // the job runs on one of this pool's workers
            { if (!cancelled()) try { resultA = a() } catch (t: Throwable) { failureA = t } },
            { if (!cancelled()) try { resultB = b() } catch (t: Throwable) { failureB = t } },
        )
    }
    @Suppress("UNCHECKED_CAST")
    return Pair(resultA as A, resultB as B)
}

/**
 * Runs [body], which may [spawn][Scope.spawn] jobs that run in parallel on the pool, and returns its result once
 * the body and every job ended; the coroutine suspends meanwhile. The first failure is rethrown, later ones
 * suppressed in it; a failing job does not cancel its siblings; cancelling the caller cancels the scope.
 */
public actual suspend fun <T> ForagePool.awaitScope(body: (Scope) -> T): T {
    var scope: Scope? = null
    var result: T? = null
    awaitPoolJob(name(), ::execute, ::rejection, { scope?.failure() }, onCancel = { scope?.cancel() }) { cancelled ->
        val worker = currentWorker()!! // the job runs on one of this pool's workers
        val s = Scope(registry, worker)
        scope = s
        if (cancelled()) s.cancel()
        result = s.runBodyThenJobs(worker, body)
    }
    @Suppress("UNCHECKED_CAST")
    return result as T
}

public actual fun Scope.spawn(task: (Scope) -> Unit) {
    spawn(Runnable { task(this) })
}

/**
 * A fork-join scope on a native pool (Rayon's `scope`): jobs spawned into it run in parallel on the pool, and
 * the scope ends once the body and every job ended. Its latch counts the body and the jobs; the worker that runs
 * the body owns it and runs other jobs while it waits.
 */
public actual class Scope internal constructor(private val registry: Registry, owner: Worker) {
    private val latch = CountLatch(registry.sleep, owner.index)

    /** The owner's deque position when the scope began: jobs spawned from the body on the owner lie above it. */
    private val floor = owner.dequeFloor()
    private val cancelled = AtomicBoolean(false)
    private val ended = AtomicBoolean(false)
    private val failureLock = PosixLock()
    private var firstFailure: Throwable? = null // under failureLock

    /**
     * Adds [job] to the scope; it may run in parallel with the body and the other jobs. Nothing is queued once
     * the scope is cancelled.
     *
     * @throws IllegalStateException if the scope already ended
     */
    public actual fun spawn(job: Runnable) {
        check(!ended.load()) {
            "Scope.spawn called after the scope ended; spawn only from the scope's body or from jobs spawned into it"
        }
        if (cancelled.load()) return
        latch.increment()
        val scoped = Runnable {
            try {
                if (!cancelled.load()) job.run()
            } catch (t: Throwable) {
                fail(t)
            } finally {
                latch.decrement()
            }
        }
        val worker = currentWorker()
        if (worker != null && worker.registry === registry) worker.push(scoped) else registry.injectInternal(scoped)
    }

    /** Jobs not started yet will not run, and [spawn] queues nothing more; running jobs are not interrupted. */
    public actual fun cancel() {
        cancelled.store(true)
    }

    public actual fun isCancelled(): Boolean = cancelled.load()

    internal fun failure(): Throwable? = failureLock.locked { firstFailure }

    internal fun <T> runBodyThenJobs(worker: Worker, body: (Scope) -> T): T? {
        var result: T? = null
        try {
            if (!cancelled.load()) result = body(this)
        } catch (t: Throwable) {
            fail(t)
        } finally {
            latch.decrement() // the body's own count
        }
        worker.waitUntil(latch, floor)
        ended.store(true)
        return result
    }

    private fun fail(t: Throwable) {
        failureLock.locked {
            val first = firstFailure
            if (first == null) firstFailure = t else if (first !== t) first.addSuppressed(t)
        }
    }
}
