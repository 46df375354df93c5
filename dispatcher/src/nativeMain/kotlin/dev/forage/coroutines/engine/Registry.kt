@file:OptIn(ExperimentalAtomicApi::class, ExperimentalForeignApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.coroutines.Runnable
import platform.posix.sched_yield

/** The native engine's settings; the common builder sets threads and name, tests the rest. */
internal class EngineSettings(
    val name: String,
    val threads: Int,
    /** An idle worker ends its thread after this long asleep in its main loop (0: never), as on the JVM. */
    val keepAliveNanos: Long = DEFAULT_KEEP_ALIVE_NANOS,
    /** The stack bound: inside this many nested jobs a wait runs only its own jobs, then blocks (see [Worker]). */
    val maxHelpDepth: Int = DEFAULT_MAX_HELP_DEPTH,
    /** How the registry builds its sleep protocol and deques: the engine's own, or a test's broken variant. */
    val parts: EngineParts = EngineParts.STANDARD,
) {
    init {
        require(threads in 1..JecCounters.THREADS_MAX) {
            "threads must be between 1 and ${JecCounters.THREADS_MAX}, was $threads"
        }
        require(keepAliveNanos >= 0) { "keepAliveNanos must be 0 (never) or positive, was $keepAliveNanos" }
        require(maxHelpDepth >= 0) { "maxHelpDepth must be 0 or more, was $maxHelpDepth" }
    }

    companion object {
        const val DEFAULT_KEEP_ALIVE_NANOS: Long = 60_000_000_000L

        /**
         * Higher than the JVM's 8, since here a wait past the bound costs a worker (there is no stand-in thread);
         * a level of nested helping costs a few hundred bytes of a worker's 8 MiB stack ([WORKER_STACK_BYTES]).
         */
        const val DEFAULT_MAX_HELP_DEPTH: Int = 32
    }
}

/**
 * Builds the protocol parts a registry is made of. The engine uses [STANDARD]; the native stress suite overrides
 * one factory to build a part with one step broken, and shows that its races catch it.
 */
internal open class EngineParts {
    open fun sleep(threads: Int, probe: PoolProbe): JecSleep = JecSleep(threads, probe)

    open fun deque(): WorkDeque = WorkDeque()

    companion object {
        val STANDARD = EngineParts()
    }
}

/**
 * The pool: its workers, the injector, the sleep protocol, the timers, retirement and shutdown (Rayon's
 * `Registry`). The facade (`ForagePool`, `ForageDispatcher`, the waits) only calls [submit], [Worker.push],
 * [Worker.join], [schedule], [close] and the statistics.
 *
 * An outside submission: [submit] → [Lifecycle.enter] → [Injector.push] → [JecSleep.newJobs] (wakes a sleeper) and,
 * if no sleeper could take it, [Retirement.claimRetired]; then on a worker [Worker.run]'s loop → [Worker.findWork]
 * → [Worker.runJob].
 *
 * Three steps of retirement and shutdown are `protected open` ([workLeftAtRetirement], [postUnwatchedTimer],
 * [handOffAfterStop]), for the native stress suite's broken variants; the engine itself never subclasses this.
 */
internal open class Registry(val settings: EngineSettings) : PoolProbe {
    val name: String = settings.name
    val sleep: JecSleep = settings.parts.sleep(settings.threads, this)
    val injector = Injector()
    val timers = Timers()
    val workers: Array<Worker> = Array(settings.threads) { Worker(this, it, settings.parts.deque()) }

    private val retirement = Retirement(settings.threads)
    private val lifecycle = Lifecycle()
    private val uncaught = AtomicLong(0L)
    private val threadsLock = PosixLock()
    private val live = AtomicInt(0) // threads running a worker; changed under threadsLock

    init {
        for (i in workers.indices) startThread(i)
    }

    // --- submission ---------------------------------------------------------------------------------------------

    /**
     * Accepts [job] from any thread, or returns false once the pool is shut down. From one of this pool's own
     * workers it goes to that worker's deque: the worker cannot leave after a stop while its deque holds a job,
     * so the push needs nothing more. From anywhere else it goes to the injector, and the submission counts
     * itself in flight around its shutdown check and its push ([Lifecycle]), so that a worker leaving after a stop
     * never misses a job that was accepted (see [canLeaveAfterStop]).
     *
     * A [yielding] job goes behind the work already queued: on the worker's own deque in its top-level loop,
     * which takes the oldest job first; through the injector from anywhere else (inside a wait the deque's
     * newest job is taken first, so the yielding coroutine would run again at once).
     */
    fun submit(job: Runnable, yielding: Boolean = false): Boolean {
        val worker = currentWorker()
        if (worker != null && worker.registry === this && (!yielding || worker.atTopLevel())) {
            if (lifecycle.isShutdown()) return false
            worker.push(job)
            return true
        }
        if (!lifecycle.enter()) return false
        try {
            newJob(injector.push(job))
            return true
        } finally {
            lifecycle.exit()
        }
    }

    /** P2 and P3 after one job was published (P1), on a deque or in the injector (sleep.md 3.5). */
    fun newJob(queueWasEmpty: Boolean) = claimRetiredFor(sleep.newJobs(1, queueWasEmpty))

    /** P3: the jobs wanted [shortfall] more workers than sleepers could be woken: start retired ones for them. */
    private fun claimRetiredFor(shortfall: Int) {
        var left = shortfall
        while (left > 0) {
            if (retirement.retiredCount() == 0 || lifecycle.isShutdown()) return // the usual case: one read
            val i = retirement.claimRetired()
            if (i < 0) return
            startThread(i)
            left--
        }
    }

    /** A job of a running join or scope, from a thread outside this pool: accepted even after a stop (its owner waits for it). */
    fun injectInternal(job: Runnable) = newJob(injector.push(job))

    // --- what the protocol looks at -------------------------------------------------------------------------------

    /** S4: a job in the injector or any deque, or a due timer. */
    fun hasWorkForSleeper(): Boolean = hasQueuedJobs() || timers.hasDue(nanoTime())

    override fun hasUnclaimedWork(): Boolean = hasQueuedJobs() || timers.isUnwatched()

    fun hasQueuedJobs(): Boolean {
        if (!injector.isEmpty()) return true
        for (w in workers) if (!w.deque.isEmpty()) return true
        return false
    }

    // --- timers -------------------------------------------------------------------------------------------------

    /** Runs [action] on the pool after [delayNanos]; [onClose] instead if the pool closes first. */
    fun schedule(delayNanos: Long, action: () -> Unit, onClose: () -> Unit): Timers.Timer {
        val now = nanoTime()
        val deadline = if (delayNanos >= NO_DEADLINE - now) NO_DEADLINE - 1 else now + delayNanos
        val (timer, wake) = timers.add(deadline, action, onClose)
        when (wake) {
            is Timers.Wake.AnySleeper -> postUnwatchedTimer()
            is Timers.Wake.Watcher -> sleep.wakeSpecificThread(wake.index)
            Timers.Wake.None -> Unit
        }
        if (lifecycle.isShutdown() && timers.cancel(timer)) onClose() // raced with close: the drain may have missed it
        return timer
    }

    /**
     * A timer that nobody watches is a post like any other (docs/sleep.md 9.1): P2, then P3, so that when every
     * worker has retired one comes back to watch it (against R1/R2: the retiring worker's last look sees pending
     * timers).
     */
    protected open fun postUnwatchedTimer() = claimRetiredFor(sleep.newJobs(1, queueWasEmpty = true))

    fun cancel(timer: Timers.Timer) {
        timers.cancel(timer)
    }

    /** Fires the due timers on the calling worker; true if any fired. */
    fun fireDueTimers(): Boolean {
        if (timers.isEmpty()) return false
        val due = timers.takeDue(nanoTime())
        for (t in due) {
            try {
                t.action()
            } catch (e: Throwable) {
                reportUncaught(e)
            }
        }
        return due.isNotEmpty()
    }

    // --- retirement (docs/sleep.md 9.1) ------------------------------------------------------------------------------

    fun keepAliveDeadline(): Long =
        if (settings.keepAliveNanos == 0L || lifecycle.isShutdown()) NO_DEADLINE else nanoTime() + settings.keepAliveNanos

    /**
     * For a worker whose keep-alive passed while it slept in its top-level loop (still counted inactive, no longer
     * sleeping): it leaves the inactive count, then R1 and R2 ([Retirement]). Returns true if the thread must end;
     * false if it stays, and then it is counted inactive again.
     */
    fun retire(worker: Worker): Boolean {
        sleep.counters.subInactiveThreadQuietly()
        if (retirement.retire(worker.index) { workLeftAtRetirement() }) return true
        sleep.counters.addInactiveThread()
        return false
    }

    /**
     * R2's look: queued jobs, and any pending timer. A worker never retires while a timer is pending, since a timer
     * needs a worker to fire it (docs/sleep.md 9.1); another keep-alive begins instead. Shutdown keeps it too: it
     * drains after its stop latch instead of retiring.
     */
    protected open fun workLeftAtRetirement(): Boolean =
        hasQueuedJobs() || !timers.isEmpty() || lifecycle.isShutdown()

    fun retiredWorkers(): Int = retirement.retiredCount()

    // --- threads and shutdown ------------------------------------------------------------------------------------

    private fun startThread(i: Int) {
        threadsLock.locked { live.incrementAndFetch() }
        val worker = workers[i]
        try {
            startWorkerThread("$name-worker-${i + 1}") {
                try {
                    worker.run()
                } finally {
                    threadExited() // a retired worker's thread too: it ends here
                }
            }
        } catch (e: Throwable) {
            threadExited()
            throw e
        }
    }

    private fun threadExited() {
        threadsLock.locked {
            if (live.decrementAndFetch() == 0) threadsLock.signalAll()
        }
    }

    fun isShutdown(): Boolean = lifecycle.isShutdown()

    /** After its stop latch, a worker leaves once no submission is mid-push and nothing it can reach is queued. */
    fun canLeaveAfterStop(worker: Worker): Boolean =
        !lifecycle.submissionsInFlight() && injector.isEmpty() && worker.deque.isEmpty()

    /**
     * Takes no new work, hands pending timers their close action, stops every worker, and (unless called on one of
     * this pool's own workers, which cannot wait for itself) waits until every accepted job has run and every
     * thread has ended.
     */
    fun close() {
        if (lifecycle.startShutdown()) { // C1
            for (t in timers.drain()) {
                try {
                    t.onClose()
                } catch (e: Throwable) {
                    reportUncaught(e)
                }
            }
            for (w in workers) w.stopLatch.set()
            handOffAfterStop()
        }
        if (currentWorker()?.registry === this) return
        threadsLock.locked {
            while (live.load() > 0) threadsLock.await(NO_DEADLINE)
        }
    }

    /**
     * C2 and C3, after C1 (the SHUTDOWN bit): waits out the submissions in flight, then brings back a retired
     * worker if jobs are queued. A submission counts itself in flight before it reads the bit ([Lifecycle]), so
     * once none is in flight after C1, none can still queue a job. What was queued, a live worker drains after its
     * stop latch; but when every worker had retired nobody would (a post after C1 starts no worker,
     * [claimRetiredFor]): the worker brought back here finds its stop latch set, drains, and ends, and [close]
     * waits for its thread like any other.
     */
    protected open fun handOffAfterStop() {
        while (lifecycle.submissionsInFlight()) sched_yield() // C2: a push in flight takes a few instructions
        if (hasQueuedJobs()) { // C3
            val i = retirement.claimRetired()
            if (i >= 0) startThread(i)
        }
    }

    fun liveThreads(): Int = live.load()

    fun reportUncaught(t: Throwable) {
        uncaught.incrementAndFetch()
        println("Exception in a job of pool $name: $t")
        t.printStackTrace()
    }

    fun uncaughtExceptions(): Long = uncaught.load()

    // --- statistics: snapshots, each counter read once without stopping the workers ---------------------------------

    fun queuedJobs(): Long = injector.size() + workers.sumOf { it.deque.size().toLong() }

    fun jobsRun(): Long = workers.sumOf { it.jobsRun }

    fun steals(): Long = workers.sumOf { it.steals }

    fun sleeps(): Long = workers.sumOf { it.sleeps }

    fun injectedJobs(): Long = injector.pushed()
}
