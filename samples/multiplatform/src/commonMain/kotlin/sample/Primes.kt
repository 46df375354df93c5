package sample

import dev.forage.coroutines.awaitJoin
import dev.forage.coroutines.awaitScope
import dev.forage.coroutines.forageDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.withContext

/** What [primeReport] found, and the pool it ran on. */
data class Report(val primes: Int, val sum: Long, val parallelism: Int, val jobsRun: Long)

/**
 * The shared logic, written once in commonMain: counts the primes below [limit] three ways on a private Forage
 * pool (spawned jobs, a join, coroutines) and checks that they agree with a plain loop. On the JVM the pool is the
 * work-stealing engine with [threads] workers; on Node it is the event loop.
 */
suspend fun primeReport(limit: Int, threads: Int, chunks: Int = 16): Report =
    forageDispatcher { this.threads = threads; name = "primes" }.use { dispatcher ->
        val pool = dispatcher.pool
        val counts = IntArray(chunks)
        pool.awaitScope { scope ->
            for (c in 0 until chunks) scope.spawn { counts[c] = countPrimes(part(c, chunks, limit), part(c + 1, chunks, limit)) }
        }
        val (low, high) = pool.awaitJoin({ sumPrimes(0, limit / 2) }, { sumPrimes(limit / 2, limit) })
        val byCoroutines = withContext(dispatcher) {
            (0 until chunks).map { c -> async { countPrimes(part(c, chunks, limit), part(c + 1, chunks, limit)) } }
                .awaitAll().sum()
        }
        val expected = countPrimes(0, limit)
        check(counts.sum() == expected) { "awaitScope counted ${counts.sum()} primes, a plain loop $expected" }
        check(byCoroutines == expected) { "coroutines counted $byCoroutines primes, a plain loop $expected" }
        check(low + high == sumPrimes(0, limit)) { "awaitJoin summed ${low + high}" }
        Report(expected, low + high, pool.parallelism(), pool.statistics().jobsRun())
    }

private fun part(i: Int, parts: Int, limit: Int): Int = (limit.toLong() * i / parts).toInt()

private fun isPrime(n: Int): Boolean {
    if (n < 2) return false
    var d = 2
    while (d * d <= n) {
        if (n % d == 0) return false
        d++
    }
    return true
}

private fun countPrimes(from: Int, until: Int): Int = (from until until).count(::isPrime)

private fun sumPrimes(from: Int, until: Int): Long = (from until until).filter(::isPrime).sumOf { it.toLong() }
