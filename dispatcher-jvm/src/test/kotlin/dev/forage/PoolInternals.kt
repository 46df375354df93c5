package dev.forage

// Test-only views of package-private pool state (this file is in package dev.forage for that reason).

/** Timers in the pool's timer queue right now: pending, neither fired nor cancelled. */
internal fun ForagePool.timerQueueSize(): Int = registry().timers.size()

/** Whether a sleeping worker holds the pool's timer watch now. */
internal fun ForagePool.timerWatched(): Boolean = registry().timers.watcher() != TimerQueue.NO_WATCHER

/** The Java builder's settings, as `forageDispatcher { }` would hand them to it (for KotlinBuilderParitySpec). */
internal class PoolBuilderView(private val b: ForagePoolBuilder) {
    val threads: Int get() = b.threads
    val name: String? get() = b.name
    val daemon: Boolean get() = b.daemon
    val maxBlockingThreads: Int get() = b.maxBlockingThreads
    val maxParallelism: Int get() = b.maxParallelism
    val blockingKeepAliveNanos: Long get() = b.blockingKeepAliveNanos
    val keepAliveNanos: Long get() = b.keepAliveNanos
    val ioWorkers: Boolean get() = b.ioWorkers
    val sleepProtocol: SleepProtocol get() = b.sleepProtocol
    val taskDecorator: ForageTaskDecorator? get() = b.taskDecorator
    val handler: Thread.UncaughtExceptionHandler? get() = b.handler
    val onThreadStart: ForageThreadHook? get() = b.onThreadStart
    val onThreadStop: ForageThreadHook? get() = b.onThreadStop
    val queueCapacity: Int get() = b.queueCapacity
    val queueFullPolicy: QueueFullPolicy get() = b.queueFullPolicy
    val longJobMillis: Long get() = b.tuning.get(Tunable.JFR_LONG_JOB_MILLIS)
    val blockedJobMillis: Long get() = b.tuning.get(Tunable.BLOCKED_JOB_MILLIS)
}
