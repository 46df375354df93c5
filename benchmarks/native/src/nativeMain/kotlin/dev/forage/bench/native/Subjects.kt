@file:OptIn(DelicateCoroutinesApi::class, ExperimentalCoroutinesApi::class)

package dev.forage.bench.native

import dev.forage.coroutines.ForagePool
import dev.forage.coroutines.forageDispatcher
import kotlinx.coroutines.CloseableCoroutineDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.newFixedThreadPoolContext

/**
 * One scheduler under test: a dispatcher, and for Forage its pool (for `awaitScope` and the counters).
 * [close] releases what the subject created; the shared `Dispatchers.Default` is left running.
 */
internal class Subject(
    val id: String,
    val dispatcher: CoroutineDispatcher,
    val pool: ForagePool?,
    private val closeable: CloseableCoroutineDispatcher?,
) : AutoCloseable {
    override fun close() {
        closeable?.close()
    }

    companion object {
        /** The subjects in the runner's order: Forage, then the anchors. */
        val IDS = listOf("forage", "default", "fixed")

        /**
         * `default` is kotlinx's shared scheduler, sized by kotlinx itself (the available processors, at least
         * 2); it cannot be given [threads], so a run with another count says so in its INFO line.
         */
        fun create(id: String, threads: Int): Subject = when (id) {
            "forage" -> {
                val d = forageDispatcher {
                    this.threads = threads
                    name = "forage-bench"
                }
                Subject(id, d, d.pool, d)
            }
            "default" -> Subject(id, Dispatchers.Default, null, null)
            "fixed" -> {
                val d = newFixedThreadPoolContext(threads, "fixed-bench")
                Subject(id, d, null, d)
            }
            else -> throw IllegalArgumentException("unknown subject '$id'; known: ${IDS.joinToString()}")
        }
    }
}
