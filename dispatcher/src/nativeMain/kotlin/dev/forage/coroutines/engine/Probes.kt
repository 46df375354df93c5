package dev.forage.coroutines.engine

/**
 * What the sleep protocol may ask of its pool (the Java engine's `PoolProbe`): implemented by [Registry] and handed
 * to [JecSleep] when it is built, so that the protocol reads the queues and the timers without reaching into the
 * registry's parts.
 */
internal interface PoolProbe {
    /**
     * E2's question: a job in the injector or in any deque, or pending timers that no sleeper watches: work that a
     * poster may have left to an idle worker. Atomic reads only; the answer may be stale by the time it returns.
     */
    fun hasUnclaimedWork(): Boolean
}

/**
 * What the sleep protocol needs from the worker going to sleep (the Java engine's `IdleContext`): implemented by
 * [Worker].
 */
internal interface IdleContext {
    /** The worker's index in its pool: its sleep state and its wake-ups are kept under it. */
    val index: Int

    /** S4, the final check after the sleeper was counted: a job in the injector or any deque, or a due timer. */
    fun hasWorkForSleeper(): Boolean

    /**
     * Called under the sleeper's lock just before S5: the deadline to block until (CLOCK_MONOTONIC nanoseconds, or
     * [NO_DEADLINE]): the earliest timer if this worker becomes (or is) the timers' watcher, and its keep-alive in
     * the top-level loop.
     */
    fun sleepDeadline(): Long

    /** After S5, the lock released: the sleep ended, by a waker or by the deadline. */
    fun afterSleep()
}
