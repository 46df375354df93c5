@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch
import kotlinx.coroutines.Runnable

/**
 * Rayon's `CoreLatch` (docs/sleep.md, section 5): UNSET -> SLEEPY -> SLEEPING as its owner falls asleep waiting
 * for it, SET once. [set] reports whether the owner was asleep on it, so the setter wakes exactly that worker.
 */
internal open class CoreLatch {
    private val state = AtomicInt(UNSET)

    fun probe(): Boolean = state.load() == SET

    /** UNSET -> SLEEPY; false if the latch is set. */
    fun getSleepy(): Boolean = state.compareAndSet(UNSET, SLEEPY)

    /** SLEEPY -> SLEEPING; false if the latch was set meanwhile. */
    fun fallAsleep(): Boolean = state.compareAndSet(SLEEPY, SLEEPING)

    /** SLEEPING -> UNSET after the owner woke; fails harmlessly if the latch is set. */
    fun wakeUp() {
        state.compareAndSet(SLEEPING, UNSET)
    }

    /** Sets the latch; true if its owner was counted asleep on it and must be woken. */
    protected fun setCore(): Boolean = state.exchange(SET) == SLEEPING

    private companion object {
        const val UNSET = 0
        const val SLEEPY = 1
        const val SLEEPING = 2
        const val SET = 3
    }
}

/**
 * A latch one worker waits for (Rayon's `SpinLatch`, the Java engine's `SpinLatch`): the setter wakes that
 * worker only, and only when it was asleep on this latch. After [set] the latch may be gone (its owner returns and
 * drops it), so [set] reads everything it needs before the state change.
 */
internal open class SpinLatch(private val sleep: JecSleep, private val owner: Int) : CoreLatch() {
    fun set() {
        val sleep = sleep
        val owner = owner
        if (setCore()) sleep.notifyWorkerLatchIsSet(owner)
    }
}

/** A latch set when its count reaches zero (Rayon's `CountLatch`): a scope's body and jobs, one count each. */
internal class CountLatch(sleep: JecSleep, owner: Int) : SpinLatch(sleep, owner) {
    private val count = AtomicInt(1)

    fun increment() {
        count.incrementAndFetch()
    }

    fun decrement() {
        if (count.decrementAndFetch() == 0) set()
    }
}

/**
 * A job that lives in its joiner's frame (Rayon's `StackJob`): the second half of a join, pushed on the joiner's
 * deque for thieves. Whoever runs it, the joiner taking it back or a thief, sets [latch] after the body, failed or
 * not, and keeps the body's failure for the joiner ([failure]), which waits on that latch only if a thief took it.
 */
internal class StackJob(private val body: () -> Unit, val latch: SpinLatch) : Runnable {
    /** What the body threw; read by the joiner after [latch] is set (the latch's exchange publishes it). */
    var failure: Throwable? = null
        private set

    override fun run() {
        try {
            body()
        } catch (t: Throwable) {
            failure = t
        } finally {
            latch.set()
        }
    }
}
