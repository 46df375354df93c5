package dev.forage

// Test-only views of package-private pool state (this file is in package dev.forage for that reason).

/** Timers in the pool's timer queue right now: pending, neither fired nor cancelled. */
internal fun ForagePool.timerQueueSize(): Int = registry().timers.size()

/** Whether a sleeping worker holds the pool's timer watch now. */
internal fun ForagePool.timerWatched(): Boolean = registry().timers.watcher() != TimerQueue.NO_WATCHER

/** The Java builder's settings, as `forageDispatcher { }` would hand them to it (for KotlinBuilderParitySpec). */
internal class PoolBuilderView(private val b: ForagePoolBuilder) {
    val threads: Int get() = b.settings.threads
    val name: String? get() = b.settings.name
    val daemon: Boolean get() = b.settings.daemon
    val maxBlockingThreads: Int get() = b.settings.maxBlockingThreads
    val maxParallelism: Int get() = b.settings.maxParallelism
    val blockingKeepAliveNanos: Long get() = b.settings.blockingKeepAliveNanos
    val keepAliveNanos: Long get() = b.settings.keepAliveNanos
    val ioWorkers: Boolean get() = b.settings.ioWorkers
    val sleepProtocol: SleepProtocol get() = b.settings.sleepProtocol
    val taskDecorator: ForageTaskDecorator? get() = b.settings.taskDecorator
    val queueWaitSampling: Boolean get() = b.settings.queueWaitSampling
    val handler: Thread.UncaughtExceptionHandler? get() = b.settings.handler
    val onThreadStart: ForageThreadHook? get() = b.settings.onThreadStart
    val onThreadStop: ForageThreadHook? get() = b.settings.onThreadStop
    val queueCapacity: Int get() = b.settings.queueCapacity
    val queueFullPolicy: QueueFullPolicy get() = b.settings.queueFullPolicy
    val longJobMillis: Long get() = b.settings.tuning.get(Tunable.JFR_LONG_JOB_MILLIS)
    val blockedJobMillis: Long get() = b.settings.tuning.get(Tunable.BLOCKED_JOB_MILLIS)
    val ioTakeoverMillis: Long get() = b.settings.tuning.get(Tunable.IO_TAKEOVER_MILLIS)
}
