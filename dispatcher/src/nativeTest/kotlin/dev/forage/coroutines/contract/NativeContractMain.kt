package dev.forage.coroutines.contract

import kotlin.system.exitProcess
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.toKString
import kotlinx.coroutines.runBlocking
import platform.posix.fclose
import platform.posix.fopen
import platform.posix.fputs
import platform.posix.getenv
import platform.posix.mkdir

actual val poolsHaveThreads: Boolean = true // the native engine: worker threads of its own

/** Runs the contract suite and the native engine's checks, writes `$FORAGE_CONTRACT_REPORTS/TEST-<suite>.xml`, exits 1 on a failure. */
@OptIn(ExperimentalForeignApi::class)
fun main() {
    val results = runBlocking {
        val contract = runContract("linuxx64")
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
    // Surefire's report folder may not exist yet: make it and its parents (an existing one is fine).
    dir.split('/').runningReduce { parent, name -> "$parent/$name" }.filter { it.isNotEmpty() }.forEach { mkdir(it, 0x1EDu) }
    val path = "$dir/TEST-${suiteName("linuxx64")}.xml"
    val file = fopen(path, "w") ?: run {
        println("cannot write $path")
        exitProcess(1)
    }
    fputs(junitXml("linuxx64", results), file)
    fclose(file)
    exitProcess(if (results.all { it.failure == null }) 0 else 1)
}
