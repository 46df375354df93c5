package dev.forage.coroutines

import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.runBlocking

/** The default watchdog limit: generous, since CI shares 2 cores between several builds. */
const val WATCHDOG_SECONDS = 120L

/**
 * Runs [block] under `runBlocking` on a fresh thread and waits at most [seconds] for it. A hang becomes a test
 * failure whose message holds a dump of every thread, instead of a build that never ends. The block's outcome
 * (value or exception) is returned or rethrown unchanged.
 */
fun <T> withWatchdog(seconds: Long = WATCHDOG_SECONDS, block: suspend CoroutineScope.() -> T): T {
    val done = CountDownLatch(1)
    var outcome: Result<T>? = null
    val runner = Thread({
        outcome = runCatching { runBlocking(block = block) }
        done.countDown()
    }, "watchdog-body")
    runner.isDaemon = true
    runner.start()
    if (!done.await(seconds, TimeUnit.SECONDS)) {
        val dump = threadDump()
        System.err.println("watchdog: no result after $seconds s\n$dump")
        runner.interrupt()
        throw AssertionError("watchdog: no result after $seconds s (a hang); thread dump:\n$dump")
    }
    return outcome!!.getOrThrow()
}

/** Every live thread with its state and stack, for failure messages. */
fun threadDump(): String = buildString {
    for ((thread, stack) in Thread.getAllStackTraces()) {
        append('"').append(thread.name).append("\" daemon=").append(thread.isDaemon)
            .append(' ').append(thread.state).append('\n')
        for (frame in stack) {
            append("    at ").append(frame).append('\n')
        }
        append('\n')
    }
}

/** Names of all live threads. */
fun liveThreadNames(): List<String> = Thread.getAllStackTraces().keys.map { it.name }

/** True when the long stress variants were asked for (`-Dforage.stress.long=true`). */
val LONG_STRESS: Boolean = System.getProperty("forage.stress.long") == "true"

/**
 * Polls [condition] until it holds; fails with a thread dump if it does not within [seconds]. For waiting on state
 * no latch can signal (for example "every worker is asleep"); never an assertion about speed.
 */
fun pollUntil(what: String, seconds: Long = 60, condition: () -> Boolean) {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
    while (!condition()) {
        if (System.nanoTime() - deadline > 0) {
            throw AssertionError("not reached within $seconds s: $what; thread dump:\n${threadDump()}")
        }
        Thread.yield()
    }
}
