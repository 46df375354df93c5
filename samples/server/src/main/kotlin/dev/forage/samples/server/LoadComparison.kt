package dev.forage.samples.server

import java.lang.management.ManagementFactory
import java.time.Instant
import java.util.Locale

/** Settings of a comparison run; every phase is bounded by a count and a time limit. */
data class ComparisonSettings(
    val rounds: Int = 3,
    val warmupRequests: Int = 5_000,
    val connections: Int = 16,
    val saturatedRequests: Int = 20_000,
    val saturatedMaxSeconds: Int = 60,
    val pacedConnections: Int = 8,
    val pacedRate: Int = 400,
    val pacedSeconds: Int = 10,
    val idleSeconds: Int = 3,
) {
    companion object {
        /** `--rounds 2 --connections 16 --requests 20000 --rate 400 ...`, each flag optional. */
        fun parse(args: Array<String>): ComparisonSettings {
            var s = ComparisonSettings()
            var i = 0
            while (i < args.size) {
                val flag = args[i]
                val value = args.getOrNull(i + 1)?.toIntOrNull()
                    ?: throw IllegalArgumentException("$flag needs an integer value")
                require(value >= 1) { "$flag must be >= 1, was $value" }
                s = when (flag) {
                    "--rounds" -> s.copy(rounds = value)
                    "--warmup" -> s.copy(warmupRequests = value)
                    "--connections" -> s.copy(connections = value)
                    "--requests" -> s.copy(saturatedRequests = value)
                    "--max-seconds" -> s.copy(saturatedMaxSeconds = value)
                    "--paced-connections" -> s.copy(pacedConnections = value)
                    "--rate" -> s.copy(pacedRate = value)
                    "--paced-seconds" -> s.copy(pacedSeconds = value)
                    "--idle-seconds" -> s.copy(idleSeconds = value)
                    else -> throw IllegalArgumentException(
                        "unknown flag $flag; allowed: --rounds --warmup --connections --requests --max-seconds " +
                            "--paced-connections --rate --paced-seconds --idle-seconds",
                    )
                }
                i += 2
            }
            return s
        }
    }
}

/** One backend's results in one round. */
class BackendRun(val round: Int, val backend: Backend, val phases: List<PhaseResult>, val idleCpuMillisPerSecond: Double)

/**
 * Runs the same service on Forage and on `Dispatchers.Default`, one after the other in this JVM (the order
 * alternates between rounds so that neither always gets the warmer JIT), and drives each with the same bounded
 * loopback load.
 */
fun compare(settings: ComparisonSettings, log: (String) -> Unit = {}): List<BackendRun> {
    // Not measured: a first pass over both backends, so that the JIT has compiled the code they share (Ktor,
    // hashing, the load generator) before either is measured.
    for (backend in Backend.entries) {
        SampleServer.start(backend).use { server ->
            log("JIT warm-up, ${backend.name.lowercase()}")
            LoadGenerator(server.port).closedLoop(
                "jit-warmup", settings.connections, settings.warmupRequests, settings.saturatedMaxSeconds * 1000L,
            )
        }
    }
    val runs = ArrayList<BackendRun>()
    for (round in 1..settings.rounds) {
        val order = if (round % 2 == 1) listOf(Backend.FORAGE, Backend.DEFAULT) else listOf(Backend.DEFAULT, Backend.FORAGE)
        for (backend in order) {
            SampleServer.start(backend).use { server ->
                val load = LoadGenerator(server.port)
                log("round $round, ${backend.name.lowercase()}: warm-up")
                load.closedLoop("warmup", settings.connections, settings.warmupRequests, settings.saturatedMaxSeconds * 1000L)
                log("round $round, ${backend.name.lowercase()}: saturated")
                val saturated = load.closedLoop(
                    "saturated", settings.connections, settings.saturatedRequests, settings.saturatedMaxSeconds * 1000L,
                )
                log("round $round, ${backend.name.lowercase()}: paced")
                val paced = load.paced("paced", settings.pacedConnections, settings.pacedRate, settings.pacedSeconds)
                log("round $round, ${backend.name.lowercase()}: idle")
                val idle = load.idleCpuMillisPerSecond(settings.idleSeconds * 1000L)
                runs += BackendRun(round, backend, listOf(saturated, paced), idle)
            }
        }
    }
    return runs
}

/** The results as a Markdown table. */
fun table(runs: List<BackendRun>): String {
    val out = StringBuilder()
    out.append("| round | backend | phase | requests | errors | req/s | p50 ms | p99 ms | p99.9 ms | server CPU µs/req |\n")
    out.append("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for (run in runs) {
        for (p in run.phases) {
            out.append(
                String.format(
                    Locale.ROOT, "| %d | %s | %s | %d | %d | %.0f | %.2f | %.2f | %.2f | %.0f |\n",
                    run.round, run.backend.name.lowercase(), p.phase, p.requests, p.errors, p.requestsPerSecond,
                    p.latencyMillis(50.0), p.latencyMillis(99.0), p.latencyMillis(99.9), p.serverCpuMicrosPerRequest,
                ),
            )
        }
    }
    out.append("\nMedian over the rounds:\n\n")
    out.append("| backend | phase | req/s | p50 ms | p99 ms | server CPU µs/req |\n")
    out.append("| --- | --- | ---: | ---: | ---: | ---: |\n")
    for (backend in Backend.entries) {
        val mine = runs.filter { it.backend == backend }.flatMap { it.phases }
        for (phase in mine.map { it.phase }.distinct()) {
            val results = mine.filter { it.phase == phase }
            out.append(
                String.format(
                    Locale.ROOT, "| %s | %s | %.0f | %.2f | %.2f | %.0f |\n",
                    backend.name.lowercase(), phase, median(results.map { it.requestsPerSecond }),
                    median(results.map { it.latencyMillis(50.0) }), median(results.map { it.latencyMillis(99.0) }),
                    median(results.map { it.serverCpuMicrosPerRequest }),
                ),
            )
        }
    }
    out.append("\nIdle (server up, no requests), process CPU in ms per second:")
    for (run in runs) {
        out.append(String.format(Locale.ROOT, " round %d %s %.1f;", run.round, run.backend.name.lowercase(), run.idleCpuMillisPerSecond))
    }
    return out.toString().removeSuffix(";") + "\n"
}

private fun median(values: List<Double>): Double {
    val sorted = values.sorted()
    val mid = sorted.size / 2
    return if (sorted.size % 2 == 1) sorted[mid] else (sorted[mid - 1] + sorted[mid]) / 2
}

/** `LoadComparison [flags]`: prints the settings, the machine, and the results table. */
fun main(args: Array<String>) {
    val settings = ComparisonSettings.parse(args)
    val os = ManagementFactory.getOperatingSystemMXBean()
    val runtime = ManagementFactory.getRuntimeMXBean()
    println("# Forage vs Dispatchers.Default, Ktor CIO sample server, ${Instant.now()}")
    println("settings: $settings")
    println("machine: ${os.availableProcessors} CPUs, ${runtime.vmName} ${runtime.vmVersion}, " +
        "system load average at start ${"%.2f".format(Locale.ROOT, os.systemLoadAverage)}")
    val runs = compare(settings) { System.err.println(it) }
    println("system load average at end ${"%.2f".format(Locale.ROOT, os.systemLoadAverage)}")
    println()
    print(table(runs))
    val errors = runs.sumOf { run -> run.phases.sumOf { it.errors } }
    if (errors > 0) {
        val first = runs.flatMap { it.phases }.firstNotNullOfOrNull { it.firstError }
        System.err.println("$errors requests failed; first: $first")
        kotlin.system.exitProcess(1)
    }
}
