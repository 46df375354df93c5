package dev.forage.coroutines

import dev.forage.timerWatched
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.minutes
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield

/**
 * Run in a fresh JVM by CancelledTimerExitSpec: a non-daemon dispatcher with short keep-alives, a `withTimeout`
 * of ten minutes whose block ends after a short `delay`, and a `delay` of ten minutes that is cancelled; then
 * main returns without closing the dispatcher. The JVM exits only if the cancelled timers let the workers retire.
 */
object CancelledTimeoutExitCheck {
    const val DONE = "timeouts cancelled; main returns"

    /** Until a sleeping worker holds the timer watch (the other worker, or this one once it yields). */
    private suspend fun awaitWatcher(d: ForageDispatcher) {
        val deadline = System.nanoTime() + 30_000_000_000L
        while (!d.pool.timerWatched() && System.nanoTime() < deadline) yield()
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val d = forageDispatcher {
            threads = 2
            daemon = false
            keepAlive = 200.milliseconds
            // A stand-in the monitor started for a job it saw blocked (at start-up, a worker can wait for class
            // loading's disk reads) waits this long for its next turn: short too, so only the timers are tested.
            blockingKeepAlive = 200.milliseconds
            name = "cancelled-timeout"
        }
        runBlocking(d) {
            withTimeout(10.minutes) {
                delay(100)
                awaitWatcher(d) // the case that kept the JVM alive: a sleeper parks until the timeout's deadline
            }
            val sleeper = launch { delay(10.minutes) }
            delay(50)
            awaitWatcher(d)
            sleeper.cancel()
        }
        println(DONE)
    }
}
