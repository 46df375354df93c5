package dev.forage.coroutines

import dev.forage.ForagePool
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.assertions.withClue
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.ints.shouldBeGreaterThan
import io.kotest.matchers.shouldBe
import io.kotest.matchers.shouldNotBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldStartWith
import java.util.concurrent.CountDownLatch
import java.util.concurrent.CyclicBarrier
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

private fun blockingTestDispatcher(threads: Int, name: String, maxBlocking: Int? = null): ForageDispatcher =
    forageDispatcher {
        this.threads = threads
        this.name = name
        this.maxBlockingThreads = maxBlocking
    }

private fun CountDownLatch.awaitOrFail() {
    check(await(WATCHDOG_SECONDS, TimeUnit.SECONDS)) { "latch not reached; threads:\n" + threadDump() }
}

class BlockingDispatcherSpec : FunSpec({
    test("switching in from a worker of the pool stays on that worker's thread") {
        // One worker: no other worker can take the block from its deque before it runs it.
        blockingTestDispatcher(1, "same-thread").use { d ->
            withWatchdog {
                val threads = withContext(d) {
                    val before = Thread.currentThread()
                    val inside = withContext(d.blocking) { Thread.currentThread() }
                    before to inside
                }
                threads.second shouldBe threads.first
                withContext(d.blocking) { Thread.currentThread().name } shouldStartWith "same-thread-"
            }
        }
    }

    test("while coroutines block, the pool keeps its running workers") {
        blockingTestDispatcher(2, "keeps-running", maxBlocking = 8).use { d ->
            withWatchdog {
                val entered = CountDownLatch(4)
                val gate = CountDownLatch(1)
                val blockers = (1..4).map {
                    launch(d) {
                        withContext(d.blocking) {
                            entered.countDown()
                            gate.awaitOrFail()
                        }
                    }
                }
                entered.awaitOrFail()
                val s = d.pool.statistics()
                s.blockedWorkers() shouldBe 4
                s.compensatingThreads() shouldBe 4
                // Two coroutines that can only finish together: two running workers besides the four blocked.
                val pair = CyclicBarrier(2)
                (1..2).map { launch(d) { pair.await(WATCHDOG_SECONDS, TimeUnit.SECONDS) } }.joinAll()
                gate.countDown()
                blockers.joinAll()
                pollUntil("stand-ins released") { d.pool.statistics().compensatingThreads() == 0 }
                d.pool.statistics().blockedWorkers() shouldBe 0
            }
        }
    }

    test("at most maxBlockingThreads blocks run at once; a view has its own, independent limit") {
        blockingTestDispatcher(2, "bounded-blocking", maxBlocking = 3).use { d ->
            withWatchdog {
                val running = AtomicInteger()
                val most = AtomicInteger()
                val gate = CountDownLatch(1)
                val three = CountDownLatch(3)
                val twoInView = CountDownLatch(2)
                val view = d.blocking.limitedParallelism(2)
                val jobs = (1..6).map {
                    launch(d.blocking) {
                        most.accumulateAndGet(running.incrementAndGet(), ::maxOf)
                        three.countDown()
                        gate.awaitOrFail()
                        running.decrementAndGet()
                    }
                } + (1..4).map {
                    launch(view) {
                        twoInView.countDown()
                        gate.awaitOrFail()
                    }
                }
                three.awaitOrFail()
                twoInView.awaitOrFail() // the view is not held back by the default executor's three
                running.get() shouldBe 3
                gate.countDown()
                jobs.joinAll()
                most.get() shouldBe 3
            }
        }
    }

    test("a coroutine cancelled while it waits for a blocking slot never runs its block and frees nothing") {
        blockingTestDispatcher(2, "cancel-waiting", maxBlocking = 1).use { d ->
            withWatchdog {
                val holding = CountDownLatch(1)
                val gate = CountDownLatch(1)
                val holder = launch(d.blocking) {
                    holding.countDown()
                    gate.awaitOrFail()
                }
                holding.awaitOrFail()
                val ran = AtomicBoolean()
                val waiting = launch(d.blocking) { ran.set(true) } // queued: the one slot is taken
                waiting.cancel()
                gate.countDown()
                holder.join()
                waiting.join()
                waiting.isCancelled shouldBe true
                ran.get() shouldBe false
                // The slot came back: a later block runs.
                withContext(d.blocking) { 42 } shouldBe 42
            }
        }
    }

    test("nested blocking switches work and leave no worker counted as blocked") {
        blockingTestDispatcher(2, "nested-blocking").use { d ->
            withWatchdog {
                val result = withContext(d) {
                    withContext(d.blocking) {
                        val inner = withContext(d.blocking.limitedParallelism(1)) {
                            withContext(d.blocking) { 20 } + 1
                        }
                        inner * 2
                    }
                }
                result shouldBe 42
                pollUntil("sections left") {
                    d.pool.statistics().let { it.blockedWorkers() == 0 && it.compensatingThreads() == 0 }
                }
            }
        }
    }

    test("closing the pool waits for blocked coroutines, cancels them at their hop back, then every thread has ended") {
        val d = blockingTestDispatcher(2, "close-blocked")
        val finished = AtomicInteger()
        val cancelled = AtomicInteger()
        val otherCancellations = AtomicInteger()
        val gate = CountDownLatch(1)
        val entered = CountDownLatch(3)
        withWatchdog {
            repeat(3) {
                launch(d) {
                    try {
                        withContext(d.blocking) {
                            entered.countDown()
                            gate.awaitOrFail() // the blocking call in progress is waited for
                        }
                        finished.incrementAndGet()
                    } catch (e: CancellationException) {
                        // The hop back to the pool is a dispatch after shutdown: refused, the coroutine cancelled.
                        if (e.message!!.contains("pool close-blocked is shut down")) {
                            cancelled.incrementAndGet()
                        } else {
                            otherCancellations.incrementAndGet()
                        }
                    }
                }
            }
            entered.awaitOrFail()
            d.pool.shutdown()
            d.pool.awaitTermination(0, TimeUnit.SECONDS) shouldBe false
            gate.countDown()
            d.pool.awaitTermination(WATCHDOG_SECONDS, TimeUnit.SECONDS) shouldBe true
        }
        // A coroutine hops back only if it had suspended before its blocking call returned. The worker that hands
        // the call over can be descheduled before it suspends; the call's return then resumes the coroutine where it
        // is (withContext's fast path), with no dispatch to refuse, and it finishes (the likely reading of a CI run
        // that counted 2 cancellations of 3). Every hop back is refused: a pool that accepted them finishes all
        // three, and a cancellation for another reason is counted apart.
        otherCancellations.get() shouldBe 0
        cancelled.get() + finished.get() shouldBe 3
        cancelled.get() shouldBeGreaterThan 0
        liveThreadNames().filter { it.startsWith("close-blocked-") } shouldBe emptyList()
    }

    test("after close, a dispatch from outside cancels the coroutine with a message naming the pool") {
        val d = blockingTestDispatcher(1, "closed-blocking")
        d.close()
        withWatchdog {
            val e = shouldThrow<CancellationException> { withContext(d.blocking) { 1 } }
            e.message shouldContain "closed-blocking"
        }
    }

    test("names, equality, bad limits, and the common blocking dispatcher") {
        blockingTestDispatcher(1, "blocking-api").use { d ->
            d.blocking shouldBe d.blocking
            d.blocking.limitedParallelism(2) shouldNotBe d.blocking
            d.blocking.limitedParallelism(2, "db").toString() shouldBe "db"
            shouldThrow<IllegalArgumentException> { d.blocking.limitedParallelism(0) }.message shouldContain "at least 1"
            d.blocking.pool shouldBe d.pool
        }
        Dispatchers.ForageBlocking.toString() shouldBe "Dispatchers.ForageBlocking"
        withWatchdog {
            withContext(Dispatchers.ForageBlocking) { Thread.currentThread().name } shouldStartWith "forage-common-"
        }
    }

    test("Dispatchers.ForageBlocking on a worker of a private pool blocks on that pool: no hop to the common pool") {
        // One worker, and each call waits until the stand-in of the call before has stopped running jobs: the
        // coroutine starts on the worker, and the block can only run on it (no other thread takes it from its
        // deque). The old route through the common pool ran it on a forage-common thread every time.
        blockingTestDispatcher(1, "follows-caller").use { d ->
            withWatchdog {
                val commonSections = ForagePool.commonPool().statistics().blockingSections()
                repeat(5) { call ->
                    pollUntil("no stand-in runs jobs") { d.pool.statistics().compensatingThreads() == 0 }
                    withContext(d) {
                        val before = Thread.currentThread()
                        val inside = withContext(Dispatchers.ForageBlocking) {
                            Thread.currentThread() to ForagePool.current()
                        }
                        withClue("call $call: before on $before, inside $inside") {
                            inside.first shouldBe before
                            inside.second shouldBe d.pool
                        }
                        // Back on the pool's own deque: its worker, or the stand-in that ran in its place.
                        ForagePool.current() shouldBe d.pool
                        Thread.currentThread().name shouldStartWith "follows-caller-"
                    }
                }
                d.pool.statistics().blockingSections() shouldBe 5
                ForagePool.commonPool().statistics().blockingSections() shouldBe commonSections
            }
        }
    }

    test("Dispatchers.ForageBlocking stays on the common pool from its workers, and from threads of no pool") {
        withWatchdog {
            withContext(Dispatchers.Forage) {
                withContext(Dispatchers.ForageBlocking) { ForagePool.current() } shouldBe ForagePool.commonPool()
                ForagePool.current() shouldBe ForagePool.commonPool()
            }
            withContext(Dispatchers.ForageBlocking) { ForagePool.current() } shouldBe ForagePool.commonPool()
        }
    }

    test("a pool that refuses blocking work sends Dispatchers.ForageBlocking to the common pool, as before") {
        blockingTestDispatcher(1, "no-blocking", maxBlocking = 0).use { d ->
            withWatchdog {
                withContext(d) {
                    withContext(Dispatchers.ForageBlocking) { ForagePool.current() } shouldBe ForagePool.commonPool()
                    ForagePool.current() shouldBe d.pool
                }
            }
        }
    }

    test("the builder's keep-alive ends stand-ins that have nothing to do") {
        forageDispatcher {
            threads = 1
            name = "short-keep-alive"
            blockingKeepAlive = 1.milliseconds
        }.use { d ->
            withWatchdog {
                withContext(d.blocking) { 1 } shouldBe 1
                pollUntil("stand-in ended") { liveThreadNames().none { it.startsWith("short-keep-alive-blocking-") } }
            }
        }
    }
})
