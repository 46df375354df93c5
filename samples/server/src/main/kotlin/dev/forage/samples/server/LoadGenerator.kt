package dev.forage.samples.server

import org.HdrHistogram.Histogram
import java.io.IOException
import java.lang.management.ManagementFactory
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.AtomicReference
import java.util.concurrent.locks.LockSupport
import com.sun.management.OperatingSystemMXBean as SunOperatingSystemMXBean

/** A request of the load mix and the body a correct server answers. */
data class MixRequest(val path: String, val expected: String)

/**
 * The load mix, in equal shares: CPU work (`/hash`), fan-out (`/fanout`), awaiting the Java component's future
 * (`/stock`, over [SKUS] items) and a `delay` (`/delay`). Request i of a run is `mix[i % mix.size]`.
 */
fun standardMix(): List<MixRequest> {
    val mix = ArrayList<MixRequest>()
    for (i in 0 until SKUS) {
        mix += MixRequest("/hash?text=load-$i&rounds=$HASH_ROUNDS", Answers.hash("load-$i", HASH_ROUNDS))
        mix += MixRequest(
            "/fanout?text=load-$i&parts=$FANOUT_PARTS&rounds=${HASH_ROUNDS / FANOUT_PARTS}",
            Answers.fanout("load-$i", FANOUT_PARTS, HASH_ROUNDS / FANOUT_PARTS),
        )
        mix += MixRequest("/stock?sku=item-$i", Answers.stock("item-$i"))
        mix += MixRequest("/delay?ms=$DELAY_MS", Answers.delay(DELAY_MS))
    }
    return mix
}

private const val SKUS = 8
private const val HASH_ROUNDS = 400
private const val FANOUT_PARTS = 4
private const val DELAY_MS = 2

/**
 * What one phase measured. CPU is the whole process's CPU time over the phase minus the CPU time of the client
 * threads (they run in this JVM too), so [serverCpuMicrosPerRequest] holds the server, its engine, its
 * dispatcher, the JIT and the GC.
 */
class PhaseResult(
    val phase: String,
    val requests: Long,
    val errors: Long,
    val firstError: String?,
    val wallNanos: Long,
    /** Latencies in microseconds. */
    val latencyMicros: Histogram,
    val processCpuNanos: Long,
    val clientCpuNanos: Long,
) {
    val requestsPerSecond: Double get() = requests * 1e9 / wallNanos
    fun latencyMillis(percentile: Double): Double = latencyMicros.getValueAtPercentile(percentile) / 1000.0
    val serverCpuMicrosPerRequest: Double
        get() = if (requests == 0L) Double.NaN else (processCpuNanos - clientCpuNanos) / 1000.0 / requests
}

/**
 * A bounded load generator over loopback, in this JVM: every phase has a request count and a time limit,
 * every connection a read timeout, and each phase returns (or throws) by itself.
 */
class LoadGenerator(private val port: Int, private val mix: List<MixRequest> = standardMix()) {
    private val host = "127.0.0.1"
    private val threads = ManagementFactory.getThreadMXBean()
    private val os = ManagementFactory.getOperatingSystemMXBean() as SunOperatingSystemMXBean

    init {
        require(port in 1..65_535) { "port must be in 1..65535, was $port" }
        require(mix.isNotEmpty()) { "the request mix must not be empty" }
        require(threads.isCurrentThreadCpuTimeSupported) { "this JVM cannot measure thread CPU time" }
    }

    /**
     * Closed loop: [connections] clients, each sending its next request as soon as the previous answer
     * arrives, until [requests] were sent in all or [maxMillis] passed. Measures throughput at saturation.
     */
    fun closedLoop(phase: String, connections: Int, requests: Int, maxMillis: Long): PhaseResult {
        require(connections >= 1) { "connections must be >= 1, was $connections" }
        require(requests >= 1) { "requests must be >= 1, was $requests" }
        require(maxMillis >= 1) { "maxMillis must be >= 1, was $maxMillis" }
        val next = AtomicLong()
        return run(phase, connections, maxMillis) { connection, deadline, record ->
            while (System.nanoTime() - deadline < 0) {
                val i = next.getAndIncrement()
                if (i >= requests) break
                val start = System.nanoTime()
                record(send(connection, i), start)
            }
        }
    }

    /**
     * Open loop at a fixed rate: request i is due at start + i / [ratePerSecond], spread over [connections]
     * clients, for [seconds]. Latency counts from the due time, so a slow server is not hidden by a client that
     * waited for it (no coordinated omission). Measures latency and CPU at a moderate, steady load.
     */
    fun paced(phase: String, connections: Int, ratePerSecond: Int, seconds: Int): PhaseResult {
        require(connections >= 1) { "connections must be >= 1, was $connections" }
        require(ratePerSecond >= 1) { "ratePerSecond must be >= 1, was $ratePerSecond" }
        require(seconds >= 1) { "seconds must be >= 1, was $seconds" }
        val total = ratePerSecond.toLong() * seconds
        val interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond
        val maxMillis = TimeUnit.SECONDS.toMillis(seconds.toLong()) + PACED_GRACE_MILLIS
        val slot = AtomicLong()
        val origin = AtomicLong()
        return run(phase, connections, maxMillis, onStart = { origin.set(System.nanoTime()) }) { connection, deadline, record ->
            while (true) {
                val i = slot.getAndIncrement()
                if (i >= total) break
                val due = origin.get() + i * interval
                while (true) {
                    val wait = due - System.nanoTime()
                    if (wait <= 0) break
                    LockSupport.parkNanos(wait) // pacing the load, not waiting for a result
                }
                if (System.nanoTime() - deadline >= 0) break
                record(send(connection, i), due)
            }
        }
    }

    /**
     * The process's CPU time while the server is idle for [millis], after letting it settle for as long (the
     * last responses, timers and JIT compilations of the previous phase): what an idle pool costs.
     */
    fun idleCpuMillisPerSecond(millis: Long): Double {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis)) // settling, not waiting for a result
        val cpu0 = os.processCpuTime
        val t0 = System.nanoTime()
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis)) // measuring over a span, not synchronizing
        val cpu = os.processCpuTime - cpu0
        val wall = System.nanoTime() - t0
        return cpu / 1e6 / (wall / 1e9)
    }

    /** Returns null when the answer is right, else what was wrong. */
    private fun send(connection: Reconnecting, i: Long): String? {
        val request = mix[(i % mix.size).toInt()]
        return try {
            val response = connection.get(request.path)
            when {
                response.status != 200 -> "${request.path}: status ${response.status}: ${response.body}"
                response.body != request.expected -> "${request.path}: wrong body '${response.body}'"
                else -> null
            }
        } catch (e: IOException) {
            connection.reset()
            "${request.path}: $e"
        }
    }

    private fun run(
        phase: String,
        connections: Int,
        maxMillis: Long,
        onStart: () -> Unit = {},
        body: (Reconnecting, Long, (String?, Long) -> Unit) -> Unit,
    ): PhaseResult {
        val go = CountDownLatch(1)
        val histograms = List(connections) { Histogram(MAX_LATENCY_MICROS, 3) }
        val errors = AtomicLong()
        val firstError = AtomicReference<String?>()
        val clientCpu = AtomicLong()
        val failure = AtomicReference<Throwable?>()
        val deadlineHolder = AtomicLong()
        val workers = List(connections) { k ->
            Thread({
                val cpu0 = threads.currentThreadCpuTime
                try {
                    Reconnecting(host, port).use { connection ->
                        go.await()
                        body(connection, deadlineHolder.get()) { error, start ->
                            histograms[k].recordValue(((System.nanoTime() - start) / 1000).coerceIn(0, MAX_LATENCY_MICROS))
                            if (error != null) {
                                errors.incrementAndGet()
                                firstError.compareAndSet(null, error)
                            }
                        }
                    }
                } catch (t: Throwable) {
                    failure.compareAndSet(null, t)
                } finally {
                    clientCpu.addAndGet(threads.currentThreadCpuTime - cpu0)
                }
            }, "load-$phase-$k").apply { isDaemon = true; start() }
        }
        val cpu0 = os.processCpuTime
        val t0 = System.nanoTime()
        deadlineHolder.set(t0 + TimeUnit.MILLISECONDS.toNanos(maxMillis))
        onStart()
        go.countDown()
        val joinDeadline = t0 + TimeUnit.MILLISECONDS.toNanos(maxMillis + JOIN_GRACE_MILLIS)
        for (worker in workers) {
            worker.join(TimeUnit.NANOSECONDS.toMillis(joinDeadline - System.nanoTime()).coerceAtLeast(1))
            check(!worker.isAlive) { "load client ${worker.name} did not stop by its deadline" }
        }
        val wall = System.nanoTime() - t0
        val cpu = os.processCpuTime - cpu0
        failure.get()?.let { throw IllegalStateException("a load client failed", it) }
        val merged = Histogram(MAX_LATENCY_MICROS, 3)
        histograms.forEach(merged::add)
        return PhaseResult(phase, merged.totalCount, errors.get(), firstError.get(), wall, merged, cpu, clientCpu.get())
    }

    /** A connection that reconnects after an I/O error (and counts the failed request as an error). */
    private class Reconnecting(private val host: String, private val port: Int) : AutoCloseable {
        private var connection: HttpConnection? = HttpConnection(host, port) // connect before the phase starts

        fun get(path: String): HttpResponse {
            val c = connection ?: HttpConnection(host, port).also { connection = it }
            return c.get(path)
        }

        fun reset() {
            connection?.close()
            connection = null
        }

        override fun close() = reset()
    }

    private companion object {
        const val MAX_LATENCY_MICROS = 60_000_000L
        const val PACED_GRACE_MILLIS = 10_000L
        const val JOIN_GRACE_MILLIS = 40_000L
    }
}
