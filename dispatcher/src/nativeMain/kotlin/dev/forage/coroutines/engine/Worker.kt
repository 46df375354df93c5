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
 * One slot of the pool and its whole life: its deque, its stop latch, its counters, its idle state, and, while a
 * thread runs it, that thread's loop. The loop is Rayon's `wait_until`: own deque first, then a search (other
 * deques from a random start, due timers, the injector) inside the JEC's idle protocol ([JecSleep]), which sees this
 * worker as its [IdleContext].
 *
 * Which end of its own deque a worker takes depends on where it is. Waiting inside a job (a join, a scope) it
 * pops the newest job, as Rayon does, so the stack grows with the depth of the join tree and not with the jobs run
 * (docs/sleep.md 6.1). In the top-level loop it takes the oldest: coroutines dispatched from a worker then run in
 * the order they were dispatched, as kotlinx's own scheduler runs them, and one that keeps re-dispatching itself
 * cannot starve the others. This replaces the JVM engine's next slot and fairness interval (sections 4.8 and 8).
 *
 * **The stack bound** (docs/sleep.md 6.2). A wait that helps runs other jobs on top of its own frame, and such a
 * job may wait and help in turn, so without a bound the stack would grow with the number of jobs rather than with
 * the depth of the join tree, and on Kotlin/Native a stack overflow ends the process. Inside
 * [EngineSettings.maxHelpDepth] jobs,
 * a wait runs only its own jobs (those pushed on this deque since it began) and then blocks on its latch outside
 * the sleep protocol (not counted idle, so no post counts on it), until the thread that took its job sets it. The
 * JVM engine keeps the parallelism with a stand-in thread meanwhile; the native engine has no compensation, so one
 * worker fewer runs until then. Nested helping is rare (a wait helps only when a thief took its job), so fork-join
 * trees seldom meet the bound.
 */
internal class Worker(val registry: Registry, override val index: Int, val deque: WorkDeque) : IdleContext {
    val stopLatch = SpinLatch(registry.sleep, index)
    private val idle = JecSleep.IdleState()
    private val maxHelpDepth = registry.settings.maxHelpDepth
    private var seed = (index + 1) * 0x9E3779B9.toInt()

    // Written by this worker only; read by statistics() as a snapshot.
    var jobsRun = 0L
        private set
    var steals = 0L
        private set
    var sleeps = 0L
        private set

    /** Joins and waits on this worker's stack: at 0 it is in its top-level loop, which takes its oldest job. */
    private var waits = 0

    /** Jobs running on this worker's stack, one inside another's wait: the stack bound's measure. */
    private var jobDepth = 0

    /** The deadlines of the sleep in progress (see [sleepDeadline]): the earliest timer, and the keep-alive. */
    private var sleepTimerDeadline = NO_DEADLINE
    private var sleepKeepAlive = NO_DEADLINE

    /** Whether a job pushed now is taken after the ones already queued (see the class comment). */
    fun atTopLevel(): Boolean = waits == 0

    /**
     * The thread's body: the main loop until the stop latch or retirement, then the drain after a stop. Returns
     * true if the worker retired; after that the slot may already run on a new thread, so the old one touches
     * nothing of it.
     */
    fun run(): Boolean {
        currentWorker = this
        try {
            val retired = runUntil(stopLatch, mainLoop = true)
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
        jobDepth++
        try {
            job.run()
        } catch (t: Throwable) {
            registry.reportUncaught(t) // a user's exception never ends the worker
        } finally {
            jobDepth--
        }
        jobsRun++
    }

    // --- waits: join and the latches of scopes ----------------------------------------------------------------------

    /**
     * Rayon's `join` on this worker: pushes [b], runs [a] here, takes [b] back if no thief took it, else runs other
     * jobs until [b]'s latch is set. Both halves always run, whatever the other did; then [a]'s failure is thrown,
     * with [b]'s suppressed in it, or [b]'s.
     *
     * @throws IllegalStateException past [MAX_NESTED_WAITS] waits on this worker's stack, before anything runs
     */
    fun join(a: () -> Unit, b: () -> Unit) {
        checkNesting()
        val floor = deque.bottom()
        val jobB = StackJob(b, SpinLatch(registry.sleep, index))
        push(jobB)
        waits++
        var failure: Throwable? = null
        try {
            try {
                a()
            } catch (t: Throwable) {
                failure = t
            }
            takeBackOrAwait(jobB, floor)
        } finally {
            waits--
        }
        val failureB = jobB.failure
        if (failure != null) {
            if (failureB != null && failureB !== failure) failure.addSuppressed(failureB)
            throw failure
        }
        if (failureB != null) throw failureB
    }

    private fun takeBackOrAwait(jobB: StackJob, floor: Long) {
        while (!jobB.latch.probe()) {
            val job = deque.pop() ?: break
            if (job === jobB) {
                jobB.run()
                return
            }
            runJob(job)
        }
        awaitLatch(jobB.latch, floor)
    }

    /**
     * Kotlin/Native ends the process on a stack overflow, where the JVM throws: a recursion of joins with no base
     * case gets this exception instead, while the stack still has room to unwind (see [MAX_NESTED_WAITS]).
     */
    private fun checkNesting() {
        if (waits >= MAX_NESTED_WAITS) {
            throw IllegalStateException(
                "join nested $waits deep on one worker of pool ${registry.name}: at most $MAX_NESTED_WAITS waits fit " +
                    "on a worker's stack; give the recursion a cutoff below which it runs sequentially",
            )
        }
    }

    /**
     * Runs jobs until [latch] is set (Rayon's `wait_until_cold`), inside a job: a scope's wait. Its own jobs are the
     * ones pushed on this deque from [floor] on (see the stack bound in the class comment).
     */
    fun waitUntil(latch: CoreLatch, floor: Long) {
        checkNesting()
        waits++
        try {
            awaitLatch(latch, floor)
        } finally {
            waits--
        }
    }

    /** This worker's deque position now: a wait's [floor] for [waitUntil], taken before it pushes its own jobs. */
    fun dequeFloor(): Long = deque.bottom()

    private fun awaitLatch(latch: CoreLatch, floor: Long) {
        if (jobDepth > maxHelpDepth && !latch.probe()) {
            while (!latch.probe()) {
                val own = deque.popAbove(floor) ?: break
                runJob(own)
            }
            if (!latch.probe()) registry.sleep.blockUntilSet(latch, index)
            return
        }
        runUntil(latch, mainLoop = false)
    }

    // --- the loop ---------------------------------------------------------------------------------------------------

    /**
     * Runs jobs until [latch] is set. In the main loop ([mainLoop]) an idle worker past the keep-alive may retire:
     * returns true if it did, and the thread must end.
     */
    private fun runUntil(latch: CoreLatch, mainLoop: Boolean): Boolean {
        val sleep = registry.sleep
        while (!latch.probe()) {
            val busy = takeLocal(mainLoop) ?: takeBeforeIdling()
            if (busy != null) {
                runJob(busy)
                continue
            }
            sleep.startLooking(idle)
            var job: Runnable? = null
            while (!latch.probe()) {
                job = findWork(mainLoop)
                if (job != null) break
                if (sleep.noWorkFound(idle, latch, this) == JecSleep.Outcome.TIMED_OUT && keepAlivePassed() &&
                    registry.retire(this)
                ) {
                    return true // retire() already left the inactive count
                }
            }
            sleep.workFound()
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

    /**
     * One look at the injector and the other deques before this worker counts itself idle (the Java engine's
     * `takeBeforeIdling`, docs/sleep.md 6): a worker that keeps finding work, a thief draining a producer's deque
     * say, then never touches the counters word, whose two read-modify-writes per idle spell (`startLooking`, E1)
     * would otherwise bounce its cache line off every poster's I3. No post counted on this worker (it is not
     * counted idle), so taking work here needs no hand-off.
     */
    private fun takeBeforeIdling(): Runnable? = registry.injector.pop() ?: stealFromOthers()

    /** The oldest own job at the top level, the newest inside a wait (see the class comment). */
    private fun takeLocal(topLevel: Boolean): Runnable? {
        return if (topLevel) deque.takeOldest() else deque.pop()
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

    // --- the sleep protocol's view of this worker (IdleContext) -----------------------------------------------------

    override fun hasWorkForSleeper(): Boolean = registry.hasWorkForSleeper()

    /**
     * The earliest timer if this worker watches the timers (it becomes the watcher if nobody is), and the keep-alive
     * in the top-level loop (a wait inside a job never retires). Read here, as the sleep blocks, rather than on
     * every failed search.
     */
    override fun sleepDeadline(): Long {
        sleepTimerDeadline = registry.timers.watch(index)
        sleepKeepAlive = if (atTopLevel()) registry.keepAliveDeadline() else NO_DEADLINE
        return minOf(sleepTimerDeadline, sleepKeepAlive)
    }

    override fun afterSleep() {
        sleeps++
        if (sleepTimerDeadline != NO_DEADLINE) registry.timers.unwatch(index)
    }

    /** After a timed-out sleep: whether it was the keep-alive that ended it (a timer's deadline only wakes us to fire it). */
    private fun keepAlivePassed(): Boolean =
        sleepKeepAlive != NO_DEADLINE && (sleepTimerDeadline == NO_DEADLINE || sleepKeepAlive < sleepTimerDeadline)

    companion object {
        /**
         * Waits (joins, scopes) nested on one worker's stack at most. A level of a join recursion took 350 to 520
         * bytes of stack in an unoptimized linuxX64 build (a chain of 16,000 fitted in [WORKER_STACK_BYTES], one
         * of 24,000 did not), so 4,096 levels leave about 1.5 KiB per level for the user's own frames.
         */
        const val MAX_NESTED_WAITS: Int = 4096
    }
}
