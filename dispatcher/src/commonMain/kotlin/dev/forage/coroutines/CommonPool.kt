package dev.forage.coroutines

import kotlinx.coroutines.Runnable

/**
 * A Forage pool, as common code sees it: the pool behind a [ForageDispatcher] (`dispatcher.pool`).
 *
 * On the JVM and Android this is `dev.forage.ForagePool` itself (a type alias), the work-stealing pool with its
 * whole Java API. On JS and Wasm-JS it is the event loop's one thread: [parallelism] is 1 and every job runs on
 * the event loop, in order. Common code gets a pool from [forageDispatcher] or `Dispatchers.Forage`:
 * ```
 * forageDispatcher { threads = 4; name = "compute" }.use { compute ->
 *     println("${compute.pool.name()} runs ${compute.pool.parallelism()} jobs at once")
 * }
 * ```
 */
public expect class ForagePool : AutoCloseable {
    /** The number of jobs the pool runs at once: its worker threads on the JVM, 1 on JS and Wasm-JS. */
    public fun parallelism(): Int

    /** The pool's name: `forage-common` for the shared pool, else the name given to [forageDispatcher]. */
    public fun name(): String

    /** Counters of the pool since it started, read without stopping it: `pool.statistics().jobsRun()`. */
    public fun statistics(): PoolStatistics

    /** Whether [close] (or, on the JVM, `shutdown`) was called: the pool takes no new outside work. */
    public fun isShutdown(): Boolean

    /**
     * Stops taking new work and waits until every accepted job has run (on JS and Wasm-JS, which cannot wait,
     * jobs already queued still run on the event loop afterwards). Idempotent.
     *
     * @throws UnsupportedOperationException for the shared pool behind `Dispatchers.Forage`
     */
    public override fun close()
}

/**
 * A snapshot of a pool's counters: the subset every platform has. On the JVM, `dev.forage.PoolStatistics` with
 * many more (sleeps, wake-ups, blocking sections, per-worker counts). Every platform reads a counter the same
 * way, by a getter named as the counter (`jobsRun()`, `steals()`), and its `toString` prints each under that name.
 * ```
 * val s = dispatcher.pool.statistics()
 * println("${s.jobsRun()} jobs on ${s.threads()} threads, ${s.steals()} stolen")
 * ```
 */
public expect class PoolStatistics {
    /** Worker threads started and not retired (1 on JS and Wasm-JS). */
    public fun threads(): Int

    /** Jobs run to completion (or to their exception), coroutine resumptions included. */
    public fun jobsRun(): Long

    /** Jobs one worker took from another's deque (always 0 where there is one thread). */
    public fun steals(): Long

    /** Jobs submitted from outside the pool's workers. */
    public fun injectedJobs(): Long

    /** Jobs waiting to run when the snapshot was taken. */
    public fun queuedJobs(): Long
}

/**
 * The jobs of one [awaitScope] call: the body and every job spawned into it. The call returns when all of them
 * finished. On the JVM, `dev.forage.Scope`.
 * ```
 * pool.awaitScope { s -> for (part in parts) s.spawn { check(part) } }
 * ```
 */
public expect class Scope {
    /**
     * Adds [job] to the scope; it may run in parallel with the body and the other jobs (in order after the
     * body on JS and Wasm-JS).
     *
     * @throws IllegalStateException if the scope already ended
     */
    public fun spawn(job: Runnable)

    /** Jobs of this scope that have not started never run; running ones may stop early by checking [isCancelled]. */
    public fun cancel()

    /** Whether [cancel] was called, or the awaiting coroutine was cancelled. */
    public fun isCancelled(): Boolean
}
