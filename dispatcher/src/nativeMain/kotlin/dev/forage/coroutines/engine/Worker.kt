@file:OptIn(ExperimentalAtomicApi::class, ExperimentalForeignApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.native.concurrent.ThreadLocal
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.coroutines.Runnable
import platform.posix.sched_yield

/** The worker the current thread is, or null outside every pool (Rayon's `WorkerThread::current`). */
@ThreadLocal
private var currentWorker: Worker? = null

internal fun currentWorker(): Worker? = currentWorker

/**
 * One slot of the pool: its deque, its stop latch, its counters, and, while a thread runs it, that thread's
 * loop. The loop is Rayon's `wait_until`: own deque first, then a search (other deques from a random start, due
 * timers, the injector) inside the JEC's idle protocol ([JecSleep]).
 *
 * Which end of its own deque a worker takes depends on where it is. Waiting inside a job (a join, a scope) it
 * pops the newest job, as Rayon does, so the stack grows with the depth of the join tree and not with the jobs run
 * (docs/sleep.md 6.1). In the top-level loop it takes the oldest: coroutines dispatched from a worker then run in
 * the order they were dispatched, as kotlinx's own scheduler runs them, and one that keeps re-dispatching itself
 * cannot starve the others. This replaces the JVM engine's next slot and fairness interval (sections 4.8 and 8).
 */
internal class Worker(val registry: Registry, val index: Int, broken: WorkDeque.Broken) {
    val deque = WorkDeque(broken)
    val stopLatch = OwnedLatch(registry, index)
    private val idle = JecSleep.IdleState()
    private var seed = (index + 1) * 0x9E3779B9.toInt()

    // Written by this worker only; read by statistics() as a snapshot.
    var jobsRun = 0L
        private set
    var steals = 0L
        private set
    var sleeps = 0L
        internal set

    /** Joins and waits on this worker's stack: at 0 it is in its top-level loop, which takes its oldest job. */
    private var waits = 0

    /** Whether a job pushed now is taken after the ones already queued (see the class comment). */
    fun atTopLevel(): Boolean = waits == 0

    /** Runs [body] as a wait inside a job: own jobs are popped newest first until it returns. */
    inline fun <T> inWait(body: () -> T): T {
        enterWait()
        try {
            return body()
        } finally {
            leaveWait()
        }
    }

    fun enterWait() {
        waits++
    }

    fun leaveWait() {
        waits--
    }

    /**
     * The thread's body: the main loop until the stop latch or retirement, then the drain after a stop. Returns
     * true if the worker retired; after that the slot may already run on a new thread, so the old one touches
     * nothing of it.
     */
    fun run(): Boolean {
        currentWorker = this
        try {
            val retired = waitUntil(stopLatch, mainLoop = true)
            if (!retired) drainAfterStop()
            return retired
        } finally {
            currentWorker = null
        }
    }

    /** Pushes an internal job (a join's second half, a scope's job, a dispatch from this worker). */
    fun push(job: Runnable) {
        registry.newJob(deque.push(job))
    }

    fun runJob(job: Runnable) {
        try {
            job.run()
        } catch (t: Throwable) {
            registry.reportUncaught(t) // a user's exception never ends the worker
        }
        jobsRun++
    }

    /**
     * Runs jobs until [latch] is set (Rayon's `wait_until_cold`). In the main loop ([mainLoop]) an idle worker
     * past the keep-alive may retire: returns true if it did, and the thread must end.
     */
    fun waitUntil(latch: CoreLatch, mainLoop: Boolean): Boolean =
        if (mainLoop) runUntil(latch, mainLoop = true) else inWait { runUntil(latch, mainLoop = false) }

    private fun runUntil(latch: CoreLatch, mainLoop: Boolean): Boolean {
        val sleep = registry.sleep
        while (!latch.probe()) {
            val local = takeLocal(mainLoop)
            if (local != null) {
                runJob(local)
                continue
            }
            sleep.startLooking(idle)
            var job: Runnable? = null
            while (!latch.probe()) {
                job = findWork(mainLoop)
                if (job != null) break
                val keepAlive = if (mainLoop) registry.keepAliveDeadline() else NO_DEADLINE
                if (sleep.noWorkFound(idle, latch, registry, index, keepAlive) == JecSleep.Outcome.DEADLINE &&
                    registry.retire(this)
                ) {
                    return true // retire() already left the inactive count
                }
            }
            sleep.workFound(registry)
            if (job != null) runJob(job)
        }
        return false
    }

    /** One full search: own deque, the others from a random start, due timers, the injector. */
    fun findWork(topLevel: Boolean): Runnable? {
        takeLocal(topLevel)?.let { return it }
        stealFromOthers()?.let { return it }
        if (registry.fireDueTimers()) takeLocal(topLevel)?.let { return it }
        return registry.injector.pop()
    }

    /** The oldest own job at the top level, the newest inside a wait (see the class comment). */
    private fun takeLocal(topLevel: Boolean): Runnable? {
        if (!topLevel) return deque.pop()
        while (true) {
            val job = deque.steal()
            if (job !== WorkDeque.RETRY) return job
        }
    }

    private fun stealFromOthers(): Runnable? {
        val workers = registry.workers
        val n = workers.size
        if (n == 1) return null
        var retry = true
        while (retry) {
            retry = false
            val start = nextRandom(n)
            for (k in 0 until n) {
                val victim = workers[(start + k) % n]
                if (victim === this) continue
                val job = victim.deque.steal()
                if (job === WorkDeque.RETRY) {
                    retry = true
                } else if (job != null) {
                    steals++
                    return job
                }
            }
        }
        return null
    }

    /** After the stop latch: run what is left; leave once nothing accepted can still arrive. */
    private fun drainAfterStop() {
        while (true) {
            val job = findWork(topLevel = true)
            if (job != null) {
                runJob(job)
            } else if (registry.canLeaveAfterStop(this)) {
                return
            } else {
                sched_yield() // a submission that passed the shutdown check is finishing its push
            }
        }
    }

    private fun nextRandom(n: Int): Int {
        var x = seed // xorshift32: cheap, per worker, no shared state
        x = x xor (x shl 13)
        x = x xor (x ushr 17)
        x = x xor (x shl 5)
        seed = x
        return (x ushr 1) % n
    }
}
