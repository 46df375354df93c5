@file:OptIn(ExperimentalAtomicApi::class, ExperimentalForeignApi::class)

package dev.forage.coroutines.stress

import dev.forage.coroutines.engine.nanoTime
import dev.forage.coroutines.engine.startWorkerThread
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.AtomicReference
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.system.exitProcess
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.toKString
import platform.posix.fclose
import platform.posix.fflush
import platform.posix.fopen
import platform.posix.fputs
import platform.posix.getenv
import platform.posix.stdout
import platform.posix.usleep

/** Every race on the correct engine (must pass) and on each broken variant (must be caught). */
internal fun races(): List<Race> = buildList {
    for (threads in listOf(1, 2, 3)) { // 3 workers on 2 cores: oversubscribed on purpose
        add(Race("post vs sleep, $threads workers", threads, mustFail = false, body = ::postVsSleep))
    }
    add(Race("post vs sleep, S2 ignores the JEC (S4 alone must hold)", 2, Variant.S2_IGNORES_JEC, mustFail = false, body = ::postVsSleep))
    add(Race("post vs sleep, S4 skipped (the JEC alone must hold)", 2, Variant.S4_SKIPPED, mustFail = false, body = ::postVsSleep))
    add(Race("post vs sleep, S2 ignores the JEC and S4 skipped", 1, Variant.S2_IGNORES_JEC_AND_S4_SKIPPED, mustFail = true, body = ::postVsSleep))
    for (threads in listOf(1, 2)) {
        add(Race("latch set vs sleep, $threads workers", threads, mustFail = false, body = ::latchSetVsSleep))
    }
    add(Race("latch set vs sleep, the setter does not wake the owner", 1, Variant.LATCH_SET_DOES_NOT_WAKE, mustFail = true, body = ::latchSetVsSleep))
    // Past the stack bound (here at once: maxHelpDepth 0) a wait blocks outside the sleep protocol; only the setter wakes it.
    add(Race("latch set vs a wait blocked past the stack bound", 2, maxHelpDepth = 0, mustFail = false, body = ::latchSetVsSleep))
    add(Race("latch set vs a wait blocked past the stack bound, the setter does not wake it", 2, Variant.LATCH_SET_DOES_NOT_WAKE, maxHelpDepth = 0, mustFail = true, body = ::latchSetVsSleep))
    add(Race("waker's decrement, 2 workers", 2, mustFail = false, body = ::wakerDecrement))
    add(Race("waker's decrement skipped", 2, Variant.WAKER_DOES_NOT_DECREMENT, mustFail = true, body = ::wakerDecrement))
    for (threads in listOf(1, 2)) {
        add(Race("retire vs post, $threads workers", threads, mustFail = false, body = ::retireVsPost))
    }
    add(Race("retire vs post, no last look before leaving", 1, Variant.R2_SKIPPED, mustFail = true, body = ::retireVsPost))
    add(Race("hand-off vs sleep (E2), 2 workers", 2, mustFail = false, body = ::handOffVsSleep))
    add(Race("hand-off vs sleep, E2 skipped", 2, Variant.E2_SKIPPED, mustFail = true, body = ::handOffVsSleep))
    for (threads in listOf(1, 2)) {
        add(Race("timer vs retire, $threads workers", threads, mustFail = false, body = ::timerVsRetire))
    }
    add(Race("timer vs retire, the last look ignores pending timers", 1, Variant.R2_IGNORES_TIMERS, mustFail = true, body = ::timerVsRetire))
    add(Race("timer vs retire, a timer wakes sleepers only", 1, Variant.TIMER_POST_WITHOUT_P3, mustFail = true, body = ::timerVsRetire))
    add(Race("close vs submit on retired workers", 1, mustFail = false, body = ::closeVsSubmit))
    add(Race("close vs submit, close neither waits nor hands off", 1, Variant.CLOSE_WITHOUT_C2_C3, mustFail = true, body = ::closeVsSubmit))
    add(Race("steal vs pop of the last job", 2, mustFail = false, body = ::stealVsPop))
    add(Race("steal vs pop of the last job, pop without the CAS", 2, Variant.POP_LAST_WITHOUT_CAS, mustFail = true, body = ::stealVsPop))
}

private class Outcome(val race: Race, val passed: Boolean, val detail: String, val rounds: Long, val seconds: Double)

/**
 * Runs the native stress suite (the races whose name contains `FORAGE_STRESS_ONLY`, when set):
 * `FORAGE_STRESS_SECONDS` per correct race (default 3), up to 10 times that for a
 * broken variant to be caught. A watchdog thread turns a hang (no round finished for 60 s) into a failure with the
 * race's name, instead of a build that never ends. Writes `$FORAGE_CONTRACT_REPORTS/TEST-...-stress.xml`; exits 1
 * if a correct race failed or a broken variant went uncaught.
 */
fun main() {
    val seconds = getenv("FORAGE_STRESS_SECONDS")?.toKString()?.toDoubleOrNull() ?: 3.0
    val progress = AtomicLong(0L)
    val current = AtomicReference("starting")
    startWorkerThread("stress-watchdog") {
        var last = -1L
        var since = nanoTime()
        while (true) {
            usleep(500_000u)
            val p = progress.load()
            if (p != last) {
                last = p
                since = nanoTime()
            } else if (nanoTime() - since > 60_000_000_000L) {
                println("WATCHDOG: no round finished for 60 s in \"${current.load()}\": a hang; failing the run")
                fflush(stdout)
                exitProcess(2)
            }
        }
    }
    // FORAGE_STRESS_ONLY: only the races whose name contains it (for a maintainer chasing one race).
    val only = getenv("FORAGE_STRESS_ONLY")?.toKString()
    val all = races().filter { only == null || it.name.contains(only) }
    println("Native stress suite: ${all.size} races, ${seconds}s each (broken variants: until caught, at most ${seconds * 10}s)")
    val outcomes = all.map { race ->
        current.store(race.name)
        val budget = (seconds * (if (race.mustFail) 10 else 1) * 1e9).toLong()
        val start = nanoTime()
        val run = RaceRun(race, start + budget, progress)
        val failure = race.body(run)
        val took = (nanoTime() - start) / 1e9
        val passed = if (race.mustFail) failure != null else failure == null
        val detail = when {
            race.mustFail && failure != null -> "caught: $failure"
            race.mustFail -> "NOT caught: the broken variant ran ${run.rounds} rounds without a failure"
            failure != null -> "FAILED: $failure"
            else -> "${run.rounds} rounds"
        }
        println("  ${if (passed) "ok  " else "FAIL"}  ${race.name}: $detail (${took.toString().take(5)} s)")
        fflush(stdout)
        Outcome(race, passed, detail, run.rounds, took)
    }
    writeReport(outcomes)
    val failed = outcomes.count { !it.passed }
    println("Races run: ${outcomes.size}, failures: $failed ($target)")
    exitProcess(if (failed == 0) 0 else 1)
}

/** The target in the labels and the report (`linuxx64`, `linuxarm64`, `mingwx64`: the build sets FORAGE_TARGET). */
private val target: String = getenv("FORAGE_TARGET")?.toKString() ?: "native"

/** The JUnit report, `$FORAGE_CONTRACT_REPORTS/TEST-<suite>.xml` (an existing folder). */
private fun writeReport(outcomes: List<Outcome>) {
    val dir = getenv("FORAGE_CONTRACT_REPORTS")?.toKString() ?: "."
    val suite = "dev.forage.coroutines.stress.NativeStress-$target"
    val xml = buildString {
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append("<testsuite name=\"$suite\" tests=\"${outcomes.size}\" failures=\"${outcomes.count { !it.passed }}\" errors=\"0\" skipped=\"0\">\n")
        for (o in outcomes) {
            append("  <testcase classname=\"$suite\" name=\"${escape(o.race.name)}\" time=\"${o.seconds}\">")
            if (!o.passed) append("<failure message=\"${escape(o.detail)}\"/>")
            append("<system-out>${escape(o.detail)}</system-out></testcase>\n")
        }
        append("</testsuite>\n")
    }
    val file = fopen("$dir/TEST-$suite.xml", "w") ?: return
    fputs(xml, file)
    fclose(file)
}

private fun escape(s: String): String =
    s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
