package sample

import kotlin.system.exitProcess
import kotlinx.coroutines.runBlocking

/** The JVM entry point: the shared logic on Forage's Java engine with 4 workers. */
fun main() {
    val report = runBlocking { primeReport(limit = 200_000, threads = 4) }
    println("JVM: $report")
    // On the JVM the pool is the work-stealing engine: the parallelism asked for, jobs run by its workers.
    if (report.parallelism != 4 || report.jobsRun < 16) {
        System.err.println("expected a 4-worker Forage pool that ran the jobs, got $report")
        exitProcess(1)
    }
}
