package dev.forage.coroutines

import dev.forage.ForageTaskDecorator
import dev.forage.ForagePoolBuilder
import dev.forage.PoolBuilderView
import dev.forage.QueueFullPolicy
import dev.forage.SleepProtocol
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldNotContain
import io.kotest.matchers.types.shouldBeSameInstanceAs
import kotlinx.coroutines.withContext
import kotlin.time.Duration
import kotlin.time.Duration.Companion.microseconds
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds

/**
 * `forageDispatcher { }` offers what `ForagePool.builder()` offers: each Kotlin setting reaches the Java builder,
 * and each bad value is refused when it is set, by the Java builder's own check.
 */
class BuilderParitySpec : FunSpec({
    test("every setting reaches the Java builder") {
        val decorator = ForageTaskDecorator { it }
        val handler = Thread.UncaughtExceptionHandler { _, _ -> }
        val b = ForageDispatcherBuilder().apply {
            threads = 3
            name = "parity"
            daemon = false
            maxBlockingThreads = 7
            maxParallelism = 5
            blockingKeepAlive = 5.seconds
            keepAlive = 2.seconds
            blockingDetection = 50.milliseconds
            longJobThreshold = 5.milliseconds
            taskDecorator = decorator
            queueWaitSampling = false
            uncaughtExceptionHandler = handler
            ioWorkers = true
            ioTakeover = 2.milliseconds
            sleepProtocol = SleepProtocol.JEC
            queueCapacity = 1_000
            whenQueueFull = QueueFullPolicy.CALLER_RUNS
        }
        val java = PoolBuilderView(b.poolBuilder())
        java.threads shouldBe 3
        java.name shouldBe "parity"
        java.daemon shouldBe false
        java.maxBlockingThreads shouldBe 7
        java.maxParallelism shouldBe 5
        java.blockingKeepAliveNanos shouldBe 5_000_000_000L
        java.keepAliveNanos shouldBe 2_000_000_000L
        java.blockedJobMillis shouldBe 50L
        java.longJobMillis shouldBe 5L
        java.taskDecorator shouldBeSameInstanceAs decorator
        java.queueWaitSampling shouldBe false
        java.handler shouldBeSameInstanceAs handler
        java.ioWorkers shouldBe true
        java.ioTakeoverMillis shouldBe 2L
        java.queueCapacity shouldBe 1_000
        java.queueFullPolicy shouldBe QueueFullPolicy.CALLER_RUNS
        val started = mutableListOf<Thread>()
        val hooked = PoolBuilderView(ForageDispatcherBuilder().apply { onThreadStart = { started += it } }.poolBuilder())
        hooked.onThreadStart!!.run(Thread.currentThread())
        started shouldBe listOf(Thread.currentThread())
        hooked.onThreadStop shouldBe null
        PoolBuilderView(ForageDispatcherBuilder().apply { sleepProtocol = SleepProtocol.RAYON_PRE_RFC5 }.poolBuilder())
            .sleepProtocol shouldBe SleepProtocol.RAYON_PRE_RFC5
        PoolBuilderView(ForageDispatcherBuilder().apply { blockingDetection = Duration.ZERO }.poolBuilder())
            .blockedJobMillis shouldBe 0L
        PoolBuilderView(ForageDispatcherBuilder().poolBuilder()).queueWaitSampling shouldBe true
        PoolBuilderView(ForageDispatcherBuilder().apply { ioWorkers = true }.poolBuilder())
            .ioTakeoverMillis shouldBe 0L
    }

    test("the decorator wraps the dispatches of a coroutine") {
        val mark = ThreadLocal<String>()
        forageDispatcher {
            threads = 2
            taskDecorator = ForageTaskDecorator { task ->
                Runnable {
                    mark.set("decorated")
                    try {
                        task.run()
                    } finally {
                        mark.remove()
                    }
                }
            }
        }.use { d ->
            withWatchdog { withContext(d) { mark.get() } } shouldBe "decorated"
        }
    }

    test("bad values are refused when set, with what is allowed") {
        val b = ForageDispatcherBuilder()
        shouldThrow<IllegalArgumentException> { b.threads = 0 }.message.let {
            it shouldContain "threads must be between 1 and"
            it shouldContain "a dispatcher needs worker threads"
            it shouldNotContain "singleThreaded()" // the Java builder's advice; the Kotlin builder has no such call
        }
        shouldThrow<IllegalArgumentException> { b.maxBlockingThreads = -1 }.message shouldContain
            "maxBlockingThreads must be between 0 and"
        shouldThrow<IllegalArgumentException> { b.maxParallelism = 0 }.message shouldContain
            "maxParallelism must be between 1 and"
        // A Duration is quoted as Kotlin prints it, not as the Java builder's (time, TimeUnit).
        shouldThrow<IllegalArgumentException> { b.blockingKeepAlive = 500.microseconds }.message shouldBe
            "blockingKeepAlive must be at least 1 ms, was 500us"
        shouldThrow<IllegalArgumentException> { b.blockingDetection = 1500.microseconds }.message shouldBe
            "blockingDetection must be a whole number of milliseconds from 0 (off) to 60000 ms, was 1.5ms"
        shouldThrow<IllegalArgumentException> { b.blockingDetection = 61.seconds }.message shouldContain
            "was 1m 1s"
        shouldThrow<IllegalArgumentException> { b.ioTakeover = 1500.microseconds }.message shouldBe
            "ioTakeover must be a whole number of milliseconds from 0 (off) to 60000 ms, was 1.5ms"
        shouldThrow<IllegalArgumentException> {
            ForageDispatcherBuilder().apply { ioTakeover = 1.milliseconds }.poolBuilder()
        }.message shouldBe "ioTakeover applies to IO workers; set ioWorkers = true as well, or leave ioTakeover unset"
        shouldThrow<IllegalArgumentException> { b.longJobThreshold = (-1).milliseconds }.message shouldContain
            "longJobThreshold must be a whole number of milliseconds"
        shouldThrow<IllegalArgumentException> { b.taskDecorator = null }.message shouldContain "must not be null"
        shouldThrow<IllegalArgumentException> { b.queueCapacity = 0 }.message shouldContain
            "queueCapacity must be from 1 to 4194304 (2^22) jobs, was 0"
        // Nothing refused was kept.
        val java = PoolBuilderView(b.poolBuilder())
        java.maxBlockingThreads shouldBe -1
        java.maxParallelism shouldBe 0
        java.blockedJobMillis shouldBe 10L // the default
        java.queueCapacity shouldBe ForagePoolBuilder.MAX_QUEUE_CAPACITY
    }
})
