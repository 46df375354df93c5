package dev.forage.coroutines

import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.ints.shouldBeLessThanOrEqual
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldStartWith
import io.kotest.matchers.types.shouldBeSameInstanceAs
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.delay
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

/**
 * Runs [tasks] coroutines on [view]; each records how many run at once. The first [limit] meet at a latch, which
 * only opens when [limit] run together. Returns the most that ever ran at once.
 */
private suspend fun kotlinx.coroutines.CoroutineScope.maxConcurrency(
    view: CoroutineDispatcher,
    limit: Int,
    tasks: Int,
    suspendInside: Boolean,
): Int {
    val running = AtomicInteger()
    val maxRunning = AtomicInteger()
    val reached = CountDownLatch(limit)
    val notReached = AtomicBoolean()
    (0 until tasks).map {
        launch(view) {
            if (suspendInside) {
                delay(1) // resumed by the pool's timer: must come back through the view
            }
            val now = running.incrementAndGet()
            maxRunning.accumulateAndGet(now, ::maxOf)
            reached.countDown()
            if (!reached.await(WATCHDOG_SECONDS, TimeUnit.SECONDS)) {
                notReached.set(true)
            }
            repeat(100) { Thread.yield() } // stay a little, so that an unbounded view would overlap
            running.decrementAndGet()
        }
    }.joinAll()
    notReached.get() shouldBe false
    return maxRunning.get()
}

class LimitedParallelismSpec : FunSpec({
    test("a limit that covers the pool returns the dispatcher itself, or a view carrying the name") {
        testDispatcher(3, "covering").use { d ->
            d.limitedParallelism(3) shouldBeSameInstanceAs d
            d.limitedParallelism(100) shouldBeSameInstanceAs d
            val named = d.limitedParallelism(3, "named-view")
            named.toString() shouldBe "named-view"
            withWatchdog {
                withContext(named) { Thread.currentThread().name } shouldStartWith "covering-worker-"
            }
        }
    }

    test("a limit below the pool's maximum stays a limit after the pool grows") {
        forageDispatcher { threads = 2; maxParallelism = 4; name = "resized" }.use { d ->
            val view = d.limitedParallelism(2)
            (view === d) shouldBe false // the pool may have 4 threads later: a covering check against 2 would lapse
            d.limitedParallelism(4) shouldBeSameInstanceAs d
            d.pool.setParallelism(4) shouldBe 2
            withWatchdog {
                maxConcurrency(view, 2, tasks = 200, suspendInside = false) shouldBe 2
            }
        }
    }

    test("a limit below 1 is rejected with a clear message") {
        testDispatcher(2, "bad-limit").use { d ->
            shouldThrow<IllegalArgumentException> { d.limitedParallelism(0) }.message shouldContain "at least 1, was 0"
            shouldThrow<IllegalArgumentException> { d.limitedParallelism(-3) }.message shouldContain "was -3"
            shouldThrow<IllegalArgumentException> { d.limitedParallelism(1).limitedParallelism(0) }
        }
    }

    test("a view never runs more than n at once, and reaches n") {
        testDispatcher(4, "bounded").use { d ->
            withWatchdog {
                for (n in 1..3) {
                    maxConcurrency(d.limitedParallelism(n), n, tasks = 200, suspendInside = false) shouldBe n
                }
            }
        }
    }

    test("the bound holds for coroutines resumed by the pool's timers") {
        testDispatcher(4, "bounded-delay").use { d ->
            withWatchdog {
                maxConcurrency(d.limitedParallelism(2), 2, tasks = 200, suspendInside = true) shouldBe 2
            }
        }
    }

    test("a view of a view is bounded by the smaller limit") {
        testDispatcher(4, "nested").use { d ->
            withWatchdog {
                val outer = d.limitedParallelism(3)
                outer.limitedParallelism(5) shouldBeSameInstanceAs outer
                maxConcurrency(outer.limitedParallelism(2), 2, tasks = 100, suspendInside = false) shouldBe 2
            }
        }
    }

    test("a view runs its tasks in dispatch order") {
        testDispatcher(2, "fifo-view").use { d ->
            withWatchdog {
                val view = d.limitedParallelism(1)
                val order = Collections.synchronizedList(mutableListOf<Int>())
                (0 until 1000).map { i -> launch(view) { order += i } }.joinAll()
                order shouldBe (0 until 1000).toList()
            }
        }
    }

    test("a busy view yields the thread to other work after a few tasks") {
        testDispatcher(2, "fair-view").use { d ->
            withWatchdog {
                // One worker is held, so everything below happens on the other one, in a deterministic order.
                val release = CountDownLatch(1)
                val held = CountDownLatch(1)
                d.pool.execute {
                    held.countDown()
                    release.await()
                }
                held.await()
                val view = d.limitedParallelism(1)
                (view === d) shouldBe false
                val viewTasksRun = AtomicInteger()
                var seenByOther = -1
                withContext(view) {
                    repeat(10_000) { launch { viewTasksRun.incrementAndGet() } }
                    // Queued on this worker's own deque while 10^4 view tasks wait in the view's queue.
                    launch(d) { seenByOther = viewTasksRun.get() }
                }
                release.countDown()
                // The view's loop puts itself at the back of the pool's line after 16 tasks (the body and 15
                // children), so the other coroutine runs next: it sees 15, or 31 when the worker's periodic fairness
                // check happens to take the loop from the injector once more. A loop that re-queued on top of the
                // worker's own deque would run batch after batch until that check picks the other coroutine
                // (about 60 batches).
                seenByOther shouldBeLessThanOrEqual 31
            }
        }
    }

    test("yield inside a one-thread view lets the view's other coroutines run") {
        testDispatcher(2, "yield-view").use { d ->
            withWatchdog {
                val view = d.limitedParallelism(1)
                (view === d) shouldBe false
                // Both wait in the view's queue before it runs.
                val trace = yieldTrace(d.pool, view, listOf('A', 'B'), rounds = 50)
                val switches = trace.zipWithNext().count { (x, y) -> x != y }
                (switches >= 90) shouldBe true
            }
        }
    }
})
