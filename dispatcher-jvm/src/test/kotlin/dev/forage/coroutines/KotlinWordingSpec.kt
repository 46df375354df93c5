package dev.forage.coroutines

import dev.forage.SleepProtocol
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.assertions.withClue
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldNotContain
import kotlin.time.Duration.Companion.microseconds
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/**
 * The words of the Java builder that a Kotlin user cannot type: its calls (`maxParallelism(n)`,
 * `ioWorkers()`, `ForagePoolBuilder`), its `TimeUnit`s, `QueueFullPolicy.` constants written as Java code.
 */
private val javaOnly = listOf(
    "ForagePoolBuilder", "maxParallelism(", "ioWorkers()", "singleThreaded()", "maxBlockingThreads(",
    "whenQueueFull(", "MILLISECONDS", "MICROSECONDS", "NANOSECONDS",
)

/** A message a Kotlin call surfaced: short, and in the words of the DSL and the Kotlin API. */
private fun String?.shouldBeInKotlinWords(vararg mentions: String) {
    val m = this ?: throw AssertionError("no message")
    withClue(m) {
        for (word in javaOnly) m shouldNotContain word
        for (word in mentions) m shouldContain word
        (m.length <= 300) shouldBe true
    }
}

/**
 * Every path where a Kotlin call reaches a check of the Java core (the DSL's build, `dispatcher.pool`'s
 * methods, a dispatch the pool refuses) reports it in the words a Kotlin user wrote: the DSL's property names
 * and Kotlin's `Duration`s.
 */
class KotlinWordingSpec : FunSpec({
    test("the DSL's cross-setting checks name its properties") {
        shouldThrow<IllegalArgumentException> {
            forageDispatcher { threads = 4; maxParallelism = 2 }
        }.message.shouldBeInKotlinWords("maxParallelism (2) is below threads (4)")
        shouldThrow<IllegalArgumentException> {
            forageDispatcher { threads = 2; maxParallelism = 3; ioWorkers = true }
        }.message.shouldBeInKotlinWords("with ioWorkers", "allowed: ")
        shouldThrow<IllegalArgumentException> {
            forageDispatcher { ioWorkers = true; sleepProtocol = SleepProtocol.EMPER }
        }.message.shouldBeInKotlinWords("ioWorkers needs SleepProtocol.JEC", "EMPER")
    }

    test("a Duration the DSL refuses is quoted as Kotlin prints it") {
        val b = ForageDispatcherBuilder()
        shouldThrow<IllegalArgumentException> { b.blockingKeepAlive = 500.microseconds }
            .message.shouldBeInKotlinWords("was 500us")
        shouldThrow<IllegalArgumentException> { b.longJobThreshold = 1500.microseconds }
            .message.shouldBeInKotlinWords("was 1.5ms")
    }

    test("dispatcher.pool.setParallelism names the maxParallelism setting, not a builder's call") {
        forageDispatcher { threads = 2; maxParallelism = 4; name = "wording-resize" }.use { d ->
            shouldThrow<IllegalArgumentException> { d.pool.setParallelism(5) }
                .message.shouldBeInKotlinWords("between 1 and 4", "maxParallelism", "was 5")
            d.close()
            shouldThrow<IllegalStateException> { d.pool.setParallelism(1) }
                .message.shouldBeInKotlinWords("is shut down", "allowed: ")
        }
        forageDispatcher { threads = 1; ioWorkers = true; name = "wording-io" }.use { d ->
            shouldThrow<UnsupportedOperationException> { d.pool.setParallelism(1) }
                .message.shouldBeInKotlinWords("has ioWorkers")
        }
    }

    test("closing the shared pool points to forageDispatcher") {
        shouldThrow<UnsupportedOperationException> { (Dispatchers.Forage as ForageDispatcher).pool.close() }
            .message!! shouldContain "forageDispatcher { }"
    }

    test("limitedParallelism and a blocking dispatcher without blocking threads say so in Kotlin's words") {
        forageDispatcher { threads = 1; maxBlockingThreads = 0; name = "wording-blocking" }.use { d ->
            shouldThrow<IllegalArgumentException> { d.limitedParallelism(0) }
                .message.shouldBeInKotlinWords("limitedParallelism", "at least 1, was 0")
            withWatchdog {
                shouldThrow<CancellationException> { withContext(d.blocking) { 1 } }
                    .message.shouldBeInKotlinWords("pool wording-blocking has maxBlockingThreads = 0")
            }
        }
        Dispatchers.ForageBlocking.toString() shouldBe "Dispatchers.ForageBlocking"
    }
})
