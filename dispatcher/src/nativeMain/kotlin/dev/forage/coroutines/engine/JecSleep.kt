@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.ExperimentalAtomicApi

/**
 * Rayon's sleep protocol with the jobs event counter (Rayon RFC #5), the steps and names of docs/sleep.md, whose
 * proof this code follows; the page's "Kotlin/Native" section lists what differs here. One [PosixLock] per worker
 * is its `Mutex` + `Condvar`: a sleeper holds it from before S2 until it blocks, a waker takes it to find the
 * sleeper blocked (so it cannot miss one), decrements the sleeping count, and signals that worker alone.
 *
 * It sees its pool only through [probe] and the sleeping worker only through its [IdleContext]. The steps the
 * proof rests on are `protected open` functions named after them, so that the native stress suite can build a
 * protocol with exactly one of them broken and show that its races catch it; a program without such a subclass
 * calls them directly.
 */
internal open class JecSleep(threads: Int, private val probe: PoolProbe) {
    val counters = JecCounters()
    private val states = Array(threads) { WorkerSleepState() }

    private class WorkerSleepState {
        val lock = PosixLock()
        var isBlocked = false // under lock

        /** Blocked in [blockUntilSet], outside the protocol's counts; under lock. */
        var isBlockedOnLatch = false

        /** The hint of docs/sleep.md 3.4: false means "not asleep, no need to take my lock". */
        val sleepIntent = AtomicBoolean(false)
    }

    /** What a sleep ended with, for the caller's loop. */
    enum class Outcome {
        /** Woken, or never blocked: search again. */
        WOKEN,

        /** The sleep ran into its own deadline ([IdleContext.sleepDeadline]). */
        TIMED_OUT,
    }

    fun startLooking(idle: IdleState) {
        counters.addInactiveThread()
        idle.rounds = 0
        idle.jobsCounter = IdleState.NOT_SLEEPY
    }

    /** E1 and E2: leaves the inactive count; wakes one sleeper when work is unclaimed (the hand-off rule). */
    fun workFound() {
        val sleepers = counters.subInactiveThread() // E1
        if (sleepers > 0) handOff()
    }

    /**
     * E2: after E1 (a sequentially consistent read-modify-write), a worker that leaves the idle state while others
     * sleep looks for work it may have been counted on for, and wakes one sleeper for it (docs/sleep.md 3.6).
     */
    protected open fun handOff() {
        if (probe.hasUnclaimedWork()) wakeAnyThreads(1)
    }

    /**
     * After a failed search: S1 at [ROUNDS_UNTIL_SLEEPY], then one more search, then [sleep]. Returns
     * [Outcome.TIMED_OUT] when a sleep ran into the worker's own deadline.
     */
    fun noWorkFound(idle: IdleState, latch: CoreLatch, worker: IdleContext): Outcome {
        if (idle.rounds < ROUNDS_UNTIL_SLEEPY) {
            idle.rounds++
            return Outcome.WOKEN
        }
        if (idle.rounds == ROUNDS_UNTIL_SLEEPY) {
            idle.jobsCounter = JecCounters.jec(counters.incrementJecIfActive()) // S1
            idle.rounds++
            return Outcome.WOKEN
        }
        return sleep(idle, latch, worker)
    }

    /** S2 to S5 (docs/sleep.md 3.3). */
    private fun sleep(idle: IdleState, latch: CoreLatch, worker: IdleContext): Outcome {
        if (!latch.getSleepy()) return Outcome.WOKEN
        val state = states[worker.index]
        state.lock.lock()
        state.sleepIntent.store(true)
        if (!latch.fallAsleep()) {
            state.sleepIntent.store(false)
            state.lock.unlock()
            idle.wakeFully()
            return Outcome.WOKEN
        }
        while (true) { // S2
            val c = counters.load()
            if (jecMoved(c, idle)) {
                idle.wakePartly()
                latch.wakeUp()
                state.sleepIntent.store(false)
                state.lock.unlock()
                return Outcome.WOKEN
            }
            if (counters.tryAddSleepingThread(c)) break
        }
        // S3 is no instruction: the S2 CAS is sequentially consistent.
        if (finalCheck(worker)) { // S4
            counters.subSleepingThread()
            state.sleepIntent.store(false)
            state.lock.unlock()
            idle.wakeFully()
            latch.wakeUp()
            return Outcome.WOKEN
        }
        val deadline = worker.sleepDeadline()
        var timedOut = false
        state.isBlocked = true // S5
        while (state.isBlocked) {
            if (!state.lock.await(deadline) && state.isBlocked) {
                // Our own deadline came first: un-count ourselves under the lock, so no waker does it too.
                state.isBlocked = false
                counters.subSleepingThread()
                timedOut = true
            }
        }
        state.sleepIntent.store(false)
        state.lock.unlock()
        worker.afterSleep()
        idle.wakeFully()
        latch.wakeUp()
        return if (timedOut) Outcome.TIMED_OUT else Outcome.WOKEN
    }

    /** S2's test: the JEC moved since S1 ([idle]'s), so a post came in between and the sleeper must search again. */
    protected open fun jecMoved(counters: Long, idle: IdleState): Boolean = JecCounters.jec(counters) != idle.jobsCounter

    /** S4: a last look at the queues and the due timers, after the sleeper was counted. */
    protected open fun finalCheck(worker: IdleContext): Boolean = worker.hasWorkForSleeper()

    /**
     * Blocks worker [index] until [latch] is set, outside the protocol: it is not counted idle or sleeping (it is
     * inside a job, busy as far as posters know), so no post counts on it and none wakes it; only the latch's setter
     * does (pair D: [CoreLatch.fallAsleep] before the probe under the lock, the setter's exchange before its wake).
     * The worker's stack bound uses it (see [Worker]).
     */
    fun blockUntilSet(latch: CoreLatch, index: Int) {
        val state = states[index]
        while (!latch.probe()) {
            if (!latch.getSleepy()) continue
            state.lock.lock()
            state.sleepIntent.store(true)
            if (latch.fallAsleep()) {
                state.isBlockedOnLatch = true
                while (state.isBlockedOnLatch && !latch.probe()) state.lock.await(NO_DEADLINE)
                state.isBlockedOnLatch = false
            }
            state.sleepIntent.store(false)
            state.lock.unlock()
            latch.wakeUp()
        }
    }

    /** Wakes worker [index] if it is blocked in [sleep]; the waker decrements the sleeping count (3.4). */
    fun wakeSpecificThread(index: Int): Boolean {
        val state = states[index]
        if (!state.sleepIntent.load()) return false
        state.lock.lock()
        if (!state.isBlocked) {
            state.lock.unlock()
            return false
        }
        unCountWoken()
        state.isBlocked = false
        state.lock.unlock()
        // Signalled after the unlock, so the sleeper does not wake only to wait for the lock we hold. The sleeper
        // loops on isBlocked, which we cleared under the lock: an early return of its wait finds it clear, and a
        // signal that finds it gone is harmless (its next wait loops on its own condition too).
        state.lock.signal()
        return true
    }

    /** The waker's decrement (3.4): under the sleeper's lock, so the sleeper cannot un-count itself too. */
    protected open fun unCountWoken() {
        counters.subSleepingThread()
    }

    /** Wakes up to [n] blocked workers, from index 0 (as Rayon); returns how many it woke. */
    fun wakeAnyThreads(n: Int): Int {
        var woken = 0
        for (i in states.indices) {
            if (woken == n) break
            if (wakeSpecificThread(i)) woken++
        }
        return woken
    }

    /**
     * I3 (3.5), after [count] jobs were published: how many sleepers to wake. Returns how many more workers the
     * jobs want than it could wake (the caller may start retired workers for them).
     */
    fun newJobs(count: Int, queueWasEmpty: Boolean): Int {
        val c = counters.incrementJecIfSleepy()
        val sleeping = JecCounters.sleepingThreads(c)
        val wanted = if (queueWasEmpty) count - JecCounters.awakeButIdleThreads(c) else count
        if (wanted <= 0) return 0
        val woken = if (sleeping == 0) 0 else wakeAnyThreads(minOf(wanted, sleeping))
        return wanted - woken
    }

    /**
     * A latch set on worker [owner], which was asleep on it: wake it (one owner, one wake-up, pair D), whether it
     * sleeps in the protocol or blocks in [blockUntilSet]. Posts never wake the latter: it would not take their job.
     */
    open fun notifyWorkerLatchIsSet(owner: Int) {
        if (wakeSpecificThread(owner)) return
        val state = states[owner]
        state.lock.lock()
        val blocked = state.isBlockedOnLatch
        state.isBlockedOnLatch = false
        state.lock.unlock()
        if (blocked) state.lock.signal() // after the unlock, as in wakeSpecificThread
    }

    /** Whether worker [index] is blocked: asleep in the protocol, or in [blockUntilSet]. For tests. */
    fun isBlocked(index: Int): Boolean = states[index].lock.locked { states[index].isBlocked || states[index].isBlockedOnLatch }

    /** A search's state between `startLooking` and `workFound` (Rayon's `IdleState`). */
    class IdleState {
        var rounds = 0
        var jobsCounter = NOT_SLEEPY

        fun wakeFully() {
            rounds = 0
            jobsCounter = NOT_SLEEPY
        }

        /** The JEC moved between S1 and S2: announce sleepy again after one more search. */
        fun wakePartly() {
            rounds = ROUNDS_UNTIL_SLEEPY
            jobsCounter = NOT_SLEEPY
        }

        companion object {
            const val NOT_SLEEPY = -1L
        }
    }

    companion object {
        /**
         * Failed searches before S1, as the JVM's `Tunable.ROUNDS_UNTIL_SLEEPY` (0: Rayon's 32 kept idle workers
         * burning CPU at low load); exactly one full search lies between S1 and S2 whatever the value.
         */
        const val ROUNDS_UNTIL_SLEEPY = 0
    }
}
