package dev.forage

// Test-only views of package-private pool state (this file is in package dev.forage for that reason).

/** Timers in the pool's timer queue right now: pending, neither fired nor cancelled. */
internal fun ForagePool.timerQueueSize(): Int = registry().timers.size()

/** Whether a sleeping worker holds the pool's timer watch now. */
internal fun ForagePool.timerWatched(): Boolean = registry().timers.watcher() != TimerQueue.NO_WATCHER
