package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.ForagePoolBuilder
import dev.forage.ForageTaskDecorator
import dev.forage.ForageThreadHook
import dev.forage.QueueFullPolicy
import dev.forage.SleepProtocol
import java.lang.reflect.InvocationTargetException
import java.lang.reflect.Method
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit

/**
 * A dispatcher over a new private pool, configured by [configure]; closing the dispatcher closes the pool. Every
 * setting is checked when it is set.
 * ```
 * val compute = forageDispatcher {
 *     threads = 4              // default: available processors
 *     name = "compute"         // threads compute-worker-0 .. compute-worker-3
 * }
 * compute.use { runBlocking(it) { work() } }
 * ```
 * From Java: `ForageDispatcher.from(ForagePool.builder().threads(4).name("compute").build())`.
 */
public actual fun forageDispatcher(configure: ForageDispatcherBuilder.() -> Unit): ForageDispatcher {
    val builder = ForageDispatcherBuilder()
    builder.configure()
    return ForageDispatcher.from(builder.buildPool())
}

/**
 * The settings of [forageDispatcher]'s private pool; the same as [ForagePoolBuilder]'s, checked at once with the
 * same messages.
 * ```
 * forageDispatcher {
 *     threads = 8
 *     name = "render"
 *     daemon = false
 *     uncaughtExceptionHandler = Thread.UncaughtExceptionHandler { t, e -> log.error("on ${t.name}", e) }
 * }
 * ```
 */
public actual class ForageDispatcherBuilder internal constructor() {
    /**
     * Worker threads, from 1 to [ForagePoolBuilder.MAX_THREADS]; default: available processors. A dispatcher needs
     * threads: the Java builder's `singleThreaded()` pool runs jobs only on threads that wait in it, and a
     * coroutine suspends instead of waiting, so a dispatcher over such a pool would run nothing.
     */
    public actual var threads: Int = Runtime.getRuntime().availableProcessors()
        set(value) {
            require(value >= 1 && value <= ForagePoolBuilder.MAX_THREADS) {
                "threads must be between 1 and ${ForagePoolBuilder.MAX_THREADS}, was $value" +
                    if (value == 0) {
                        "; a dispatcher needs worker threads (a single-threaded pool runs jobs only on threads " +
                            "that wait in it, which a suspended coroutine never does)"
                    } else {
                        ""
                    }
            }
            field = value
        }

    /** The pool's name, the prefix of its threads' names (`name-worker-N`); default `forage-K`. */
    public actual var name: String? = null
        set(value) {
            requireNotNull(value) { "name must not be null; leave it unset for the default forage-K" }
            ForagePool.builder().name(value)
            field = value
        }

    /**
     * IO workers: each worker owns a NIO selector and sleeps in it, so that coroutines on this dispatcher can use
     * [readSuspending], [writeSuspending], [acceptSuspending] and [connectSuspending], and the worker that sees a
     * socket ready resumes the coroutine on its own queue. Default false. See [dev.forage.ForagePoolBuilder.ioWorkers].
     * ```
     * forageDispatcher { ioWorkers = true; name = "server" }.use { server -> ... }
     * ```
     */
    public var ioWorkers: Boolean = false

    /** Whether the workers are daemon threads (they do not keep the JVM alive); default true, like `Dispatchers.Default`. */
    public var daemon: Boolean = true

    /**
     * Creates the worker threads (then their names and daemon flag are the factory's choice); default: the pool
     * makes its own. See [ForagePoolBuilder.threadFactory].
     */
    public var threadFactory: ThreadFactory? = null
        set(value) {
            requireNotNull(value) { "threadFactory must not be null; leave it unset for the pool's own threads" }
            field = value
        }

    /**
     * Receives the uncaught exceptions of coroutines without a `CoroutineExceptionHandler` and of plain jobs;
     * default: the worker thread's own handler (the JVM's default handler, which prints the stack trace).
     */
    public var uncaughtExceptionHandler: Thread.UncaughtExceptionHandler? = null
        set(value) {
            requireNotNull(value) { "uncaughtExceptionHandler must not be null; leave it unset for the default" }
            field = value
        }

    /**
     * The most worker threads `pool.setParallelism(n)` may give the pool later, from [threads] up; null (the
     * default) for [threads]. See [ForagePoolBuilder.maxParallelism].
     * ```
     * forageDispatcher { threads = 4; maxParallelism = 16 }.use { d -> d.pool.setParallelism(8) }
     * ```
     */
    public var maxParallelism: Int? = null
        set(value) {
            value?.let { ForagePool.builder().maxParallelism(it) }
            field = value
        }

    /**
     * The parallelism of [ForageDispatcher.blocking], and the most threads that stand in for workers blocked in it
     * at once; null (the default) for 64 or [threads], whichever is larger, as for `Dispatchers.IO`. See
     * [ForagePoolBuilder.maxBlockingThreads].
     */
    public var maxBlockingThreads: Int? = null
        set(value) {
            value?.let { ForagePool.builder().maxBlockingThreads(it) }
            field = value
        }

    /**
     * How long a thread that stood in for a blocked worker waits for the next blocking call before it ends;
     * default 60 seconds. See [ForagePoolBuilder.blockingKeepAlive].
     */
    public var blockingKeepAlive: kotlin.time.Duration = kotlin.time.Duration.parse("60s")
        set(value) {
            inLargestUnit(value) { time, unit -> ForagePool.builder().blockingKeepAlive(time, unit) }
            field = value
        }

    /**
     * How long a worker thread stays idle before it ends; default 60 seconds, as `Dispatchers.Default`'s workers.
     * The next coroutine dispatched to the pool starts it again. [kotlin.time.Duration.INFINITE] keeps idle threads
     * until the pool closes. See [ForagePoolBuilder.keepAlive].
     * ```
     * forageDispatcher { keepAlive = 10.seconds }
     * ```
     */
    public var keepAlive: kotlin.time.Duration = kotlin.time.Duration.parse("60s")
        set(value) {
            require(value == kotlin.time.Duration.INFINITE || value.inWholeMilliseconds >= 1) {
                "keepAlive must be at least 1 ms or Duration.INFINITE (keep idle workers forever), was $value"
            }
            field = value
        }

    /**
     * Blocking calls without `ForageBlocking`: a worker that stays this long in one job without running (a
     * `Thread.sleep`, a lock, a blocking read, a nested `future.get()`) gets a stand-in thread once a job queues
     * behind it. Whole milliseconds; null (the default) leaves it to the system property `forage.blockedJobMillis`,
     * which is 10 ms unless set. [kotlin.time.Duration.ZERO] turns detection off. See
     * [ForagePoolBuilder.blockingDetection].
     * ```
     * forageDispatcher { blockingDetection = 50.milliseconds }
     * ```
     */
    public var blockingDetection: kotlin.time.Duration? = null
        set(value) {
            requireNotNull(value) { "blockingDetection must not be null; leave it unset for the default 10 ms" }
            inLargestUnit(value) { time, unit -> ForagePool.builder().blockingDetection(time, unit) }
            field = value
        }

    /**
     * Wraps every task dispatched to the pool (each launch and each resumption), on the dispatching thread,
     * before it is queued, as Spring's `TaskDecorator` does; its contract: [dev.forage.ForageTaskDecorator];
     * default: none. It captures the dispatching thread's context, not the coroutine's: for an MDC or a tracing
     * context that follows a coroutine, use kotlinx's context elements (`MDCContext`, OpenTelemetry's
     * `asContextElement()`).
     * ```
     * forageDispatcher {
     *     taskDecorator = ForageTaskDecorator { task -> Context.current().wrap(task) } // OpenTelemetry
     * }
     * ```
     */
    public var taskDecorator: ForageTaskDecorator? = null
        set(value) {
            requireNotNull(value) { "taskDecorator must not be null; leave it unset to queue tasks as dispatched" }
            field = value
        }

    /**
     * Whether the pool times how long dispatched tasks wait before they start (`statistics().queueWait()`, the
     * `forage.pool.queue.wait` meters, the `dev.forage.QueueWait` JFR event). Default true: one dispatch in 64 is
     * timed, which costs the others a decrement of the dispatching worker's countdown (a random number from another
     * thread); false queues every dispatch with no test for sampling
     * and leaves the histogram empty. See [ForagePoolBuilder.queueWaitSampling].
     * ```
     * forageDispatcher { queueWaitSampling = false }
     * ```
     */
    public var queueWaitSampling: Boolean = true

    /**
     * A job that runs at least this long is reported as a `dev.forage.LongJob` JFR event while a recording enables
     * it; null (the default) for 100 ms or the system property `forage.jfr.longJobMillis`. A whole number of
     * milliseconds. See [ForagePoolBuilder.longJobThreshold].
     * ```
     * forageDispatcher { name = "requests"; longJobThreshold = 5.milliseconds }
     * ```
     */
    public var longJobThreshold: kotlin.time.Duration? = null
        set(value) {
            requireNotNull(value) { "longJobThreshold must not be null; leave it unset for the default 100 ms" }
            inLargestUnit(value) { time, unit -> ForagePool.builder().longJobThreshold(time, unit) }
            field = value
        }

    /**
     * Runs on each thread of the pool as it starts, before its first job (workers, again after a retirement, and
     * stand-ins of blocking sections); default: nothing. See [dev.forage.ForageThreadHook].
     * ```
     * forageDispatcher { onThreadStart = { thread -> Tracing.attach(thread.name) } }
     * ```
     */
    public var onThreadStart: ((Thread) -> Unit)? = null
        set(value) {
            requireNotNull(value) { "onThreadStart must not be null; leave it unset to run nothing" }
            field = value
        }

    /**
     * Runs on each thread of the pool as it ends, after its last job and before the pool counts it ended; default:
     * nothing. See [dev.forage.ForageThreadHook].
     */
    public var onThreadStop: ((Thread) -> Unit)? = null
        set(value) {
            requireNotNull(value) { "onThreadStop must not be null; leave it unset to run nothing" }
            field = value
        }

    /**
     * The most jobs that wait in the pool's queue for a worker; default and maximum 2^22
     * ([ForagePoolBuilder.MAX_QUEUE_CAPACITY]). A dispatch to a full queue cancels its coroutine (as after close),
     * whatever [whenQueueFull] says: a dispatcher never runs its block on the dispatching thread. See
     * [ForagePoolBuilder.queueCapacity].
     * ```
     * forageDispatcher { queueCapacity = 10_000; whenQueueFull = QueueFullPolicy.CALLER_RUNS }
     * ```
     */
    public var queueCapacity: Int = ForagePoolBuilder.MAX_QUEUE_CAPACITY
        set(value) {
            ForagePool.builder().queueCapacity(value)
            field = value
        }

    /**
     * What [dev.forage.ForagePool.execute] from outside the pool does when the queue is full (for Java code handed
     * `dispatcher.pool` or `dispatcher.executor`); default [QueueFullPolicy.REJECT]. See
     * [ForagePoolBuilder.whenQueueFull].
     */
    public var whenQueueFull: QueueFullPolicy = QueueFullPolicy.REJECT

    /**
     * How idle workers sleep and wake; default [SleepProtocol.JEC], the production protocol. The others are
     * baselines to measure against. See [ForagePoolBuilder.sleepProtocol].
     */
    public var sleepProtocol: SleepProtocol = SleepProtocol.JEC

    /**
     * IO workers only: how long a worker may leave its channels unwatched (it runs a long job, or the OS
     * descheduled it) before another IO worker, idle or between jobs, serves them. Whole milliseconds; null (the
     * default) leaves it to the system property `forage.io.takeoverMillis`, which is 0 (off) unless set: a channel
     * then waits for its own worker, as on Netty's event loops. Worth it when handlers run jobs of milliseconds on
     * the IO workers; it costs wake-ups otherwise. See [ForagePoolBuilder.ioTakeover].
     * ```
     * forageDispatcher { ioWorkers = true; ioTakeover = 1.milliseconds }
     * ```
     */
    public var ioTakeover: kotlin.time.Duration? = null
        set(value) {
            requireNotNull(value) { "ioTakeover must not be null; leave it unset for the default (off)" }
            inLargestUnit(value) { time, unit -> ForagePool.builder().ioWorkers().ioTakeover(time, unit) }
            field = value
        }

    internal fun buildPool(): ForagePool = poolBuilder().build()

    /** The Java builder these settings make; tests compare it setting by setting. */
    internal fun poolBuilder(): ForagePoolBuilder {
        val builder = ForagePool.builder().threads(threads).daemon(daemon)
        maxBlockingThreads?.let { builder.maxBlockingThreads(it) }
        maxParallelism?.let { builder.maxParallelism(it) }
        builder.blockingKeepAlive(blockingKeepAlive.inWholeNanoseconds, TimeUnit.NANOSECONDS)
        if (keepAlive == kotlin.time.Duration.INFINITE) {
            builder.keepAliveForever()
        } else {
            builder.keepAlive(keepAlive.inWholeNanoseconds, TimeUnit.NANOSECONDS)
        }
        blockingDetection?.let { builder.blockingDetection(it.inWholeNanoseconds, TimeUnit.NANOSECONDS) }
        longJobThreshold?.let { builder.longJobThreshold(it.inWholeNanoseconds, TimeUnit.NANOSECONDS) }
        taskDecorator?.let { builder.taskDecorator(it) }
        builder.queueWaitSampling(queueWaitSampling)
        onThreadStart?.let { hook -> builder.onThreadStart(ForageThreadHook { hook(it) }) }
        onThreadStop?.let { hook -> builder.onThreadStop(ForageThreadHook { hook(it) }) }
        builder.sleepProtocol(sleepProtocol)
        builder.queueCapacity(queueCapacity).whenQueueFull(whenQueueFull)
        if (ioWorkers) builder.ioWorkers()
        ioTakeover?.let {
            require(ioWorkers) {
                "ioTakeover applies to IO workers; set ioWorkers = true as well, or leave ioTakeover unset"
            }
            builder.ioTakeover(it.inWholeNanoseconds, TimeUnit.NANOSECONDS)
        }
        name?.let { builder.name(it) }
        threadFactory?.let { builder.threadFactory(it) }
        uncaughtExceptionHandler?.let { setUncaughtExceptionHandler(builder, it) }
        return builder
    }

    private companion object {
        /**
         * Hands [value] to a Java builder setting in the largest unit that holds it exactly: the Java check is the
         * one owner of each range. Its refusal quotes the value as Java wrote it (`1500 MICROSECONDS`); the DSL's
         * user wrote a Duration, so the message is given back with the Duration as Kotlin prints it (`1.5ms`).
         */
        inline fun inLargestUnit(value: kotlin.time.Duration, set: (Long, TimeUnit) -> Unit) {
            val nanos = value.inWholeNanoseconds
            val (time, unit) = when {
                nanos % 1_000_000L == 0L -> nanos / 1_000_000L to TimeUnit.MILLISECONDS
                nanos % 1_000L == 0L -> nanos / 1_000L to TimeUnit.MICROSECONDS
                else -> nanos to TimeUnit.NANOSECONDS
            }
            try {
                set(time, unit)
            } catch (e: IllegalArgumentException) {
                throw IllegalArgumentException(e.message?.replace("was $time $unit", "was $value"))
            }
        }

        /**
         * [ForagePoolBuilder.uncaughtExceptionHandler], called reflectively: Kotlin 2.2 compiling with
         * `-Xjdk-release=1.8` cannot resolve a nested JDK type (`Thread.UncaughtExceptionHandler`) in a signature
         * of the Java sources it compiles alongside ("Cannot access class 'UncaughtExceptionHandler'"), so a direct
         * call does not compile. The method is public API and its name is checked here once.
         */
        private val SET_HANDLER: Method = ForagePoolBuilder::class.java
            .getMethod("uncaughtExceptionHandler", Thread.UncaughtExceptionHandler::class.java)

        fun setUncaughtExceptionHandler(builder: ForagePoolBuilder, handler: Thread.UncaughtExceptionHandler) {
            try {
                SET_HANDLER.invoke(builder, handler)
            } catch (e: InvocationTargetException) {
                throw e.targetException
            }
        }
    }
}
