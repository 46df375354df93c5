@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.ExperimentalAtomicApi

/**
 * Rayon's sleep protocol with the jobs event counter (Rayon RFC #5), the steps and names of docs/sleep.md, whose
 * proof this code follows; the page's "Kotlin/Native" section lists what differs here. One [PosixLock] per worker
 * is its `Mutex` + `Condvar`: a sleeper holds it from before S2 until it blocks, a waker takes it to find the
 * sleeper blocked (so it cannot miss one), decrements the sleeping count, and signals that worker alone.
 */
internal class JecSleep(threads: Int, private val broken: Broken) {
    val counters = JecCounters()
    private val states = Array(threads) { WorkerSleepState() }
    private val ignoresJec = broken == Broken.NO_JEC_CHECK || broken == Broken.NO_JEC_NOR_FINAL_CHECK
    private val skipsFinalCheck = broken == Broken.NO_FINAL_CHECK || broken == Broken.NO_JEC_NOR_FINAL_CHECK

    /** Deliberately broken variants, for the native stress tests that must show they catch each one. */
    enum class Broken {
        NONE,

        /**
         * S4 skipped: a sleeper blocks without its final look at the queues. With the JEC intact this loses a job
         * only after the JEC wrapped between S1 and S2 (Rayon's reason for the check), which no test reaches.
         */
        NO_FINAL_CHECK,

        /** S2 counts the sleeper without comparing the JEC with S1's; S4 alone then keeps jobs from stranding. */
        NO_JEC_CHECK,

        /** Both guards of pair A gone: S2 ignores the JEC and S4 is skipped. */
        NO_JEC_NOR_FINAL_CHECK,

        /** The waker un-blocks a sleeper without decrementing the sleeping count. */
        NO_WAKER_DECREMENT,

        /** A latch set on a sleeping owner does not wake it. */
        NO_LATCH_WAKE,

        /** A retiring worker leaves without its last look at the queues. */
        NO_RETIRE_CHECK,

        /** E2 skipped: a worker leaving the idle state with jobs still queued wakes no sleeper for them. */
        NO_HANDOFF,
    }

    private class WorkerSleepState {
        val lock = PosixLock()
        var isBlocked = false // under lock

        /** The hint of docs/sleep.md 3.4: false means "not asleep, no need to take my lock". */
        val sleepIntent = AtomicBoolean(false)
    }

    /** What a sleep ended with, for the caller's loop. */
    enum class Outcome { WOKEN, DEADLINE }

    fun startLooking(idle: IdleState) {
        counters.addInactiveThread()
        idle.rounds = 0
        idle.jobsCounter = IdleState.NOT_SLEEPY
    }

    /** E1 and E2: leaves the inactive count; wakes one sleeper when work is unclaimed (the hand-off rule). */
    fun workFound(pool: Registry) {
        val sleepers = counters.subInactiveThread()
        if (sleepers > 0 && broken != Broken.NO_HANDOFF && pool.hasUnclaimedWork()) wakeAnyThreads(1)
    }

    /**
     * After a failed search: S1 at [ROUNDS_UNTIL_SLEEPY], then one more search, then [sleep]. Returns
     * [Outcome.DEADLINE] when a sleep ran into [keepAliveDeadline] (the caller may retire).
     */
    fun noWorkFound(idle: IdleState, latch: CoreLatch, pool: Registry, worker: Int, keepAliveDeadline: Long): Outcome {
        if (idle.rounds < ROUNDS_UNTIL_SLEEPY) {
            idle.rounds++
            return Outcome.WOKEN
        }
        if (idle.rounds == ROUNDS_UNTIL_SLEEPY) {
            idle.jobsCounter = JecCounters.jec(counters.incrementJecIfActive()) // S1
            idle.rounds++
            return Outcome.WOKEN
        }
        return sleep(idle, latch, pool, worker, keepAliveDeadline)
    }

    /** S2 to S5 (docs/sleep.md 3.3). */
    private fun sleep(idle: IdleState, latch: CoreLatch, pool: Registry, worker: Int, keepAliveDeadline: Long): Outcome {
        if (!latch.getSleepy()) return Outcome.WOKEN
        val state = states[worker]
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
            if (JecCounters.jec(c) != idle.jobsCounter && !ignoresJec) {
                idle.wakePartly()
                latch.wakeUp()
                state.sleepIntent.store(false)
                state.lock.unlock()
                return Outcome.WOKEN
            }
            if (counters.tryAddSleepingThread(c)) break
        }
        // S3 is no instruction: the S2 CAS is sequentially consistent. S4, the final check:
        if (!skipsFinalCheck && pool.hasWorkForSleeper()) {
            counters.subSleepingThread()
            state.sleepIntent.store(false)
            state.lock.unlock()
            idle.wakeFully()
            latch.wakeUp()
            return Outcome.WOKEN
        }
        val timerDeadline = pool.timers.watch(worker)
        val deadline = minOf(timerDeadline, keepAliveDeadline)
        var outcome = Outcome.WOKEN
        state.isBlocked = true // S5
        pool.countSleep(worker)
        while (state.isBlocked) {
            if (!state.lock.await(deadline) && state.isBlocked) {
                // Our own deadline came first: un-count ourselves under the lock, so no waker does it too.
                state.isBlocked = false
                counters.subSleepingThread()
                if (timerDeadline == NO_DEADLINE || keepAliveDeadline < timerDeadline) outcome = Outcome.DEADLINE
            }
        }
        state.sleepIntent.store(false)
        state.lock.unlock()
        if (timerDeadline != NO_DEADLINE) pool.timers.unwatch(worker)
        idle.wakeFully()
        latch.wakeUp()
        return outcome
    }

    /** Wakes worker [index] if it is blocked in [sleep]; the waker decrements the sleeping count (3.4). */
    fun wakeSpecificThread(index: Int): Boolean {
        val state = states[index]
        if (!state.sleepIntent.load()) return false
        state.lock.lock()
        try {
            if (!state.isBlocked) return false
            if (broken != Broken.NO_WAKER_DECREMENT) counters.subSleepingThread()
            state.isBlocked = false
            state.lock.signal()
            return true
        } finally {
            state.lock.unlock()
        }
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

    /** A latch set on worker [owner]: wake it if it is asleep on the latch (one owner, one wake-up). */
    fun notifyWorkerLatchIsSet(owner: Int) {
        if (broken != Broken.NO_LATCH_WAKE) wakeSpecificThread(owner)
    }

    fun isBlocked(index: Int): Boolean = states[index].lock.locked { states[index].isBlocked }

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
