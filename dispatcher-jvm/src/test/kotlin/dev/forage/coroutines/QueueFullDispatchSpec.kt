package dev.forage.coroutines

import dev.forage.QueueFullPolicy
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldNotContain
import io.kotest.matchers.string.shouldStartWith
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executor
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.launch

/**
 * A dispatch never runs its block on the dispatching thread, even over a pool whose outside submitters run their
 * own jobs when its queue is full: the coroutine is refused as over a closed pool, while Java's `execute` on the
 * same pool runs on its caller.
 */
class QueueFullDispatchSpec : FunSpec({
    test("over a full CALLER_RUNS pool, an outside dispatch is cancelled and never runs on its caller") {
        forageDispatcher {
            blockingDetection = kotlin.time.Duration.ZERO // a held worker must stay held: no stand-in
            threads = 1
            name = "full-dispatch"
            queueCapacity = 1
            whenQueueFull = QueueFullPolicy.CALLER_RUNS
        }.use { d ->
            val hold = holdWith(d.pool)
            d.pool.execute { } // the queue's one place
            val javaRanOn = AtomicReference<Thread>()
            d.pool.execute { javaRanOn.set(Thread.currentThread()) }
            javaRanOn.get() shouldBe Thread.currentThread() // Java's execute: the caller runs it

            val bodyRanOn = AtomicReference<Thread>()
            val job: Job = CoroutineScope(d).launch { bodyRanOn.set(Thread.currentThread()) }
            val cause = AtomicReference<Throwable?>()
            job.invokeOnCompletion { cause.set(it) }
            hold.countDown()
            withWatchdog { job.join() }
            job.isCancelled shouldBe true
            bodyRanOn.get() shouldBe null
            cause.get()!!.message!!.let {
                it shouldContain "pool full-dispatch: queue capacity exceeded (queueCapacity 1)"
                // Not the pool's own message, which names kotlinx's continuation and the Java builder's words.
                it shouldNotContain "DispatchedContinuation"
                it shouldNotContain "QueueFullPolicy."
                (it.length <= 300) shouldBe true
            }
        }
    }
    for (policy in QueueFullPolicy.values()) {
        test("$policy: over a full pool, a launch on a limitedParallelism view is cancelled, and no view task leaves the pool") {
            forageDispatcher {
                blockingDetection = kotlin.time.Duration.ZERO // a held worker must stay held: no stand-in
                threads = 1
                name = "full-view-$policy"
                queueCapacity = 1
                whenQueueFull = policy
            }.use { d ->
                val view = d.limitedParallelism(1)
                val hold = holdWith(d.pool)
                val fillerRan = CountDownLatch(1)
                d.pool.execute { fillerRan.countDown() } // the queue's one place

                val bodyRanOn = AtomicReference<Thread>()
                val finallyRanOn = AtomicReference<Thread>()
                val job: Job = CoroutineScope(view).launch {
                    try {
                        bodyRanOn.set(Thread.currentThread())
                    } finally {
                        finallyRanOn.set(Thread.currentThread())
                    }
                }
                val cause = AtomicReference<Throwable?>()
                job.invokeOnCompletion { cause.set(it) }
                hold.countDown()
                withWatchdog(60) { job.join() }
                job.isCancelled shouldBe true
                bodyRanOn.get() shouldBe null
                cause.get()!!.message!! shouldContain "queue capacity exceeded"

                // The view goes on, on the pool's own threads, once the queue has room again. The refused
                // launch finishes on a timer due at once, which the worker may run before it takes the filler
                // off the queue: without this wait the next launch can find the queue still full.
                fillerRan.await(60, TimeUnit.SECONDS) shouldBe true
                val later = AtomicReference<Thread>()
                withWatchdog(60) { CoroutineScope(view).launch { later.set(Thread.currentThread()) }.join() }
                later.get().name shouldStartWith "full-view-$policy"
            }
        }

        test("$policy: the blocking dispatcher's queue holds the pool's capacity; past it a dispatch is cancelled, never run on its caller") {
            forageDispatcher {
                blockingDetection = kotlin.time.Duration.ZERO // a held worker must stay held: no stand-in
                threads = 1
                name = "full-blocking-$policy"
                queueCapacity = 2
                maxBlockingThreads = 1
                whenQueueFull = policy
            }.use { d ->
                val hold = holdWith(d.pool.blockingExecutor())
                val ranOn = java.util.concurrent.CopyOnWriteArrayList<String>()
                val jobs = (0 until 3).map { i ->
                    CoroutineScope(d.blocking).launch { ranOn.add("$i on ${Thread.currentThread().name}") }
                }
                // Two wait in the blocking queue; the third is refused and cancelled.
                pollUntil("the third launch was refused") { jobs[2].isCancelled }
                val cause = AtomicReference<Throwable?>()
                jobs[2].invokeOnCompletion { cause.set(it) }
                hold.countDown()
                withWatchdog(60) { jobs.forEach { it.join() } }
                cause.get()!!.message!! shouldContain "queue capacity exceeded"
                ranOn.size shouldBe 2
                ranOn.forEach { it shouldContain "full-blocking-$policy" }
            }
        }
    }
})

/**
 * Holds the only thread [executor] runs tasks on with a task that waits for the returned latch, and returns once
 * that task runs: what the executor takes next waits in its queue.
 */
private fun holdWith(executor: Executor): CountDownLatch {
    val hold = CountDownLatch(1)
    val held = CountDownLatch(1)
    executor.execute {
        held.countDown()
        hold.await(60, TimeUnit.SECONDS)
    }
    held.await(60, TimeUnit.SECONDS) shouldBe true
    return hold
}
