package sample

import kotlin.system.exitProcess
import kotlinx.coroutines.runBlocking

/**
 * The Kotlin/Native entry point: the same shared logic on Forage's native engine with 4 worker threads (linuxX64
 * here; the iosArm64 klib compiles the same commonMain with the iOS entry point beside it). Exit code 1 unless the
 * report checked and the pool had its 4 workers.
 */
fun main() {
    val report = runBlocking { primeReport(limit = 200_000, threads = 4) }
    println("Kotlin/Native (linuxX64): $report")
    if (report.parallelism != 4 || report.jobsRun < 16) {
        println("expected a 4-worker Forage pool that ran the jobs, got $report")
        exitProcess(1)
    }
}
