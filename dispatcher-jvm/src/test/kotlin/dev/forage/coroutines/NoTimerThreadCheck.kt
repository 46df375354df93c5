package dev.forage.coroutines

import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull

/**
 * Run in a fresh JVM by DelaySpec: uses `delay`, `withTimeout` and `withTimeoutOrNull` on Forage dispatchers
 * (a private one and `Dispatchers.Forage`) and exits 0 only if no `kotlinx.coroutines.DefaultExecutor` thread
 * appeared. Then it uses `delay` on `Dispatchers.IO` (no `Delay` of its own) to show that the probe does see that
 * thread when it exists.
 */
object NoTimerThreadCheck {
    private const val TIMER_THREAD = "kotlinx.coroutines.DefaultExecutor"

    private fun timerThreadExists(): Boolean = Thread.getAllStackTraces().keys.any { it.name.startsWith(TIMER_THREAD) }

    @JvmStatic
    fun main(args: Array<String>) {
        var failed = false
        forageDispatcher { threads = 2; name = "no-timer-thread" }.use { d ->
            runBlocking(d) {
                repeat(100) { i ->
                    launch {
                        delay(1L + i % 5)
                        withTimeout(10_000) { delay(1) }
                        withTimeoutOrNull(2) { awaitCancellation() }
                    }
                }
            }
            runBlocking {
                withContext(Dispatchers.Forage) {
                    delay(2)
                    withTimeoutOrNull(2) { awaitCancellation() }
                }
            }
        }
        if (timerThreadExists()) {
            println("FAILED: $TIMER_THREAD exists after Forage delays: ${Thread.getAllStackTraces().keys.map { it.name }}")
            failed = true
        } else {
            println("no DefaultExecutor after Forage delays")
        }
        runBlocking(Dispatchers.IO) { delay(1) }
        if (timerThreadExists()) {
            println("DefaultExecutor present after Dispatchers.IO delay (the probe works)")
        } else {
            println("FAILED: the probe did not see $TIMER_THREAD after a delay on Dispatchers.IO")
            failed = true
        }
        exitProcess(if (failed) 1 else 0)
    }
}
