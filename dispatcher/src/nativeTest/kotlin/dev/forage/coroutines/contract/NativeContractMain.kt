package dev.forage.coroutines.contract

import kotlin.system.exitProcess
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.toKString
import kotlinx.coroutines.runBlocking
import platform.posix.fclose
import platform.posix.fopen
import platform.posix.fputs
import platform.posix.getenv

actual val poolsHaveThreads: Boolean = true // the native engine: worker threads of its own

/**
 * Runs the contract suite and the native engine's checks, writes `$FORAGE_CONTRACT_REPORTS/TEST-<suite>.xml` (an
 * existing folder), exits 1 on a failure. `$FORAGE_TARGET` names the target in the labels and the report
 * (`linuxx64`, `linuxarm64`, `mingwx64`: the build sets it).
 */
@OptIn(ExperimentalForeignApi::class)
fun main() {
    val target = getenv("FORAGE_TARGET")?.toKString() ?: "native"
    val results = runBlocking {
        val contract = runContract(target)
        val checks = engineChecks()
        println("Native engine checks: ${checks.size} cases")
        contract + checks.map { case ->
            runCase(case).also { r ->
                val f = r.failure
                println(if (f == null) "  ok    ${case.name}" else "  FAIL  ${case.name}: $f")
                if (f != null) println(f.stackTraceToString().prependIndent("        "))
            }
        }
    }
    val dir = getenv("FORAGE_CONTRACT_REPORTS")?.toKString() ?: "."
    val path = "$dir/TEST-${suiteName(target)}.xml"
    val file = fopen(path, "w") ?: run {
        println("cannot write $path")
        exitProcess(1)
    }
    fputs(junitXml(target, results), file)
    fclose(file)
    exitProcess(if (results.all { it.failure == null }) 0 else 1)
}
