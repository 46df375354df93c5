@file:OptIn(ExperimentalForeignApi::class)

package dev.forage.bench.native

import kotlin.system.exitProcess
import kotlinx.cinterop.ExperimentalForeignApi
import platform.posix.alarm

/**
 * The Kotlin/Native comparison program: one scenario on one subject per process, its results as
 * `@@forage-bench RESULT ...` lines on stdout (the JVM runner's protocol, ResultLine.java), so that the runner
 * (dev.forage.bench.NativeCompare) can start a fresh process per measurement and alternate the subjects.
 *
 * ```
 * bench.kexe --subject forage|default|fixed --scenario fib-join [--threads 2] [--budget full|short]
 * bench.kexe --smoke      # every scenario on every subject at tiny sizes; exit status 1 on a failure
 * bench.kexe --list       # the scenario and subject ids
 * ```
 */
fun main(args: Array<String>) {
    val status = try {
        run(args)
    } catch (e: IllegalArgumentException) {
        printErr(e.message ?: e.toString())
        2
    }
    // Workers of the pools still exist (Dispatchers.Default cannot be closed); the results are printed.
    exitProcess(status)
}

private const val USAGE = """usage: bench.kexe --subject ID --scenario ID [--threads N] [--budget full|short]
       bench.kexe --smoke [--threads N]
       bench.kexe --list"""

private fun run(args: Array<String>): Int {
    var subject: String? = null
    var scenario: String? = null
    var threads = 2
    var budget = Budget.FULL
    var smoke = false
    var i = 0
    fun value(): String = args.getOrNull(++i) ?: throw IllegalArgumentException("${args[i - 1]} needs a value\n$USAGE")
    while (i < args.size) {
        when (val a = args[i]) {
            "--subject" -> subject = value()
            "--scenario" -> scenario = value()
            "--threads" -> threads = value().toIntOrNull()?.takeIf { it >= 1 }
                ?: throw IllegalArgumentException("--threads needs a positive integer")
            "--budget" -> budget = when (value()) {
                "full" -> Budget.FULL
                "short" -> Budget.SHORT
                else -> throw IllegalArgumentException("--budget is full or short")
            }
            "--smoke" -> smoke = true
            "--list" -> {
                println("scenarios: " + Scenarios.ALL.joinToString(" ") { it.id })
                println("subjects: " + Subject.IDS.joinToString(" "))
                return 0
            }
            "--help", "-h" -> {
                println(USAGE)
                return 0
            }
            else -> throw IllegalArgumentException("unknown option '$a'\n$USAGE")
        }
        i++
    }
    if (smoke) return smoke(threads)
    val sc = Scenarios.byId(scenario ?: throw IllegalArgumentException("--scenario is required\n$USAGE"))
    val id = subject ?: throw IllegalArgumentException("--subject is required\n$USAGE")
    // A run that hangs is killed by SIGALRM (the runner's own timeout is longer).
    alarm(if (budget == Budget.FULL) 600u else 300u)
    measure(sc, id, threads, budget)
    return 0
}

private fun measure(sc: Scenario, subjectId: String, threads: Int, budget: Budget): Out {
    val out = Out(sc.id, subjectId, threads, print = budget != Budget.SMOKE)
    Subject.create(subjectId, threads).use { s ->
        s.pool?.let { out.info("parallelism", it.parallelism().toString()) }
        val before = s.pool?.statistics()
        sc.run(s, budget, out)
        val pool = s.pool
        if (pool != null && before != null) {
            val after = pool.statistics()
            out.info("pool", "threads ${after.threads()}, jobs run ${after.jobsRun() - before.jobsRun()}, " +
                "stolen ${after.steals() - before.steals()}, from outside ${after.injectedJobs() - before.injectedJobs()}")
        }
    }
    return out
}

/**
 * Every scenario on every subject at tiny sizes, in this one process: proves that the program and each
 * subject still run each scenario to a result. Exit status 1 if any case failed; a case that hangs is ended by
 * SIGALRM, and the last "smoke:" line on stderr names it.
 */
private fun smoke(threads: Int): Int {
    alarm(120u)
    val failures = mutableListOf<String>()
    var cases = 0
    for (sc in Scenarios.ALL) {
        for (id in Subject.IDS) {
            printErr("smoke: ${sc.id} on $id")
            cases++
            try {
                val out = measure(sc, id, threads, Budget.SMOKE)
                check(out.results.isNotEmpty()) { "no result" }
            } catch (e: Throwable) {
                failures += "${sc.id} on $id: $e"
            }
        }
    }
    for (f in failures) printErr("FAILED: $f")
    printErr("smoke: ${cases - failures.size} of $cases cases ran")
    return if (failures.isEmpty()) 0 else 1
}

private fun printErr(s: String) {
    platform.posix.fprintf(platform.posix.stderr, "%s\n", s)
    platform.posix.fflush(platform.posix.stderr)
}
