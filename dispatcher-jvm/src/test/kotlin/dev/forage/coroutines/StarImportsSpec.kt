package dev.forage.coroutines

import dev.forage.ForagePool
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import kotlinx.coroutines.*

/**
 * A file that imports all of kotlinx.coroutines and all of Forage's coroutines package, as user code does: the
 * Forage entry points still resolve to Forage's dispatcher, never to kotlinx's generic executor wrapper.
 */
class StarImportsSpec : FunSpec({
    test("asForageDispatcher under star imports is Forage's dispatcher: pool timers, Forage views, close closes the pool") {
        val pool = ForagePool.builder().threads(2).name("star-imports").build()
        val d = pool.asForageDispatcher()
        (d as Any is ForageDispatcher) shouldBe true
        d.limitedParallelism(1).javaClass.name.startsWith("dev.forage.") shouldBe true
        withWatchdog { withContext(d) { delay(1); ForagePool.current() } } shouldBe pool
        d.close()
        pool.isShutdown shouldBe true
        pool.isTerminated shouldBe true
    }
})
