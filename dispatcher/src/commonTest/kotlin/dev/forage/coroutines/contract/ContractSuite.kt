@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.contract

import dev.forage.coroutines.Forage
import dev.forage.coroutines.ForageDispatcher
import dev.forage.coroutines.awaitJoin
import dev.forage.coroutines.awaitScope
import dev.forage.coroutines.forageDispatcher
import dev.forage.coroutines.spawn
import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch
import kotlin.coroutines.ContinuationInterceptor
import kotlin.coroutines.coroutineContext
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlin.time.TimeSource
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield

/**
 * The behaviour every target promises for the common API, in one list that every target runs (the JVM through
 * JUnit, JS and Wasm-JS on Node, linuxX64 natively). Each case fails on an implementation that breaks the promise
 * it is named after.
 */
fun contractCases(): List<ContractCase> = listOf(
    ContractCase("dispatch runs coroutines on the pool and resumes the caller") {
        onPrivatePool { d ->
            val caller = coroutineContext[ContinuationInterceptor]
            val squares = withContext(d) {
                checkEquals<Any?>(d, coroutineContext[ContinuationInterceptor], "dispatcher inside withContext")
                (1..100).map { i -> async { i * i } }.awaitAll().sum()
            }
            checkEquals(338350, squares, "sum of squares computed on the pool")
            checkEquals(caller, coroutineContext[ContinuationInterceptor], "dispatcher after withContext")
            checkTrue(d.pool.statistics().jobsRun() >= 100, "the pool counted its jobs: ${d.pool.statistics()}")
        }
    },
    ContractCase("Dispatchers.Forage runs coroutines and cannot be closed") {
        val shared = Dispatchers.Forage
        checkEquals("Dispatchers.Forage", shared.toString(), "name of the shared dispatcher")
        checkEquals(55, withContext(shared) { (1..10).map { async { it } }.awaitAll().sum() }, "sum on the shared pool")
        checkThrows<UnsupportedOperationException>("close() of Dispatchers.Forage") { (shared as ForageDispatcher).close() }
        checkEquals(3, withContext(shared) { 3 }, "the shared dispatcher still runs after the refused close")
    },
    ContractCase("the builder checks its settings and names the pool") {
        checkThrows<IllegalArgumentException>("threads = 0") { forageDispatcher { threads = 0 } }
        checkThrows<IllegalArgumentException>("threads = 65536") { forageDispatcher { threads = 65536 } }
        checkThrows<IllegalArgumentException>("name = null") { forageDispatcher { name = null } }
        forageDispatcher { threads = 3; name = "contract-named" }.use { d ->
            checkEquals("contract-named", d.pool.name(), "pool name")
            checkEquals(if (poolsHaveThreads) 3 else 1, d.pool.parallelism(), "parallelism of a 3-thread pool")
        }
    },
    ContractCase("limitedParallelism(1) runs one coroutine at a time; a covering limit keeps the name") {
        onPrivatePool { d ->
            val one = d.limitedParallelism(1)
            val running = AtomicInt(0)
            val most = AtomicInt(0)
            withContext(d) {
                (1..50).map {
                    launch(one) {
                        // A coroutine counts as running between two suspensions. It stays in that stretch for
                        // up to 1 ms unless another one enters, so that a view running two at once is caught.
                        val now = running.incrementAndFetch()
                        if (now > most.load()) most.store(now)
                        val until = TimeSource.Monotonic.markNow() + 1.milliseconds
                        while (running.load() == 1 && !until.hasPassedNow()) { /* spin */ }
                        if (running.load() > most.load()) most.store(running.load())
                        running.decrementAndFetch()
                        yield()
                    }
                }.forEach { it.join() }
            }
            checkEquals(1, most.load(), "most coroutines of limitedParallelism(1) running at once")
            checkEquals("db", d.limitedParallelism(65535, "db").toString(), "a named view over the whole pool")
            val e = checkThrows<IllegalArgumentException>("limitedParallelism(0)") { d.limitedParallelism(0) }
            checkTrue(e.message!!.contains("at least 1"), "the message says what is allowed: ${e.message}")
        }
    },
    ContractCase("delay on the pool waits at least its time and resumes on the pool") {
        onPrivatePool { d ->
            withContext(d) {
                val start = TimeSource.Monotonic.markNow()
                delay(50)
                checkTrue(start.elapsedNow() >= 50.milliseconds, "delay(50) returned after ${start.elapsedNow()}")
                checkEquals<Any?>(d, coroutineContext[ContinuationInterceptor], "dispatcher after delay")
            }
        }
    },
    ContractCase("withTimeout on the pool cancels a block that runs too long and returns a quick one's result") {
        onPrivatePool { d ->
            withContext(d) {
                checkThrows<TimeoutCancellationException>("withTimeout(20) around delay(60 s)") {
                    withTimeout(20) { delay(60_000) }
                }
                checkEquals(42, withTimeout(30.seconds) { 42 }, "result within the timeout")
            }
        }
    },
    ContractCase("yield lets the other coroutines of a one-thread pool run") {
        forageDispatcher { threads = 1; name = "contract-yield" }.use { d ->
            val other = AtomicBoolean(false)
            var yields = 0
            withContext(d) {
                val spinner = launch {
                    while (!other.load()) {
                        yields++
                        yield() // an unfair yield would resume this loop at once, forever
                    }
                }
                launch { other.store(true) }
                spinner.join()
            }
            checkTrue(other.load(), "the other coroutine ran")
            checkTrue(yields >= 1, "the spinner yielded")
        }
    },
    ContractCase("cancelling a coroutine in delay on the pool completes it at once") {
        onPrivatePool { d ->
            val started = CompletableDeferred<Unit>()
            val job = CoroutineScope(d).launch {
                started.complete(Unit)
                delay(3_600_000)
            }
            started.await()
            job.cancelAndJoin()
            checkTrue(job.isCancelled, "the job is cancelled")
        }
    },
    ContractCase("close cancels coroutines waiting in delay; later dispatches and joins are cancelled") {
        val d = forageDispatcher { threads = 2; name = "contract-close" }
        val started = CompletableDeferred<Unit>()
        val finallyRan = AtomicBoolean(false)
        val waiting = CoroutineScope(Job()).launch(d) {
            try {
                started.complete(Unit)
                delay(3_600_000)
            } finally {
                finallyRan.store(true)
            }
        }
        started.await()
        d.close()
        waiting.join()
        checkTrue(waiting.isCancelled, "the coroutine in delay was cancelled by close")
        checkTrue(finallyRan.load(), "its finally block ran")
        checkTrue(d.pool.isShutdown(), "the pool is shut down")
        d.close() // idempotent
        val late = CoroutineScope(Job()).launch(d) { fail("a coroutine dispatched to a closed pool ran its body") }
        late.join()
        checkTrue(late.isCancelled, "a coroutine launched after close is cancelled")
        val join = CoroutineScope(Job()).async { d.pool.awaitJoin({ 1 }, { 2 }) }
        checkThrows<CancellationException>("awaitJoin on a closed pool") { join.await() }
        checkTrue(join.isCancelled, "the caller of awaitJoin on a closed pool is cancelled")
    },
    ContractCase("awaitJoin returns both results, from outside the pool and from inside") {
        onPrivatePool { d ->
            checkEquals(Pair(1, "b"), d.pool.awaitJoin({ 1 }, { "b" }), "awaitJoin from outside")
            val inside = withContext(d) { d.pool.awaitJoin({ fib(15) }, { fib(16) }) }
            checkEquals(Pair(610, 987), inside, "awaitJoin from a coroutine on the pool")
        }
    },
    ContractCase("awaitJoin rethrows a half's failure after both halves ran, the other's suppressed") {
        onPrivatePool { d ->
            val bRan = AtomicBoolean(false)
            val e = checkThrows<IllegalStateException>("awaitJoin with a failing half") {
                d.pool.awaitJoin({ throw IllegalStateException("a failed") }, { bRan.store(true) })
            }
            checkEquals("a failed", e.message, "the failure of a")
            checkTrue(bRan.load(), "b ran although a failed")
            val both = checkThrows<IllegalStateException>("awaitJoin with two failing halves") {
                d.pool.awaitJoin({ throw IllegalStateException("a") }, { throw IllegalArgumentException("b") })
            }
            checkEquals("a", both.message, "a's failure is thrown")
            checkEquals(listOf("b"), both.suppressedExceptions.map { it.message }, "b's failure is suppressed in a's")
        }
    },
    ContractCase("awaitScope runs the body and every spawned job, nested ones too, and returns the body's result") {
        onPrivatePool { d ->
            val squares = IntArray(100)
            val nested = AtomicInt(0)
            val result = d.pool.awaitScope { s ->
                for (i in 0 until 100) s.spawn { squares[i] = i * i }
                s.spawn { inner -> inner.spawn { nested.incrementAndFetch() } }
                "body"
            }
            checkEquals("body", result, "awaitScope's result")
            checkEquals(328350, squares.sum(), "every spawned job ran before awaitScope returned")
            checkEquals(1, nested.load(), "the job spawned by a job ran")
        }
    },
    ContractCase("awaitScope rethrows the first failure after every job ran; siblings are not cancelled") {
        onPrivatePool { d ->
            val ran = AtomicInt(0)
            val e = checkThrows<IllegalStateException>("awaitScope with a failing job") {
                d.pool.awaitScope { s ->
                    s.spawn { throw IllegalStateException("job failed") }
                    for (i in 0 until 10) s.spawn { ran.incrementAndFetch() }
                }
            }
            checkEquals("job failed", e.message, "the job's failure")
            checkEquals(10, ran.load(), "the failing job's siblings all ran")
        }
    },
    ContractCase("a cancelled scope starts no more jobs") {
        onPrivatePool { d ->
            val ran = AtomicInt(0)
            val outcome = runCatching {
                d.pool.awaitScope { s ->
                    s.cancel()
                    checkTrue(s.isCancelled(), "isCancelled after cancel")
                    for (i in 0 until 10) s.spawn { ran.incrementAndFetch() }
                }
            }
            checkEquals(0, ran.load(), "jobs spawned into a cancelled scope that ran (outcome $outcome)")
        }
    },
    ContractCase("awaitJoin runs its halves in parallel where the pool has threads, else a then b") {
        onPrivatePool { d ->
            if (poolsHaveThreads) {
                checkTrue(d.pool.parallelism() >= 2, "a 2-thread pool has parallelism ${d.pool.parallelism()}")
                // Each half waits until it has seen the other running: only two threads at once get both past.
                // The wait is bounded so that a pool that runs the halves one after the other fails instead of hanging.
                val arrivals = AtomicInt(0)
                fun meet(): Boolean {
                    arrivals.incrementAndFetch()
                    val deadline = TimeSource.Monotonic.markNow() + 30.seconds
                    while (arrivals.load() < 2) {
                        if (deadline.hasPassedNow()) return false
                    }
                    return true
                }
                val (a, b) = d.pool.awaitJoin({ meet() }, { meet() })
                checkTrue(a && b, "both halves ran at the same time (a saw b: $a, b saw a: $b)")
            } else {
                checkEquals(1, d.pool.parallelism(), "parallelism of a one-thread pool")
                checkEquals(1, d.pool.statistics().threads(), "threads of a one-thread pool")
                val order = mutableListOf<String>()
                d.pool.awaitJoin({ order.add("a") }, { order.add("b") })
                checkEquals(listOf("a", "b"), order, "order of the halves on one thread")
            }
        }
    },
    ContractCase("statistics count the pool's jobs") {
        onPrivatePool { d ->
            val before = d.pool.statistics().jobsRun()
            withContext(d) { (1..20).map { launch { } }.forEach { it.join() } }
            val s = d.pool.statistics()
            checkTrue(s.jobsRun() >= before + 20, "jobsRun went from $before to ${s.jobsRun()} after 20 launches")
            checkTrue(s.steals() >= 0 && s.queuedJobs() >= 0 && s.injectedJobs() >= 1, "counters: $s")
            if (!poolsHaveThreads) checkEquals(0L, s.steals(), "steals on one thread")
        }
    },
)

private fun fib(n: Int): Int = if (n < 2) n else fib(n - 1) + fib(n - 2)

/** Runs [block] with a new 2-thread pool, closed afterwards. */
private suspend fun onPrivatePool(block: suspend (ForageDispatcher) -> Unit) {
    val d = forageDispatcher { threads = 2; name = "contract" }
    try {
        coroutineScope { block(d) }
    } finally {
        d.close()
    }
}
