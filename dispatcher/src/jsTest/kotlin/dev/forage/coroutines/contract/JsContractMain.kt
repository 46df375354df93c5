package dev.forage.coroutines.contract

import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.GlobalScope
import kotlinx.coroutines.promise

actual val poolsHaveThreads: Boolean = false

private external val process: dynamic

/**
 * Runs the contract suite on Node and writes its JUnit report to `$FORAGE_CONTRACT_REPORTS/TEST-<suite>.xml`.
 * The exit code stays 1 unless every case ran and passed, so a run that ends early (an event loop left with
 * nothing to do while a case still waits) fails too.
 */
@OptIn(DelicateCoroutinesApi::class)
fun main() {
    process.exitCode = 1
    GlobalScope.promise {
        val results = runContract("js")
        val dir = process.env.FORAGE_CONTRACT_REPORTS as String? ?: "."
        val fs = js("require('fs')")
        fs.mkdirSync(dir, js("({ recursive: true })"))
        fs.writeFileSync("$dir/TEST-${suiteName("js")}.xml", junitXml("js", results))
        if (results.all { it.failure == null }) process.exitCode = 0
    }
}
