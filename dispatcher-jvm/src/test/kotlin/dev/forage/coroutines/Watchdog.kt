package dev.forage.coroutines

import dev.forage.testing.Watchdog
import java.time.Duration
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.runBlocking

/*
 * Kotest specs use the build's one watchdog, dev.forage.testing.Watchdog (its Javadoc documents the single
 * budget property, forage.test.budgetScale); these functions only adapt it to suspending blocks.
 */

/** The nominal watchdog budget of a spec body: [Watchdog.DEFAULT_BUDGET_SECONDS], before the budget scale. */
const val WATCHDOG_SECONDS = Watchdog.DEFAULT_BUDGET_SECONDS.toLong()

/**
 * Runs [block] under `runBlocking` on the watchdog's thread and waits at most [seconds] (times the budget scale)
 * for it. A hang becomes a test failure whose message holds a dump of every thread, instead of a build that never
 * ends. The block's outcome (value or exception) is returned or rethrown unchanged.
 */
fun <T> withWatchdog(seconds: Long = WATCHDOG_SECONDS, block: suspend CoroutineScope.() -> T): T =
    Watchdog.watch("withWatchdog", seconds.toInt()) { runBlocking(block = block) }

/** Every live thread with its stack, monitors and locks, for failure messages: [Watchdog.threadDump]. */
fun threadDump(): String = Watchdog.threadDump()

/** Names of all live threads. */
fun liveThreadNames(): List<String> = Thread.getAllStackTraces().keys.map { it.name }

/** True when the long stress variants were asked for (`-Dforage.stress.long=true`). */
val LONG_STRESS: Boolean = System.getProperty("forage.stress.long") == "true"

/**
 * Polls [condition] until it holds; fails with a thread dump if it does not within [seconds] (times the budget
 * scale): [Watchdog.awaitCondition]. For waiting on state no latch can signal (for example "every worker is
 * asleep"); never an assertion about speed.
 */
fun pollUntil(what: String, seconds: Long = 60, condition: () -> Boolean) =
    Watchdog.awaitCondition(what, Duration.ofSeconds(seconds), { condition() }, { "" })
