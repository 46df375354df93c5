package dev.forage.samples.android

import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.currentCoroutineContext

/**
 * Counts the primes below [limit] by splitting the range into [slices] and counting each slice in its own
 * `async`: run it on Forage and the slices spread over the pool's workers by work stealing.
 *
 * Cooperative: every slice checks for cancellation between blocks of numbers, so cancelling the caller
 * (an Activity being destroyed) stops the work within a block.
 *
 * ```
 * val count = withContext(Dispatchers.Forage) { countPrimesBelow(1_000_000) }   // 78498
 * ```
 */
suspend fun countPrimesBelow(limit: Int, slices: Int = DEFAULT_SLICES): Int {
    require(limit >= 0) { "limit must be >= 0, was $limit" }
    require(slices >= 1) { "slices must be >= 1, was $slices" }
    // Long arithmetic: limit may be close to Int.MAX_VALUE.
    val sliceSize = (limit.toLong() + slices - 1) / slices
    return coroutineScope {
        (0 until slices).map { i ->
            val from = minOf(limit.toLong(), i * sliceSize).toInt()
            val until = minOf(limit.toLong(), from + sliceSize).toInt()
            async { countPrimesIn(from, until) }
        }.awaitAll().sum()
    }
}

private suspend fun countPrimesIn(from: Int, until: Int): Int {
    var count = 0
    var n = from
    while (n < until) {
        val blockEnd = if (until - n > CANCELLATION_CHECK_EVERY) n + CANCELLATION_CHECK_EVERY else until
        while (n < blockEnd) {
            if (isPrime(n)) count++
            n++
        }
        currentCoroutineContext().ensureActive()
    }
    return count
}

private fun isPrime(n: Int): Boolean {
    if (n < 2) return false
    if (n < 4) return true
    if (n % 2 == 0) return false
    var d = 3
    while (d.toLong() * d <= n) {
        if (n % d == 0) return false
        d += 2
    }
    return true
}

private const val DEFAULT_SLICES = 8
private const val CANCELLATION_CHECK_EVERY = 4096
