@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicIntArray
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch

/**
 * The retirement of idle workers' threads (docs/sleep.md 9.1; the Java engine's `Retirement`, same states and
 * steps): a worker asleep in its top-level loop for the keep-alive leaves the idle state and its thread ends; the
 * worker itself (its deque, its slot) stays, [RETIRED]. A post that wants more workers than it could wake brings
 * one back with a new thread.
 *
 * The race between the last worker retiring and a job being posted is a Dekker pair of mirrored steps:
 * - R1: the worker marks itself RETIRED and counts itself in [retired];
 * - R2: it looks once more for queued jobs and pending timers, and stays if it finds any;
 * - P1: a poster publishes its job (a deque's `bottom`, the injector's link, the timers' earliest deadline);
 * - P2: the sleep protocol's post (`JecSleep.newJobs`);
 * - P3: it reads [retired] and, if it is not zero, takes a RETIRED worker back ([claimRetired]).
 *
 * Kotlin/Native's atomics are sequentially consistent, so either R2 sees the job or P3 sees the count (and then the
 * slot: R1 stores the state before it counts). Whoever takes a RETIRED worker, a poster or the retiring thread
 * changing its mind in R2, decides by a CAS on its state, so exactly one does: a poster that wins starts a new
 * thread for it, and the old thread ends without touching the worker again.
 */
internal class Retirement(workers: Int) {
    private val states = AtomicIntArray(workers)
    private val retired = AtomicInt(0)

    /**
     * R1 and R2, on the thread of worker [index], no longer counted idle. True: the thread must end now (a post may
     * already have given the worker a new thread). False: work came in, and the thread goes back to its loop.
     */
    fun retire(index: Int, workLeft: () -> Boolean): Boolean {
        states.storeAt(index, RETIRED)
        retired.incrementAndFetch() // R1
        if (!workLeft()) return true // R2
        if (states.compareAndSetAt(index, RETIRED, RUNNING)) {
            retired.decrementAndFetch()
            return false
        }
        return true // a post took the worker over
    }

    /** P3: takes a RETIRED worker back (RETIRED to RUNNING) and returns its index, for a new thread; -1 if none. */
    fun claimRetired(): Int {
        if (retired.load() == 0) return -1
        for (i in 0 until states.size) {
            if (states.loadAt(i) == RETIRED && states.compareAndSetAt(i, RETIRED, RUNNING)) {
                retired.decrementAndFetch()
                return i
            }
        }
        return -1
    }

    /** Workers retired now; a snapshot. */
    fun retiredCount(): Int = retired.load()

    private companion object {
        /** A thread runs the worker (or is about to). */
        const val RUNNING = 0

        /** The worker's thread retired: no thread until a post brings it back. */
        const val RETIRED = 1
    }
}
