package dev.forage.coroutines.stress

import dev.forage.coroutines.engine.EngineParts
import dev.forage.coroutines.engine.EngineSettings
import dev.forage.coroutines.engine.IdleContext
import dev.forage.coroutines.engine.JecSleep
import dev.forage.coroutines.engine.PoolProbe
import dev.forage.coroutines.engine.Registry
import dev.forage.coroutines.engine.WorkDeque

/**
 * The engine a race runs on: the correct one, or one with exactly one protocol step broken. Each break overrides
 * the `protected open` step the engine names after it (in [JecSleep], [WorkDeque] or [Registry]), so the engine's
 * own code has no switch for it; the race that pins the step must catch the break (or, for the two redundant
 * guards of pair A, must not).
 */
internal enum class Variant(val label: String) {
    CORRECT("the engine as built"),

    /** S2 counts the sleeper without comparing the JEC with S1's; S4 alone then keeps jobs from stranding. */
    S2_IGNORES_JEC("S2 ignores the JEC") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe) {
            override fun jecMoved(counters: Long, idle: IdleState) = false
        }
    },

    /**
     * S4 skipped: a sleeper blocks without its final look at the queues. With the JEC intact this loses a job only
     * after the JEC wrapped between S1 and S2 (Rayon's reason for the check), which no test reaches.
     */
    S4_SKIPPED("S4 skipped") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe) {
            override fun finalCheck(worker: IdleContext) = false
        }
    },

    /** Both guards of pair A gone. */
    S2_IGNORES_JEC_AND_S4_SKIPPED("S2 ignores the JEC and S4 skipped") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe) {
            override fun jecMoved(counters: Long, idle: IdleState) = false
            override fun finalCheck(worker: IdleContext) = false
        }
    },

    /** The waker un-blocks a sleeper without decrementing the sleeping count. */
    WAKER_DOES_NOT_DECREMENT("the waker's decrement skipped") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe) {
            override fun unCountWoken() = Unit
        }
    },

    /** A latch set on a sleeping owner does not wake it. */
    LATCH_SET_DOES_NOT_WAKE("the setter does not wake the owner") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe), Releases {
            override fun notifyWorkerLatchIsSet(owner: Int) = Unit

            override fun release(owner: Int) = super.notifyWorkerLatchIsSet(owner)
        }
    },

    /** E2 skipped: a worker leaving the idle state with jobs still queued wakes no sleeper for them. */
    E2_SKIPPED("E2 skipped") {
        override fun sleep(threads: Int, probe: PoolProbe) = object : JecSleep(threads, probe) {
            override fun handOff() = Unit
        }
    },

    /** A retiring worker leaves without R2, its last look at the queues and the timers. */
    R2_SKIPPED("no last look before leaving") {
        override fun registry(settings: EngineSettings): Registry = object : Registry(settings) {
            override fun workLeftAtRetirement() = false
        }
    },

    /** R2 looks at the queues only: the watcher of a far timer retires, and the timer never fires. */
    R2_IGNORES_TIMERS("the last look ignores pending timers") {
        override fun registry(settings: EngineSettings): Registry = object : Registry(settings) {
            override fun workLeftAtRetirement() = hasQueuedJobs()
        }
    },

    /** A timer nobody watches only wakes a sleeper (no P3): scheduled after the last worker retired, it never fires. */
    TIMER_POST_WITHOUT_P3("a timer wakes sleepers only") {
        override fun registry(settings: EngineSettings): Registry = object : Registry(settings) {
            override fun postUnwatchedTimer() {
                sleep.wakeAnyThreads(1)
            }
        }
    },

    /** close() neither waits for submissions in flight (C2) nor brings back a worker for what they queued (C3). */
    CLOSE_WITHOUT_C2_C3("close neither waits nor hands off") {
        override fun registry(settings: EngineSettings): Registry = object : Registry(settings) {
            override fun handOffAfterStop() = Unit
        }
    },

    /** The owner takes the last job without the CAS on `top` that decides it against a thief. */
    POP_LAST_WITHOUT_CAS("pop without the CAS") {
        override fun deque(): WorkDeque = object : WorkDeque() {
            override fun takeLast(top: Long) = true
        }
    };

    open fun sleep(threads: Int, probe: PoolProbe): JecSleep = JecSleep(threads, probe)

    open fun deque(): WorkDeque = WorkDeque()

    open fun registry(settings: EngineSettings): Registry = Registry(settings)

    /** A pool of this variant. */
    fun pool(name: String, threads: Int, keepAliveNanos: Long, maxHelpDepth: Int): Registry {
        val variant = this
        val parts = object : EngineParts() {
            override fun sleep(threads: Int, probe: PoolProbe) = variant.sleep(threads, probe)
            override fun deque() = variant.deque()
        }
        return registry(EngineSettings(name, threads, keepAliveNanos = keepAliveNanos, maxHelpDepth = maxHelpDepth, parts = parts))
    }
}

/**
 * A broken protocol that can still wake its owners the correct way, for the cleanup after a race caught it: a worker
 * blocked on a set latch past the stack bound is woken by nothing else (posts never wake such a worker).
 */
internal interface Releases {
    fun release(owner: Int)
}
