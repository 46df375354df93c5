package dev.forage.coroutines

import dev.forage.QueueFullPolicy
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import java.util.concurrent.CountDownLatch
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
            threads = 1
            name = "full-dispatch"
            queueCapacity = 1
            whenQueueFull = QueueFullPolicy.CALLER_RUNS
        }.use { d ->
            val hold = CountDownLatch(1)
            val held = CountDownLatch(1)
            d.pool.execute {
                held.countDown()
                hold.await(60, TimeUnit.SECONDS)
            }
            held.await(60, TimeUnit.SECONDS) shouldBe true
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
            cause.get()!!.message!! shouldContain "queue capacity exceeded"
        }
    }
})
