@file:JvmName("BlockingMix")

package dev.forage.bench.blocking

import dev.forage.coroutines.forageDispatcher
import java.io.File
import java.lang.management.ManagementFactory
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import kotlin.system.exitProcess
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/*
 * The mixed workload of docs/benchmarks.md, "Blocking calls": coroutines that alternate CPU work and a blocking
 * call, on Forage (its dispatcher plus its blocking dispatcher, one pool) against kotlinx (Dispatchers.Default
 * plus Dispatchers.IO, one scheduler). Each measurement runs in a fresh JVM; subjects alternate within a round;
 * the table gives medians over rounds and Forage's ratios.
 *
 *   java -cp benchmarks/target/benchmarks.jar dev.forage.bench.blocking.BlockingMix [rounds] [seconds]
 *
 * Per blocking call it reports: calls per second, the threads alive at the end of the window (the peak is the
 * same or one more), context switches of the whole process (voluntary and involuntary, from
 * /proc/self/task/N/status) and thread hops: the coroutine ran the blocking call on another thread than the one
 * it left (hop in), or came back on another thread than the call's (hop back).
 */

private const val CONCURRENCY = 64
private const val CPU_MICROS = 20L

private enum class Subject { FORAGE, KOTLINX }

private enum class Blocking(val label: String) {
    SLEEP("Thread.sleep(1 ms)"),
    READ("16 KiB file read (page cache)"),
}

private class Result(
    val calls: Double,
    val threads: Double,
    val switches: Double,
    val hopIn: Double,
    val hopBack: Double,
)

fun main(args: Array<String>) {
    if (args.isNotEmpty() && args[0] == "child") {
        child(Subject.valueOf(args[1]), Blocking.valueOf(args[2]), args[3].toLong())
        return
    }
    val rounds = args.getOrNull(0)?.toInt() ?: 5
    val seconds = args.getOrNull(1)?.toLong() ?: 3
    val cores = Runtime.getRuntime().availableProcessors()
    println("Blocking calls: $CONCURRENCY coroutines, each ${CPU_MICROS} us of CPU then one blocking call, " +
        "$rounds rounds of fresh JVMs per cell, subjects alternating, ${seconds} s windows, $cores cores")
    val header = "| blocking call | subject | calls/s | threads | context switches per call | hops in per call " +
        "| hops back per call |"
    val rows = StringBuilder()
    val ratios = StringBuilder()
    for (blocking in Blocking.values()) {
        val results = Subject.values().associateWith { mutableListOf<Result>() }
        repeat(rounds) {
            for (subject in Subject.values()) {
                results.getValue(subject) += runChild(subject, blocking, seconds)
            }
        }
        val med = results.mapValues { (_, rs) -> median(rs) }
        for (subject in Subject.values()) {
            val r = med.getValue(subject)
            rows.append("| ${blocking.label} | ${subject.label()} | ${"%,.0f".format(r.calls)} | " +
                "${"%.0f".format(r.threads)} | " +
                "${"%.2f".format(r.switches)} | ${"%.2f".format(r.hopIn)} | ${"%.2f".format(r.hopBack)} |\n")
        }
        val f = med.getValue(Subject.FORAGE)
        val k = med.getValue(Subject.KOTLINX)
        ratios.append("| ${blocking.label} | x${"%.2f".format(f.calls / k.calls)} | " +
            "${"%.0f".format(f.threads)} vs ${"%.0f".format(k.threads)} | " +
            "x${"%.2f".format(f.switches / k.switches)} | " +
            "${"%.2f".format(f.hopIn + f.hopBack)} vs ${"%.2f".format(k.hopIn + k.hopBack)} |\n")
    }
    println()
    println(header)
    println("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    print(rows)
    println()
    println("| blocking call | Forage calls/s vs kotlinx | threads (Forage vs kotlinx) | context switches per call " +
        "| hops per call (Forage vs kotlinx) |")
    println("| --- | ---: | ---: | ---: | ---: |")
    print(ratios)
}

private fun Subject.label() = when (this) {
    Subject.FORAGE -> "Forage + ForageBlocking"
    Subject.KOTLINX -> "Default + IO"
}

private fun median(rs: List<Result>): Result {
    fun m(f: (Result) -> Double) = rs.map(f).sorted().let { it[it.size / 2] }
    return Result(m { it.calls }, m { it.threads }, m { it.switches }, m { it.hopIn }, m { it.hopBack })
}

private fun runChild(subject: Subject, blocking: Blocking, seconds: Long): Result {
    val java = File(System.getProperty("java.home"), "bin/java").path
    val cp = System.getProperty("java.class.path")
    val p = ProcessBuilder(java, "-Xms512m", "-Xmx512m", "-cp", cp, "dev.forage.bench.blocking.BlockingMix",
        "child", subject.name, blocking.name, seconds.toString())
        .redirectErrorStream(true).start()
    val out = p.inputStream.bufferedReader().readText()
    check(p.waitFor(seconds * 10 + 60, TimeUnit.SECONDS) && p.exitValue() == 0) { "child failed:\n$out" }
    val line = out.lines().last { it.startsWith("RESULT ") }.split(' ')
    return Result(line[1].toDouble(), line[2].toDouble(), line[3].toDouble(), line[4].toDouble(), line[5].toDouble())
}

private fun child(subject: Subject, blocking: Blocking, seconds: Long) {
    val file = Files.createTempFile("forage-blocking-mix", ".bin")
    Files.write(file, ByteArray(16 * 1024) { it.toByte() })
    val forage = if (subject == Subject.FORAGE) forageDispatcher { name = "mix" } else null
    val cpu: CoroutineDispatcher = forage ?: Dispatchers.Default
    val io: CoroutineDispatcher = forage?.blocking ?: Dispatchers.IO
    val calls = AtomicLong()
    val hopIn = AtomicLong()
    val hopBack = AtomicLong()
    val stop = java.util.concurrent.atomic.AtomicBoolean()
    val sink = AtomicLong()
    val threads = ManagementFactory.getThreadMXBean()
    var start = 0L
    var switches0 = 0L
    var calls0 = 0L
    var hopIn0 = 0L
    var hopBack0 = 0L
    runBlocking {
        val workers = (1..CONCURRENCY).map {
            launch(cpu) {
                val buffer = ByteBuffer.allocate(16 * 1024)
                while (!stop.get()) {
                    sink.addAndGet(spin(CPU_MICROS))
                    val before = Thread.currentThread()
                    val inside = withContext(io) {
                        blockingCall(blocking, file, buffer)
                        Thread.currentThread()
                    }
                    val after = Thread.currentThread()
                    if (inside !== before) hopIn.incrementAndGet()
                    if (after !== inside) hopBack.incrementAndGet()
                    calls.incrementAndGet()
                }
            }
        }
        Thread.sleep(1500) // warm-up
        start = System.nanoTime()
        switches0 = contextSwitches()
        calls0 = calls.get()
        hopIn0 = hopIn.get()
        hopBack0 = hopBack.get()
        Thread.sleep(seconds * 1000)
        val n = (calls.get() - calls0).toDouble()
        val elapsed = (System.nanoTime() - start) / 1e9
        val result = "RESULT ${n / elapsed} ${threads.threadCount} ${(contextSwitches() - switches0) / n} " +
            "${(hopIn.get() - hopIn0) / n} ${(hopBack.get() - hopBack0) / n}"
        stop.set(true)
        workers.forEach { it.join() }
        println(result)
    }
    forage?.close()
    Files.deleteIfExists(file)
    if (sink.get() == 42L) println() // keeps the spin from being optimised away
    exitProcess(0)
}

private fun blockingCall(blocking: Blocking, file: Path, buffer: ByteBuffer) {
    when (blocking) {
        Blocking.SLEEP -> Thread.sleep(1)
        Blocking.READ -> FileChannel.open(file, StandardOpenOption.READ).use { ch ->
            buffer.clear()
            while (buffer.hasRemaining() && ch.read(buffer) >= 0) Unit
        }
    }
}

/** About [micros] of CPU work. */
private fun spin(micros: Long): Long {
    val end = System.nanoTime() + micros * 1000
    var x = 0L
    while (System.nanoTime() < end) x = x * 31 + 7
    return x
}

/** Context switches of every thread of this process so far (Linux); 0 elsewhere. */
private fun contextSwitches(): Long {
    val tasks = File("/proc/self/task").listFiles() ?: return 0
    var sum = 0L
    for (t in tasks) {
        try {
            File(t, "status").forEachLine { line ->
                if (line.startsWith("voluntary_ctxt_switches") || line.startsWith("nonvoluntary_ctxt_switches")) {
                    sum += line.substringAfter(':').trim().toLong()
                }
            }
        } catch (e: java.io.IOException) {
            // the thread ended meanwhile
        }
    }
    return sum
}
