package dev.forage.coroutines

import dev.forage.timerWatched
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.minutes
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/**
 * Run in a fresh JVM by CancelledTimerExitSpec: a non-daemon dispatcher with short keep-alives, a `withTimeout`
 * of ten minutes whose block ends early, and a `delay` of ten minutes that is cancelled while a sleeping worker
 * watches its timer; then main returns without closing the dispatcher. The JVM exits only if the cancelled timers
 * let the workers retire.
 */
object CancelledTimeoutExitCheck {
    const val DONE = "timeouts cancelled; main returns"

    /** From outside the pool: until a sleeping worker holds the timer watch. */
    private fun awaitWatcher(d: ForageDispatcher) {
        val deadline = System.nanoTime() + 30_000_000_000L
        while (!d.pool.timerWatched() && System.nanoTime() < deadline) Thread.yield()
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
        val scope = CoroutineScope(d)
        val release = CompletableDeferred<Unit>()
        val timed = scope.launch { withTimeout(10.minutes) { release.await() } }
        awaitWatcher(d)
        release.complete(Unit) // the block ends early: withTimeout disposes its timer
        runBlocking { timed.join() }
        // The last timer, cancelled while a sleeper watches it: the case that kept the JVM alive every time.
        val sleeper = scope.launch { delay(10.minutes) }
        awaitWatcher(d)
        sleeper.cancel()
        println(DONE)
    }
}
