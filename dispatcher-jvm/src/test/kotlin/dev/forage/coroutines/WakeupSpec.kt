package dev.forage.coroutines

import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/**
 * Lost wake-ups: each round waits until every worker is asleep (pool statistics), then wakes the pool in one of
 * the ways a coroutine can (a dispatch from outside, a timer, a latch set from outside, a resume from outside)
 * and waits for the result under the watchdog. A lost wake-up leaves the pool asleep and the round hangs.
 */
class WakeupSpec : FunSpec({
    test("a fully asleep pool always wakes for a dispatch, a timer, a latch and an outside resume") {
        val threads = 2
        testDispatcher(threads, "wake-up").use { d ->
            withWatchdog {
                val rounds = if (LONG_STRESS) 5_000 else 300
                val woken = AtomicInteger()
                fun awaitAllAsleep() = pollUntil("all $threads workers asleep") {
                    d.pool.statistics().sleepingWorkers() == threads
                }
                repeat(rounds) { round ->
                    awaitAllAsleep()
                    when (round % 4) {
                        0 -> async(d) { woken.incrementAndGet() }.await()
                        1 -> withContext(d) {
                            delay(1) // the timer's watcher sleeps until the deadline, then resumes us
                            woken.incrementAndGet()
                        }
                        2 -> d.pool.awaitJoin({ woken.incrementAndGet() }, { 0 })
                        else -> {
                            val signal = CompletableDeferred<Unit>()
                            val waiter = launch(d) {
                                signal.await()
                                woken.incrementAndGet()
                            }
                            awaitAllAsleep() // the waiter is suspended and holds no worker
                            signal.complete(Unit)
                            waiter.join()
                        }
                    }
                }
                woken.get() shouldBe rounds
            }
        }
    }
})
