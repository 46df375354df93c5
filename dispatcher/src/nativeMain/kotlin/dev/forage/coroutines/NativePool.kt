@file:OptIn(ExperimentalAtomicApi::class, ExperimentalNativeApi::class)

package dev.forage.coroutines

import dev.forage.coroutines.engine.EngineSettings
import dev.forage.coroutines.engine.Registry
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.incrementAndFetch
import kotlin.experimental.ExperimentalNativeApi
import kotlinx.coroutines.Runnable

/**
 * A Forage pool on Kotlin/Native: worker threads with Chase–Lev deques and work stealing that sleep and wake by
 * the JEC protocol (docs/sleep.md), the engine of the JVM written in Kotlin (docs/multiplatform.md, "The native
 * engine"). Built by `forageDispatcher { }`; `Dispatchers.Forage` runs on the shared one.
 */
public actual class ForagePool internal constructor(
    internal val registry: Registry,
    private val closeable: Boolean,
) : AutoCloseable {
    /** The number of workers. */
    public actual fun parallelism(): Int = registry.settings.threads

    public actual fun name(): String = registry.name

    /** A snapshot of the pool's counters, each read once without stopping the workers. */
    public actual fun statistics(): PoolStatistics = PoolStatistics(
        threads = registry.liveThreads(),
        jobsRun = registry.jobsRun(),
        steals = registry.steals(),
        injected = registry.injectedJobs(),
        queued = registry.queuedJobs(),
        sleeps = registry.sleeps(),
    )

    public actual fun isShutdown(): Boolean = registry.isShutdown()

    /**
     * Stops taking new work and waits until every accepted job has run and every worker thread has ended (called
     * on one of this pool's own workers, it cannot wait for itself and returns at once). Idempotent.
     */
    public actual override fun close() {
        if (!closeable) throw sharedPoolCannotClose(name())
        registry.close()
    }

    /** Queues [job]; false, and nothing queued, once the pool is shut down. */
    internal fun execute(job: Runnable): Boolean = registry.submit(job)

    /** The error a closed pool's refusal carries: Kotlin/Native has no RejectedExecutionException. */
    internal fun rejection(): IllegalStateException = IllegalStateException("$this is shut down and takes no new work")

    /** `ForagePool[name, parallelism N, threads T, running]`, as the JVM pool names itself. */
    override fun toString(): String =
        "ForagePool[${name()}, parallelism ${parallelism()}, threads ${registry.liveThreads()}, " +
            "${if (isShutdown()) "shut down" else "running"}]"

    internal companion object {
        private val ids = AtomicInt(0)

        fun nextName(): String = "forage-${ids.incrementAndFetch()}"

        fun availableProcessors(): Int = Platform.getAvailableProcessors().coerceIn(1, MAX_THREADS)

        fun create(name: String, threads: Int, closeable: Boolean): ForagePool =
            ForagePool(Registry(EngineSettings(name, threads)), closeable)
    }
}

/** A snapshot of a native pool's counters. */
public actual class PoolStatistics internal constructor(
    private val threads: Int,
    private val jobsRun: Long,
    private val steals: Long,
    private val injected: Long,
    private val queued: Long,
    private val sleeps: Long,
) {
    /** Worker threads alive: fewer than the parallelism while idle workers are retired. */
    public actual fun threads(): Int = threads

    public actual fun jobsRun(): Long = jobsRun

    /** Jobs a worker took from another worker's deque. */
    public actual fun steals(): Long = steals

    /** Jobs that came from outside the workers, through the injector. */
    public actual fun injectedJobs(): Long = injected

    public actual fun queuedJobs(): Long = queued

    /** Times a worker went to sleep (native only; the JVM's `sleeps()` counts the same). */
    public fun sleeps(): Long = sleeps

    override fun toString(): String =
        "PoolStatistics[threads=$threads, jobsRun=$jobsRun, steals=$steals, injectedJobs=$injected, " +
            "queuedJobs=$queued, sleeps=$sleeps]"
}
