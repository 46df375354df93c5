@file:OptIn(ExperimentalAtomicApi::class, ExperimentalForeignApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicIntArray
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
    val brokenSleep: JecSleep.Broken = JecSleep.Broken.NONE,
    val brokenDeque: WorkDeque.Broken = WorkDeque.Broken.NONE,
    val brokenRetire: BrokenRetire = BrokenRetire.NONE,
) {
    init {
        require(threads in 1..JecCounters.THREADS_MAX) {
            "threads must be between 1 and ${JecCounters.THREADS_MAX}, was $threads"
        }
        require(keepAliveNanos >= 0) { "keepAliveNanos must be 0 (never) or positive, was $keepAliveNanos" }
    }

    companion object {
        const val DEFAULT_KEEP_ALIVE_NANOS: Long = 60_000_000_000L
    }
}

/** Deliberately broken retirement and shutdown, for the native stress tests that must show they catch each one. */
internal enum class BrokenRetire {
    NONE,

    /** R4 looks at the queues only: the watcher of a far timer retires, and the timer never fires. */
    RETIRES_WITH_TIMERS_PENDING,

    /** A timer nobody watches only wakes a sleeper, never a retired worker: scheduled after the last one retired, it never fires. */
    TIMER_WAKES_SLEEPERS_ONLY,

    /** close() neither waits for submissions in flight nor brings back a worker for what they queued. */
    CLOSE_WITHOUT_HANDOFF,
}

/**
 * The pool: its workers, the injector, the counters word, the timers, retirement and shutdown (Rayon's
 * `Registry`). The facade (`ForagePool`, `ForageDispatcher`) only calls [inject], [Worker.push], [join],
 * [schedule] and [close].
 */
internal class Registry(val settings: EngineSettings) {
    val name: String = settings.name
    val sleep = JecSleep(settings.threads, settings.brokenSleep)
    val injector = Injector()
    val timers = Timers()
    val workers: Array<Worker> = Array(settings.threads) { Worker(this, it, settings.brokenDeque) }

    private val slots = AtomicIntArray(settings.threads) // RUNNING, RETIRING, RETIRED per worker
    private val retired = AtomicInt(0)
    private val inFlight = AtomicInt(0)
    private val shutdown = AtomicBoolean(false)
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
     * itself in flight around its shutdown check and its push, so that a worker leaving after a stop never
     * misses a job that was accepted (see [canLeaveAfterStop]).
     *
     * A [yielding] job goes behind the work already queued: on the worker's own deque in its top-level loop,
     * which takes the oldest job first; through the injector from anywhere else (inside a wait the deque's
     * newest job is taken first, so the yielding coroutine would run again at once).
     */
    fun submit(job: Runnable, yielding: Boolean = false): Boolean {
        val worker = currentWorker()
        if (worker != null && worker.registry === this && (!yielding || worker.atTopLevel())) {
            if (shutdown.load()) return false
            worker.push(job)
            return true
        }
        inFlight.incrementAndFetch() // S1
        try {
            if (shutdown.load()) return false // S2
            newJob(injector.push(job))
            return true
        } finally {
            inFlight.decrementAndFetch()
        }
    }

    /** I3 after one job was published, on a deque or in the injector (the same rule for both, sleep.md 3.5). */
    fun newJob(queueWasEmpty: Boolean) = wakeFor(sleep.newJobs(1, queueWasEmpty))

    /** Jobs that no sleeper could be woken for: start retired workers for them. */
    private fun wakeFor(shortfall: Int) {
        if (shortfall > 0 && retired.load() > 0 && !shutdown.load()) restartRetired(shortfall)
    }

    /** A job of a running join or scope, from a thread outside this pool: accepted even after a stop (its owner waits for it). */
    fun injectInternal(job: Runnable) = newJob(injector.push(job))

    fun notifyWorkerLatchIsSet(owner: Int) = sleep.notifyWorkerLatchIsSet(owner)

    // --- what the protocol looks at -------------------------------------------------------------------------------

    /** S4: a job in the injector or any deque, or a due timer. */
    fun hasWorkForSleeper(): Boolean = hasQueuedJobs() || timers.hasDue(nanoTime())

    /** E2: work that no awake worker may be about to take: queued jobs, or timers nobody watches. */
    fun hasUnclaimedWork(): Boolean = hasQueuedJobs() || timers.isUnwatched()

    fun hasQueuedJobs(): Boolean {
        if (!injector.isEmpty()) return true
        for (w in workers) if (!w.deque.isEmpty()) return true
        return false
    }

    fun countSleep(worker: Int) {
        workers[worker].sleeps++
    }

    // --- fork-join --------------------------------------------------------------------------------------------------

    /**
     * Rayon's `join` on [worker]: pushes [b], runs [a] here, takes [b] back if no thief took it, else runs other
     * jobs until [b]'s latch is set. Both halves always run (their failures are the caller's to report).
     */
    fun join(worker: Worker, a: () -> Unit, b: () -> Unit) = worker.inWait { joinHere(worker, a, b) }

    private fun joinHere(worker: Worker, a: () -> Unit, b: () -> Unit) {
        val latch = OwnedLatch(this, worker.index)
        val jobB = LatchJob(b, latch)
        worker.push(jobB)
        a()
        while (!latch.probe()) {
            val job = worker.deque.pop() ?: break
            if (job === jobB) {
                jobB.run()
                return
            }
            worker.runJob(job)
        }
        worker.waitUntil(latch, mainLoop = false)
    }

    private class LatchJob(private val body: () -> Unit, private val latch: OwnedLatch) : Runnable {
        override fun run() {
            try {
                body()
            } finally {
                latch.set()
            }
        }
    }

    // --- timers -------------------------------------------------------------------------------------------------

    /** Runs [action] on the pool after [delayNanos]; [onClose] instead if the pool closes first. */
    fun schedule(delayNanos: Long, action: () -> Unit, onClose: () -> Unit): Timers.Timer {
        val now = nanoTime()
        val deadline = if (delayNanos >= NO_DEADLINE - now) NO_DEADLINE - 1 else now + delayNanos
        val (timer, wake) = timers.add(deadline, action, onClose)
        when (wake) {
            // Nobody watches the timers: a post like any other (docs/sleep.md 9.1), so that when every worker
            // has retired one comes back to watch it (P3 against R3/R4: retire's last look sees pending timers).
            is Timers.Wake.AnySleeper -> if (settings.brokenRetire != BrokenRetire.TIMER_WAKES_SLEEPERS_ONLY) {
                wakeFor(sleep.newJobs(1, queueWasEmpty = true))
            } else {
                sleep.wakeAnyThreads(1)
            }
            is Timers.Wake.Watcher -> sleep.wakeSpecificThread(wake.index)
            Timers.Wake.None -> Unit
        }
        if (shutdown.load() && timers.cancel(timer)) onClose() // raced with close: the drain may have missed it
        return timer
    }

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
        if (settings.keepAliveNanos == 0L || shutdown.load()) NO_DEADLINE else nanoTime() + settings.keepAliveNanos

    /**
     * R1-R4 for a worker whose keep-alive passed while it slept in its main loop (still counted inactive, no longer
     * sleeping): R1 mark RETIRING, R2 leave the inactive count, R3 count itself retired, R4 one last look at the
     * queues and the timers: a worker never retires while a timer is pending, since a timer needs a worker to fire
     * it (docs/sleep.md 9.1); another keep-alive begins instead. A poster publishes first, then reads the counters word and then the retired count (P1-P3), so either
     * it counted this worker idle or retired (and starts it again), or R4 comes after its publication and sees the
     * job. Returns true if the thread must end; false if it stays (work at R4, or a poster claimed it).
     */
    fun retire(worker: Worker): Boolean {
        val i = worker.index
        if (!slots.compareAndSetAt(i, RUNNING, RETIRING)) return false
        sleep.counters.subInactiveThreadQuietly()
        retired.incrementAndFetch()
        if (settings.brokenSleep != JecSleep.Broken.NO_RETIRE_CHECK && (hasWorkForSleeper() || timersKeepWorker())) {
            if (slots.compareAndSetAt(i, RETIRING, RUNNING)) retired.decrementAndFetch()
            sleep.counters.addInactiveThread()
            return false
        }
        if (slots.compareAndSetAt(i, RETIRING, RETIRED)) return true // the thread's body counts it out
        sleep.counters.addInactiveThread() // a poster set us RUNNING again (and un-counted the retirement)
        return false
    }

    /**
     * P3: keeps (RETIRING) or starts again (RETIRED) up to [n] retired workers. A failed CAS reads the slot again:
     * a poster that read RETIRING and lost to the worker's own RETIRING -> RETIRED must now start its thread, or
     * a job published after the worker's last look would have nobody (the native stress suite's "retire vs post"
     * caught exactly that).
     */
    private fun restartRetired(n: Int) {
        var left = n
        for (i in workers.indices) {
            if (left == 0) return
            while (true) {
                val state = slots.loadAt(i)
                if (state == RETIRING && slots.compareAndSetAt(i, RETIRING, RUNNING)) {
                    retired.decrementAndFetch()
                    left--
                } else if (state == RETIRED && slots.compareAndSetAt(i, RETIRED, RUNNING)) {
                    retired.decrementAndFetch()
                    startThread(i)
                    left--
                } else if (state == RETIRING || state == RETIRED) {
                    continue // the slot changed under us: decide again
                }
                break
            }
        }
    }

    /** R4's look at the timers: any pending one keeps the retiring worker (unless a broken variant says not). */
    private fun timersKeepWorker(): Boolean =
        settings.brokenRetire != BrokenRetire.RETIRES_WITH_TIMERS_PENDING && !timers.isEmpty()

    fun retiredWorkers(): Int = retired.load()

    // --- threads and shutdown ------------------------------------------------------------------------------------

    private fun startThread(i: Int) {
        threadsLock.locked { live.incrementAndFetch() }
        val worker = workers[i]
        try {
            startPosixThread("$name-worker-${i + 1}") {
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

    fun isShutdown(): Boolean = shutdown.load()

    /** After its stop latch, a worker leaves once no submission is mid-push and nothing it can reach is queued. */
    fun canLeaveAfterStop(worker: Worker): Boolean =
        inFlight.load() == 0 && injector.isEmpty() && worker.deque.isEmpty()

    /**
     * Takes no new work, hands pending timers their close action, stops every worker, and (unless called on one of
     * this pool's own workers, which cannot wait for itself) waits until every accepted job has run and every
     * thread has ended.
     */
    fun close() {
        if (shutdown.compareAndSet(false, true)) { // C1
            for (t in timers.drain()) {
                try {
                    t.onClose()
                } catch (e: Throwable) {
                    reportUncaught(e)
                }
            }
            for (w in workers) w.stopLatch.set()
            if (settings.brokenRetire != BrokenRetire.CLOSE_WITHOUT_HANDOFF) handOffAfterStop()
        }
        if (currentWorker()?.registry === this) return
        threadsLock.locked {
            while (live.load() > 0) threadsLock.await(NO_DEADLINE)
        }
    }

    /**
     * C2 and C3, after C1 (the shutdown flag): waits out the submissions in flight, then brings back a retired
     * worker if jobs are queued. A submission counts itself in flight before its shutdown check (S1, S2 in
     * [submit]), so once none is in flight after C1, none can still queue a job. What was queued, a live worker
     * drains after its stop latch; but when every worker had retired nobody would (a post after C1 restarts no
     * worker, [wakeFor]): the worker brought back here finds its stop latch set, drains, and ends, and [close]
     * waits for its thread like any other.
     */
    private fun handOffAfterStop() {
        while (inFlight.load() > 0) sched_yield() // C2: a push in flight takes a few instructions
        if (hasQueuedJobs()) restartRetired(1) // C3: a RETIRING worker stays, a RETIRED one gets a thread
    }

    fun liveThreads(): Int = live.load()

    fun reportUncaught(t: Throwable) {
        uncaught.incrementAndFetch()
        println("Exception in a job of pool $name: $t")
        t.printStackTrace()
    }

    fun uncaughtExceptions(): Long = uncaught.load()

    fun queuedJobs(): Long = injector.size() + workers.sumOf { it.deque.size().toLong() }

    private companion object {
        const val RUNNING = 0
        const val RETIRING = 1
        const val RETIRED = 2
    }
}
