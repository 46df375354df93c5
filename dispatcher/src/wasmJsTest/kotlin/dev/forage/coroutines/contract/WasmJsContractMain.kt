@file:OptIn(kotlin.js.ExperimentalWasmJsInterop::class)

package dev.forage.coroutines.contract

import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.GlobalScope
import kotlinx.coroutines.launch

actual val poolsHaveThreads: Boolean = false

private fun setExitCode(code: Int): Unit = js("{ process.exitCode = code; }")

private fun reportDir(): String = js("process.env.FORAGE_CONTRACT_REPORTS || '.'")

private fun writeFile(dir: String, name: String, text: String): Unit = js(
    "{ const fs = process.getBuiltinModule('node:fs'); fs.mkdirSync(dir, { recursive: true }); fs.writeFileSync(dir + '/' + name, text); }",
)

/**
 * Runs the contract suite under Node 22 and writes its JUnit report to `$FORAGE_CONTRACT_REPORTS/TEST-<suite>.xml`.
 * The exit code stays 1 unless every case ran and passed (see the JS runner).
 */
@OptIn(DelicateCoroutinesApi::class)
fun main() {
    setExitCode(1)
    GlobalScope.launch {
        val results = runContract("wasm-js")
        writeFile(reportDir(), "TEST-${suiteName("wasm-js")}.xml", junitXml("wasm-js", results))
        if (results.all { it.failure == null }) setExitCode(0)
    }
}
