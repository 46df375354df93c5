package sample

import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.GlobalScope
import kotlinx.coroutines.promise

private external val process: dynamic

/** The Node entry point: the same shared logic on the event loop. Exit code 1 unless it ran to the end and checked. */
@OptIn(DelicateCoroutinesApi::class)
fun main() {
    process.exitCode = 1
    GlobalScope.promise {
        val report = primeReport(limit = 200_000, threads = 4)
        println("Node: $report")
        // On JS the pool is the event loop: one thread whatever `threads` says.
        if (report.parallelism == 1 && report.jobsRun >= 1) process.exitCode = 0
    }
}
