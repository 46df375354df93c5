package dev.forage.coroutines

import dev.forage.ForagePool
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.shouldNotBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldStartWith
import io.kotest.matchers.types.shouldBeSameInstanceAs
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.asExecutor
import kotlinx.coroutines.withContext

class EntryPointsSpec : FunSpec({
    test("forageDispatcher builds a private pool with the given threads, name and daemon flag") {
        forageDispatcher {
            threads = 3
            name = "dsl"
            daemon = false
        }.use { d ->
            d.pool.parallelism() shouldBe 3
            d.pool.name() shouldBe "dsl"
            d.toString() shouldBe "ForageDispatcher[dsl]"
            val thread = withWatchdog { withContext(d) { Thread.currentThread() } }
            thread.name shouldStartWith "dsl-worker-"
            thread.isDaemon shouldBe false
        }
    }

    test("the builder rejects bad settings at once, with the allowed values") {
        forageDispatcher {
            shouldThrow<IllegalArgumentException> { threads = 0 }.message shouldContain "threads must be between 1 and"
            shouldThrow<IllegalArgumentException> { name = "  " }.message shouldContain "blank"
            shouldThrow<IllegalArgumentException> { name = null }.message shouldContain "must not be null"
            threads = 1
        }.use { it.pool.parallelism() shouldBe 1 }
    }

    test("Dispatchers.Forage is one object, the Java factory's too, over the common pool") {
        Dispatchers.Forage shouldBeSameInstanceAs ForageDispatcher.common()
        Dispatchers.Forage.toString() shouldBe "Dispatchers.Forage"
        (Dispatchers.Forage as ForageDispatcher).pool shouldBeSameInstanceAs ForagePool.commonPool()
        Dispatchers.Forage.limitedParallelism(ForagePool.commonPool().parallelism()) shouldBeSameInstanceAs
            Dispatchers.Forage
    }

    test("dispatchers over the same pool are equal; the executor is the pool") {
        val pool = ForagePool.builder().threads(1).name("same-pool").build()
        pool.asForageDispatcher().use { d ->
            d shouldBe ForageDispatcher.from(pool)
            d.hashCode() shouldBe ForageDispatcher.from(pool).hashCode()
            d shouldNotBe Dispatchers.Forage
            d.executor shouldBeSameInstanceAs pool
            d.asExecutor() shouldBeSameInstanceAs pool
            // Equal dispatchers: withContext between them stays on the thread without a dispatch.
            withWatchdog {
                withContext(d) {
                    val here = Thread.currentThread()
                    withContext(ForageDispatcher.from(pool)) { Thread.currentThread() } shouldBeSameInstanceAs here
                }
            }
        }
        pool.isTerminated shouldBe true
    }
})
