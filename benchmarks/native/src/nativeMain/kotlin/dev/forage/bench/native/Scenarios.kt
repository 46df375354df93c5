@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.bench.native

import dev.forage.coroutines.Scope
import dev.forage.coroutines.awaitScope
import dev.forage.coroutines.spawn
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.coroutines.EmptyCoroutineContext
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Runnable
import kotlinx.coroutines.async
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield

/**
 * How much one process measures. Kotlin/Native is compiled ahead of time, so the warm-up only has to start the
 * threads and fill the allocator, not wait for a compiler as the JVM runner's does.
 */
internal enum class Budget(
    val warmup: Int,
    val iterations: Int,
    /** Timed operations stop after [maxNanos] once this many were timed. */
    val minIterations: Int,
    val maxNanos: Long,
    /** Windows of the low-load and idle scenarios, and their length. */
    val windows: Int,
    val windowNanos: Long,
    /** Wake-up samples per window. */
    val samples: Int,
    /** The smoke test's sizes: every scenario in a fraction of a second. */
    val tiny: Boolean,
) {
    FULL(3, 10, 3, 8_000_000_000L, 5, 1_000_000_000L, 1000, false),
    SHORT(1, 5, 3, 4_000_000_000L, 3, 500_000_000L, 500, false),
    SMOKE(0, 1, 1, 0L, 1, 30_000_000L, 20, true);

    /** The warm-up stops after its first operation once this much time went into it (10^6 launches take seconds). */
    val maxWarmupNanos: Long get() = maxNanos / 8

    fun size(full: Int, tiny: Int): Int = if (this.tiny) tiny else full
}

/** The result lines of one run, in the JVM runner's protocol (ResultLine.java), on stdout. */
internal class Out(
    private val scenario: String,
    private val subject: String,
    private val threads: Int,
    /** The smoke test keeps its log short: it checks the results and prints none. */
    private val print: Boolean = true,
) {
    val results = mutableListOf<Pair<String, List<Double>>>()

    fun result(key: String, values: List<Double>) {
        check(values.isNotEmpty() && values.all { it.isFinite() && it >= 0 }) { "$scenario/$key: bad values $values" }
        results += key to values
        if (print) println("@@forage-bench RESULT scenario=$scenario subject=$subject threads=$threads key=$key values=" +
            values.joinToString(","))
    }

    fun info(key: String, value: String) {
        if (print) println("@@forage-bench INFO scenario=$scenario subject=$subject threads=$threads key=$key value=" +
            encode(value))
    }

    /** Form encoding as java.net.URLDecoder reads it, for the few characters an INFO value can hold. */
    private fun encode(s: String): String = buildString {
        for (c in s) {
            when {
                c == ' ' -> append('+')
                c.isLetterOrDigit() || c in "-_.*" -> append(c)
                c.code < 128 -> append('%').append(c.code.toString(16).uppercase().padStart(2, '0'))
                else -> c.toString().encodeToByteArray().forEach {
                    append('%').append((it.toInt() and 0xff).toString(16).uppercase().padStart(2, '0'))
                }
            }
        }
    }
}

internal class Scenario(val id: String, val run: (Subject, Budget, Out) -> Unit)

internal object Scenarios {
    private const val OP_TIMEOUT_MS = 120_000L
    const val FIB_N = 30
    const val CUTOFF = 12

    val ALL: List<Scenario> = listOf(
        Scenario("fib-join", ::fibJoin),
        Scenario("fib-async", throughput { s, b ->
            val n = b.size(FIB_N, 16)
            val expected = fib(n)
            onPool(s.dispatcher) { check(fibAsync(n) == expected) { "fib($n) is not $expected" } }
        }),
        Scenario("launch-1m", throughput { s, b ->
            val n = b.size(1_000_000, 1_000)
            onPool(s.dispatcher) { coroutineScope { repeat(n) { launch { } } } }
        }),
        Scenario("submit-1m", throughput { s, b -> submitFromOutside(s.dispatcher, b.size(1_000_000, 1_000)) }),
        Scenario("pingpong-200k", throughput { s, b -> pingPong(s.dispatcher, b.size(200_000, 200)) }),
        Scenario("chain-200k", throughput { s, b -> chain(s.dispatcher, b.size(200_000, 200)) }),
        Scenario("yield", throughput { s, b ->
            val each = b.size(1000, 10)
            onPool(s.dispatcher) { coroutineScope { repeat(8) { launch { repeat(each) { yield() } } } } }
        }),
        Scenario("lowload-1ms") { s, b, out -> Windows.lowLoad(s, b, out, periodNanos = 1_000_000L) },
        Scenario("lowload-100us") { s, b, out -> Windows.lowLoad(s, b, out, periodNanos = 100_000L) },
        Scenario("idle", Windows::idle),
        Scenario("wakeup-outside", Windows::wakeup),
    )

    fun byId(id: String): Scenario = ALL.firstOrNull { it.id == id }
        ?: throw IllegalArgumentException("unknown scenario '$id'; known: ${ALL.joinToString { it.id }}")

    /** A scenario timed per operation: [op] is one operation, reported as `time` in ms per operation. */
    private fun throughput(op: (Subject, Budget) -> Unit): (Subject, Budget, Out) -> Unit = { s, b, out ->
        out.result("time", timed(b) { op(s, b) })
    }

    private fun timed(b: Budget, op: () -> Unit): List<Double> {
        val warm = Clocks.now()
        for (i in 0 until b.warmup) {
            if (i > 0 && Clocks.now() - warm > b.maxWarmupNanos) break
            op()
        }
        val times = ArrayList<Double>()
        val start = Clocks.now()
        while (times.size < b.iterations && !(times.size >= b.minIterations && Clocks.now() - start > b.maxNanos)) {
            val t0 = Clocks.now()
            op()
            times += (Clocks.now() - t0) / 1e6
        }
        return times
    }

    /**
     * fib(30) forked and joined from a thread outside the pool. Forage: `awaitScope`, each job spawning fib(n-1)
     * into the scope and computing fib(n-2) itself (the halves of `awaitJoin` are plain functions, which cannot
     * suspend, so the recursion forks through the scope); the leaves add their sums into one counter. The
     * kotlinx dispatchers have no fork-join of their own: their idiomatic equivalent is `async`/`await`
     * recursion on the dispatcher, as in fib-async. Sequential below n = 12 on every subject.
     */
    private fun fibJoin(s: Subject, b: Budget, out: Out) {
        val n = b.size(FIB_N, 16)
        val expected = fib(n)
        val pool = s.pool
        out.result("time", timed(b) {
            val r = if (pool != null) {
                val sum = AtomicLong(0L)
                runBlocking { withTimeout(OP_TIMEOUT_MS) { pool.awaitScope { scope -> fibSpawn(scope, n, sum) } } }
                sum.load()
            } else {
                runBlocking { withTimeout(OP_TIMEOUT_MS) { withContext(s.dispatcher) { fibAsync(n) } } }
            }
            check(r == expected) { "fib($n) = $r, expected $expected" }
        })
    }

    private fun fibSpawn(scope: Scope, n: Int, sum: AtomicLong) {
        if (n <= CUTOFF) {
            sum.addAndFetch(fib(n))
            return
        }
        scope.spawn { inner: Scope -> fibSpawn(inner, n - 1, sum) }
        fibSpawn(scope, n - 2, sum)
    }

    private suspend fun fibAsync(n: Int): Long {
        if (n <= CUTOFF) return fib(n)
        return coroutineScope {
            val a = async { fibAsync(n - 1) }
            val b = fibAsync(n - 2)
            a.await() + b
        }
    }

    fun fib(n: Int): Long = if (n < 2) n.toLong() else fib(n - 1) + fib(n - 2)

    /**
     * The calling thread (outside the pool) dispatches [n] tiny jobs, each counting one down; the last one
     * completes a deferred the caller waits on.
     */
    private fun submitFromOutside(d: CoroutineDispatcher, n: Int) {
        val left = AtomicInt(n)
        val done = CompletableDeferred<Unit>()
        val job = Runnable { if (left.addAndFetch(-1) == 0) done.complete(Unit) }
        repeat(n) { d.dispatch(EmptyCoroutineContext, job) }
        runBlocking { withTimeout(OP_TIMEOUT_MS) { done.await() } }
    }

    private fun pingPong(d: CoroutineDispatcher, n: Int) = onPool(d) {
        val ping = Channel<Int>()
        val pong = Channel<Int>()
        coroutineScope {
            launch { repeat(n) { pong.send(ping.receive() + 1) } }
            var x = 0
            repeat(n) {
                ping.send(x)
                x = pong.receive()
            }
            check(x == n) { "ping-pong ended at $x, expected $n" }
        }
    }

    private fun chain(d: CoroutineDispatcher, n: Int) = onPool(d) {
        coroutineScope {
            val scope = this
            var left = n
            fun next() {
                scope.launch { if (--left > 0) next() }
            }
            next()
        }
    }

    /** Blocks the calling (outside) thread while [body] runs on [d]. */
    private fun onPool(d: CoroutineDispatcher, body: suspend CoroutineScope.() -> Unit) {
        runBlocking { withTimeout(OP_TIMEOUT_MS) { withContext(d, body) } }
    }
}
