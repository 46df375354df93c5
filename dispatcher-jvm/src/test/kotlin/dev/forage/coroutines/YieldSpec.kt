package dev.forage.coroutines

import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.ints.shouldBeGreaterThanOrEqual
import io.kotest.matchers.ints.shouldBeLessThanOrEqual
import io.kotest.matchers.shouldBe
import java.util.Collections
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicIntegerArray
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

/** The longest run of equal consecutive elements. */
private fun <T> longestRun(items: List<T>): Int {
    var longest = 0
    var run = 0
    for (i in items.indices) {
        run = if (i > 0 && items[i] == items[i - 1]) run + 1 else 1
        longest = maxOf(longest, run)
    }
    return longest
}

class YieldSpec : FunSpec({
    test("two coroutines on a one-thread dispatcher alternate at every yield (launched from outside)") {
        testDispatcher(1, "yield-outside").use { d ->
            withWatchdog {
                val trace = yieldTrace(d.pool, d, listOf('A', 'B'), rounds = 100) // A queued before B
                trace.size shouldBe 200
                // A yield that re-queued on top of the worker's own deque (LIFO) would give runs of 100.
                longestRun(trace) shouldBeLessThanOrEqual 2
            }
        }
    }

    test("coroutines launched from the worker itself also alternate at every yield") {
        testDispatcher(1, "yield-inside").use { d ->
            withWatchdog {
                val trace = Collections.synchronizedList(mutableListOf<Int>())
                withContext(d) {
                    repeat(4) { id ->
                        launch {
                            repeat(50) {
                                trace += id
                                yield()
                            }
                        }
                    }
                }
                trace.size shouldBe 200
                longestRun(trace) shouldBeLessThanOrEqual 2
            }
        }
    }

    test("a yield() loop lets a coroutine queued behind it run at once on a one-thread dispatcher") {
        testDispatcher(1, "yield-spin").use { d ->
            withWatchdog {
                val released = AtomicBoolean()
                var spins = 0 // only touched by the one worker; read after join
                val gate = holdAllWorkers(d.pool) // the spinner is queued before the releaser
                val spinner = launch(d) {
                    while (!released.get()) {
                        spins++
                        yield()
                    }
                }
                val releaser = launch(d) { released.set(true) }
                gate.countDown()
                joinAll(spinner, releaser)
                // A fair yield goes behind the releaser: one spin. An unfair one (own deque, LIFO) spins until the
                // pool's periodic fairness check finally looks at the injector, about 60 spins later.
                spins shouldBe 1
            }
        }
    }

    test("with more coroutines than threads, everyone progresses between yields") {
        testDispatcher(2, "yield-many").use { d ->
            withWatchdog {
                val coroutines = 8
                val rounds = 50
                val progress = AtomicIntegerArray(coroutines)
                var progressAtFirstFinish = IntArray(0) // guarded by `progress`; read after joinAll
                val gate = holdAllWorkers(d.pool) // all eight start queued
                val jobs = (0 until coroutines).map { id ->
                    launch(d) {
                        repeat(rounds) {
                            progress.incrementAndGet(id)
                            yield()
                        }
                        synchronized(progress) {
                            if (progressAtFirstFinish.isEmpty()) {
                                progressAtFirstFinish = IntArray(coroutines) { progress.get(it) }.sortedArray()
                            }
                        }
                    }
                }
                gate.countDown()
                jobs.joinAll()
                // Fair yields keep all eight within a few rounds of each other; an unfair one (LIFO) lets one
                // coroutine per worker finish all 50 rounds before the others start. One straggler is allowed: on
                // this shared 2-core machine the OS can deschedule the other worker for milliseconds while it runs
                // a coroutine, which no scheduler can take from it (this failed about 1 run in 10 before).
                progressAtFirstFinish[1] shouldBeGreaterThanOrEqual rounds / 2
            }
        }
    }
})
