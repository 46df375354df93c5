@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.decrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetch

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
 * A latch one worker waits for (Rayon's `SpinLatch`): the setter wakes that worker only, and only when it was
 * asleep on this latch. After [set] the latch may be gone (its owner returns and drops it), so [set] reads
 * everything it needs before the state change.
 */
internal open class OwnedLatch(private val registry: Registry, private val owner: Int) : CoreLatch() {
    fun set() {
        val registry = registry
        val owner = owner
        if (setCore()) registry.notifyWorkerLatchIsSet(owner)
    }
}

/** A latch set when its count reaches zero (Rayon's `CountLatch`): a scope's body and jobs, one count each. */
internal class CountLatch(registry: Registry, owner: Int) : OwnedLatch(registry, owner) {
    private val count = AtomicInt(1)

    fun increment() {
        count.incrementAndFetch()
    }

    fun decrement() {
        if (count.decrementAndFetch() == 0) set()
    }
}
