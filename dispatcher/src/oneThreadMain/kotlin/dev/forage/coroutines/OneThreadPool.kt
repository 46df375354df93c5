package dev.forage.coroutines

import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Runnable

// The one-thread actuals: JS and Wasm-JS, where the event loop is the only thread, so there is nothing to steal
// from. Jobs are handed to [host] (kotlinx's dispatcher for the platform's loop) in order. The counters are
// kotlin.concurrent atomics, which compile to plain fields on JS and Wasm-JS.

/** A pool on one thread, the event loop: parallelism 1, jobs in submission order. */
@OptIn(ExperimentalAtomicApi::class)
public actual class ForagePool internal constructor(
    private val name: String,
    internal val host: CoroutineDispatcher,
    private val closeable: Boolean,
) : AutoCloseable {
    private val shutdown = AtomicBoolean(false)
    private val jobsRun = AtomicLong(0)
    private val injected = AtomicLong(0)
    private val queued = AtomicLong(0)

    /** Always 1: the event loop's one thread. */
    public actual fun parallelism(): Int = 1

    public actual fun name(): String = name

    public actual fun statistics(): PoolStatistics =
        PoolStatistics(jobsRun.load(), injected.load(), queued.load())

    public actual fun isShutdown(): Boolean = shutdown.load()

    /** Takes no new work; jobs already queued still run on the event loop, which cannot be waited for. */
    public actual override fun close() {
        if (!closeable) throw sharedPoolCannotClose(name)
        shutdown.store(true)
    }

    /** Queues [job] on the event loop; false, and nothing queued, once the pool is shut down. */
    internal fun execute(job: Runnable): Boolean {
        if (shutdown.load()) return false
        injected.incrementAndFetch()
        queued.incrementAndFetch()
        host.dispatch(kotlin.coroutines.EmptyCoroutineContext, Runnable {
            queued.decrementAndFetch()
            try {
                job.run()
            } finally {
                jobsRun.incrementAndFetch()
            }
        })
        return true
    }

    /** The error a closed pool's refusal carries: the platform has no RejectedExecutionException. */
    internal fun rejection(): IllegalStateException = IllegalStateException("$this is shut down and takes no new work")

    /** `ForagePool[name, event loop, parallelism 1, ...]`, as the JVM pool names itself. */
    override fun toString(): String =
        "ForagePool[$name, event loop, parallelism 1, ${if (isShutdown()) "shut down" else "running"}]"

    internal companion object {
        private val ids = AtomicInt(0)

        fun nextName(): String = "forage-${ids.incrementAndFetch()}"
    }
}

/** A snapshot of the one-thread pool's counters. */
public actual class PoolStatistics internal constructor(
    private val jobsRun: Long,
    private val injected: Long,
    private val queued: Long,
) {
    /** Always 1. */
    public actual fun threads(): Int = 1

    public actual fun jobsRun(): Long = jobsRun

    /** Always 0: one thread steals from no one. */
    public actual fun steals(): Long = 0

    /** Every job: all of them come from the event loop, outside any worker. */
    public actual fun injectedJobs(): Long = injected

    public actual fun queuedJobs(): Long = queued

    override fun toString(): String =
        "PoolStatistics[threads=1, jobsRun=$jobsRun, steals=0, injectedJobs=$injected, queuedJobs=$queued]"
}
