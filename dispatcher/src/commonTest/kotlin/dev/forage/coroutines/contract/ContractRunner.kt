package dev.forage.coroutines.contract

import kotlin.time.Duration.Companion.seconds
import kotlin.time.TimeSource
import kotlinx.coroutines.withTimeout

/** One named case of the contract suite. */
class ContractCase(val name: String, val body: suspend () -> Unit)

/** The outcome of one case: null [failure] when it passed. */
class CaseResult(val name: String, val seconds: Double, val failure: Throwable?)

/**
 * Every case must finish within this bound, or it fails (a hang becomes a failure). Not a speed claim: the cases
 * wait for at most a few short timers.
 */
val CASE_TIMEOUT = 60.seconds

/** Runs one case under [CASE_TIMEOUT]. */
suspend fun runCase(case: ContractCase): CaseResult {
    val start = TimeSource.Monotonic.markNow()
    val failure = try {
        withTimeout(CASE_TIMEOUT) { case.body() }
        null
    } catch (t: Throwable) {
        t
    }
    return CaseResult(case.name, start.elapsedNow().inWholeMicroseconds / 1e6, failure)
}

/**
 * Runs the whole suite for [target] (`js`, `wasm-js`, `linuxx64`): every case, one after the other, printing one
 * line per case. Returns the results; [junitXml] turns them into a report.
 */
suspend fun runContract(target: String): List<CaseResult> {
    println("Contract suite on $target: ${contractCases().size} cases")
    return contractCases().map { case ->
        val result = runCase(case)
        val f = result.failure
        println(if (f == null) "  ok    ${case.name}" else "  FAIL  ${case.name}: $f")
        if (f != null) println(f.stackTraceToString().prependIndent("        "))
        result
    }.also { results ->
        val failed = results.count { it.failure != null }
        println("Tests run: ${results.size}, Failures: $failed ($target)")
    }
}

/** The suite's class name in reports, with the target, as Surefire names a suite: TEST-<this>.xml. */
fun suiteName(target: String): String = "dev.forage.coroutines.contract.ContractSuite-$target"

/** The results as a JUnit XML report in Surefire's TEST-*.xml shape. */
fun junitXml(target: String, results: List<CaseResult>): String {
    val suite = suiteName(target)
    val failures = results.count { it.failure != null }
    val time = results.sumOf { it.seconds }
    return buildString {
        append("""<?xml version="1.0" encoding="UTF-8"?>""").append('\n')
        append("""<testsuite name="${esc(suite)}" tests="${results.size}" failures="$failures" errors="0" skipped="0" time="$time">""")
        append('\n')
        for (r in results) {
            append("""  <testcase name="${esc(r.name)}" classname="${esc(suite)}" time="${r.seconds}"""")
            val f = r.failure
            if (f == null) {
                append("/>\n")
            } else {
                append(">\n")
                append("""    <failure message="${esc(f.message ?: "")}" type="${esc(f::class.simpleName ?: "Throwable")}">""")
                append(esc(f.stackTraceToString()))
                append("</failure>\n  </testcase>\n")
            }
        }
        append("</testsuite>\n")
    }
}

private fun esc(s: String): String = buildString {
    for (c in s) {
        when {
            c == '&' -> append("&amp;")
            c == '<' -> append("&lt;")
            c == '>' -> append("&gt;")
            c == '"' -> append("&quot;")
            c == '\n' || c == '\t' || c == '\r' -> append(c)
            c < ' ' -> append('?') // not allowed in XML 1.0
            else -> append(c)
        }
    }
}
