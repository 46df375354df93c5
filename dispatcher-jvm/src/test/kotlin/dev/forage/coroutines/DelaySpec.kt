package dev.forage.coroutines

import dev.forage.timerQueueSize
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.longs.shouldBeGreaterThanOrEqual
import io.kotest.matchers.nulls.shouldBeNull
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldStartWith
import java.io.File
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull

class DelaySpec : FunSpec({
    test("delay resumes on a pool worker, no earlier than asked") {
        testDispatcher(2, "delay").use { d ->
            withWatchdog {
                (0 until 40).map { i ->
                    launch(d) {
                        val millis = (i % 4) * 10L + 1
                        val start = System.nanoTime()
                        delay(millis)
                        (System.nanoTime() - start) shouldBeGreaterThanOrEqual TimeUnit.MILLISECONDS.toNanos(millis)
                        Thread.currentThread().name shouldStartWith "delay-worker-"
                    }
                }.joinAll()
                d.pool.timerQueueSize() shouldBe 0
                d.pendingTimerCount shouldBe 0
            }
        }
    }

    test("withTimeout fires no earlier than asked, and a finished block leaves no timer behind") {
        testDispatcher(2, "timeout").use { d ->
            withWatchdog {
                withContext(d) {
                    val start = System.nanoTime()
                    shouldThrow<TimeoutCancellationException> {
                        withTimeout(50) { awaitCancellation() }
                    }
                    (System.nanoTime() - start) shouldBeGreaterThanOrEqual TimeUnit.MILLISECONDS.toNanos(50)
                    withTimeoutOrNull(20) { awaitCancellation() }.shouldBeNull()

                    // A block that finishes in time disposes of its timer: removed from the pool at once.
                    repeat(1000) { withTimeout(TimeUnit.HOURS.toMillis(1)) { it } }
                    d.pool.timerQueueSize() shouldBe 0
                    d.pendingTimerCount shouldBe 0
                }
            }
        }
    }

    test("withTimeout fires while every worker runs a cancellable loop: its cancel needs no worker") {
        // Both workers are held by the loops the timeouts must stop; Dispatchers.Default ends both at ~300 ms.
        testDispatcher(2, "busy-timeout").use { d ->
            withWatchdog(30) {
                val ended = (0 until 2).map {
                    async(d) {
                        try {
                            withTimeout(300) {
                                while (true) {
                                    ensureActive() // throws once the timeout cancelled the block
                                }
                            }
                            @Suppress("UNREACHABLE_CODE")
                            "finished"
                        } catch (e: TimeoutCancellationException) {
                            "timed out"
                        }
                    }
                }.awaitAll()
                ended shouldBe listOf("timed out", "timed out")
            }
        }
    }

    test("withTimeout on Dispatchers.Forage fires while every common worker loops") {
        val threads = dev.forage.ForagePool.commonPool().parallelism()
        withWatchdog(30) {
            val ended = (0 until threads).map {
                async(Dispatchers.Forage) {
                    withTimeoutOrNull(300) {
                        while (true) {
                            Thread.onSpinWait()
                            ensureActive()
                        }
                        @Suppress("UNREACHABLE_CODE")
                        "finished"
                    } ?: "timed out"
                }
            }.awaitAll()
            ended shouldBe List(threads) { "timed out" }
        }
    }

    test("cancelling 10^4 suspended children is prompt, runs every finally, and leaves no timer behind") {
        testDispatcher(4, "cancel-many").use { d ->
            withWatchdog {
                val children = if (LONG_STRESS) 100_000 else 10_000
                val suspended = AtomicInteger()
                val finallyRan = AtomicInteger()
                val parent = launch(d) {
                    repeat(children) { i ->
                        launch {
                            try {
                                suspended.incrementAndGet()
                                if (i % 2 == 0) delay(TimeUnit.HOURS.toMillis(1)) else awaitCancellation()
                            } finally {
                                finallyRan.incrementAndGet()
                            }
                        }
                    }
                }
                pollUntil("all $children children suspended") {
                    suspended.get() == children && d.pool.timerQueueSize() == children / 2
                }
                d.pendingTimerCount shouldBe children / 2
                parent.cancelAndJoin()
                finallyRan.get() shouldBe children
                parent.isCancelled shouldBe true
                // Cancellation removed every timer from the pool's queue: nothing piles up.
                d.pool.timerQueueSize() shouldBe 0
                d.pendingTimerCount shouldBe 0
            }
        }
    }

    test("repeated cancelled delays do not make the timer queue grow") {
        testDispatcher(2, "no-pile-up").use { d ->
            withWatchdog {
                repeat(if (LONG_STRESS) 200 else 20) {
                    val batch = (0 until 500).map { launch(d) { delay(TimeUnit.HOURS.toMillis(1)) } }
                    pollUntil("500 delays pending") { d.pool.timerQueueSize() == 500 }
                    batch.forEach(Job::cancel)
                    // Once a coroutine is done, its cancellation handler (registered right after its timer was
                    // scheduled) has removed the timer.
                    batch.joinAll()
                    d.pool.timerQueueSize() shouldBe 0
                }
                d.pendingTimerCount shouldBe 0
            }
        }
    }

    test("a delay on an already cancelled coroutine still completes (with CancellationException)") {
        testDispatcher(1, "cancelled-delay").use { d ->
            withWatchdog {
                val outcome = kotlinx.coroutines.CompletableDeferred<Throwable?>()
                val job = launch(d) {
                    coroutineContext[Job]!!.cancel()
                    try {
                        delay(TimeUnit.HOURS.toMillis(1))
                        outcome.complete(null)
                    } catch (e: CancellationException) {
                        outcome.complete(e)
                    }
                }
                job.join()
                (outcome.await() is CancellationException) shouldBe true
                d.pool.timerQueueSize() shouldBe 0
            }
        }
    }

    test("no kotlinx DefaultExecutor timer thread exists after delays and timeouts on Forage (clean JVM)") {
        // The test JVM already has a DefaultExecutor (the test framework's own timeouts use it), so the check
        // runs in a fresh JVM: NoTimerThreadCheck exits 0 only if our delays created no such thread, and also
        // shows that its probe does see one once a Delay-less dispatcher is used.
        val java = File(System.getProperty("java.home"), "bin/java").path
        val process = ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), NoTimerThreadCheck::class.java.name)
            .redirectErrorStream(true)
            .start()
        val output = process.inputStream.bufferedReader().readText()
        check(process.waitFor(WATCHDOG_SECONDS, TimeUnit.SECONDS)) { "the check JVM did not end: $output" }
        output shouldContain "no DefaultExecutor after Forage delays"
        output shouldContain "DefaultExecutor present after Dispatchers.IO delay"
        process.exitValue() shouldBe 0
    }
})
