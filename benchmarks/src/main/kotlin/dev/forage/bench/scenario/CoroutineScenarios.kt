package dev.forage.bench.scenario

import dev.forage.bench.Budget
import dev.forage.bench.Measure
import dev.forage.bench.Metric
import dev.forage.bench.Results
import dev.forage.bench.Running
import dev.forage.bench.Scenario
import dev.forage.bench.Subject
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.async
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield

/**
 * The coroutine scenarios: each takes the subject's [CoroutineDispatcher] and runs the same code on it. The
 * caller blocks in `runBlocking` and the work moves onto the dispatcher with `withContext`, so every coroutine
 * below is launched from inside the pool.
 */
object CoroutineScenarios {
    private const val TIMEOUT_MS = Scenarios.OP_TIMEOUT_SECONDS * 1000

    @JvmStatic
    fun fib(): Scenario = CoroutineScenario(
        "fib-async", "coroutine fib(30), cutoff 12",
        "The fib(30) recursion of fib-join written with coroutines: `coroutineScope { val a = async { fib(n-1) }; " +
            "fib(n-2) + a.await() }`, sequential below n = 12, on each dispatcher. Time per fib(30).",
    ) { d, b ->
        val n = b.size(ForkJoinFib.N, 20)
        val expected = ForkJoinFib.sequential(n)
        run(d) {
            val r = fibAsync(n)
            Scenarios.check(r == expected, "fib($n) = $r, expected $expected")
        }
    }

    @JvmStatic
    fun launches(): Scenario = CoroutineScenario(
        "launch-1m", "10^6 launches from inside",
        "A coroutine on the dispatcher launches 10^6 empty child coroutines in a `coroutineScope` and waits " +
            "for all. Time per 10^6 launches. After the timed part, three untimed operations (whose children " +
            "count themselves) split the time into the launch loop and the rest, and count the children that " +
            "ran during the loop (the run details' \"launch loop\").",
        after = { d, b, out -> out.info(LaunchLoop.INFO_KEY, LaunchLoop.measure(d, b.size(1_000_000, 10_000), 3)) },
    ) { d, b ->
        val n = b.size(1_000_000, 10_000)
        run(d) {
            coroutineScope {
                repeat(n) { launch { } }
            }
        }
    }

    @JvmStatic
    fun pingPong(): Scenario = CoroutineScenario(
        "pingpong-200k", "Channel ping-pong 200k",
        "Two coroutines on the dispatcher pass a number back and forth through two rendezvous `Channel`s, " +
            "200,000 round trips. Each send resumes the other side through `dispatch`. Time per 200k round trips.",
    ) { d, b ->
        val n = b.size(200_000, 2_000)
        run(d) {
            val ping = Channel<Int>()
            val pong = Channel<Int>()
            coroutineScope {
                launch {
                    repeat(n) { pong.send(ping.receive() + 1) }
                }
                var x = 0
                repeat(n) {
                    ping.send(x)
                    x = pong.receive()
                }
                Scenarios.check(x == n, "ping-pong ended at $x, expected $n")
            }
        }
    }

    @JvmStatic
    fun chain(): Scenario = CoroutineScenario(
        "chain-200k", "chained launch 200k",
        "A coroutine launches its successor and ends, 200,000 times in a row (each new coroutine is " +
            "dispatched from inside the pool by the one before it). Time per chain.",
    ) { d, b ->
        val n = b.size(200_000, 2_000)
        run(d) {
            coroutineScope {
                val scope = this
                var left = n
                fun next() {
                    scope.launch {
                        if (--left > 0) next()
                    }
                }
                next()
            }
        }
    }

    @JvmStatic
    fun yields(): Scenario = CoroutineScenario(
        "yield", "yield loops (8 × 1000)",
        "8 coroutines each call `yield()` 1000 times; every `yield` hands the coroutine back to the dispatcher " +
            "(`dispatchYield`). Time until all 8 loops are done. Whether the others run in between is up to the " +
            "dispatcher: after the timed part, one untimed pass counts how many times in a row a coroutine was " +
            "resumed on its worker before another one ran there (the run details' \"turns in a row\").",
        after = { d, b, out -> out.info(YieldTurns.INFO_KEY, YieldTurns.measure(d, b.size(1000, 50))) },
    ) { d, b ->
        val each = b.size(1000, 50)
        run(d) {
            coroutineScope {
                repeat(8) {
                    launch { repeat(each) { yield() } }
                }
            }
        }
    }

    private suspend fun fibAsync(n: Int): Long {
        if (n <= ForkJoinFib.CUTOFF) return ForkJoinFib.sequential(n)
        return coroutineScope {
            val a = async { fibAsync(n - 1) }
            val b = fibAsync(n - 2)
            a.await() + b
        }
    }

    /** Blocks the calling (outside) thread while [body] runs on [d]. */
    private fun run(d: CoroutineDispatcher, body: suspend CoroutineScope.() -> Unit) {
        runBlocking {
            withTimeout(TIMEOUT_MS) {
                withContext(d, body)
            }
        }
    }
}

/**
 * A throughput scenario over a coroutine dispatcher; [op] is one timed operation, and [after], if given, runs
 * once after the timed part to add facts to the run details.
 */
private class CoroutineScenario(
    private val id: String,
    private val title: String,
    private val description: String,
    private val after: ((CoroutineDispatcher, Budget, Results) -> Unit)? = null,
    private val op: (CoroutineDispatcher, Budget) -> Unit,
) : Scenario {
    override fun id() = id
    override fun title() = title
    override fun description() = description
    override fun metrics(): List<Metric> = listOf(Scenarios.TIME)
    override fun needs() = Subject.Capability.COROUTINES
    override fun group() = Scenario.Group.THROUGHPUT

    override fun run(subject: Running, budget: Budget, out: Results) {
        val d = subject.requireDispatcher()
        Measure.timeMillis(budget, out, "time") { op(d, budget) }
        after?.invoke(d, budget, out)
    }
}
