package dev.forage.coroutines

import dev.forage.ForagePool
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.collections.shouldBeEmpty
import io.kotest.matchers.ints.shouldBeGreaterThanOrEqual
import io.kotest.matchers.longs.shouldBeGreaterThanOrEqual
import io.kotest.matchers.longs.shouldBeLessThan
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldStartWith
import io.kotest.matchers.types.shouldBeSameInstanceAs
import java.util.Collections
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CyclicBarrier
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicIntegerArray
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineExceptionHandler
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

class DispatchSpec : FunSpec({
    test("coroutines run on the pool's worker threads, before and after suspending") {
        testDispatcher(2, "on-pool").use { d ->
            withWatchdog {
                val names = Collections.newSetFromMap(ConcurrentHashMap<String, Boolean>())
                val pools = Collections.newSetFromMap(ConcurrentHashMap<ForagePool?, Boolean>())
                withContext(d) {
                    repeat(200) {
                        launch {
                            names += Thread.currentThread().name
                            pools += ForagePool.current()
                            kotlinx.coroutines.yield()
                            names += Thread.currentThread().name
                            pools += ForagePool.current()
                        }
                    }
                }
                // A worker or the stand-in the monitor may start for a worker that a loaded machine descheduled.
                names.forEach { it shouldStartWith "on-pool-" }
                pools shouldBe setOf(d.pool)
            }
        }
    }

    test("10^5 launched coroutines, from outside and from workers, each complete exactly once") {
        testDispatcher(4, "exactly-once").use { d ->
            withWatchdog {
                val n = if (LONG_STRESS) 1_000_000 else 100_000
                val runs = AtomicIntegerArray(n)
                val outside = (0 until n / 2).map { i -> launch(d) { runs.incrementAndGet(i) } }
                withContext(d) {
                    for (i in n / 2 until n) {
                        launch { runs.incrementAndGet(i) }
                    }
                }
                outside.joinAll()
                val wrong = (0 until n).filter { runs.get(it) != 1 }.take(10).map { it to runs.get(it) }
                wrong.shouldBeEmpty()
            }
        }
    }

    test("dispatch from a worker is an internal job; from outside, an injected job") {
        testDispatcher(2, "job-kinds").use { d ->
            withWatchdog {
                val before = d.pool.statistics().injectedJobs()
                (0 until 1000).map { launch(d) { } }.joinAll()
                val afterOutside = d.pool.statistics().injectedJobs()
                (afterOutside - before) shouldBeGreaterThanOrEqual 1000L
                withContext(d) {
                    repeat(1000) { launch { } }
                }
                // Only entering withContext is injected; its 1000 children went to the worker's own deque.
                (d.pool.statistics().injectedJobs() - afterOutside) shouldBeLessThan 10L
            }
        }
    }

    test("parallelism reaches the thread count and never exceeds it") {
        val threads = 3
        testDispatcher(threads, "parallel").use { d ->
            withWatchdog {
                val barrier = CyclicBarrier(threads)
                val running = AtomicInteger()
                val maxRunning = AtomicInteger()
                val threadsSeen = Collections.newSetFromMap(ConcurrentHashMap<Thread, Boolean>())
                // Launched from outside the pool: a dispatcher that ran blocks inline would add this thread.
                (0 until threads * 20).map {
                    launch(d) {
                        val now = running.incrementAndGet()
                        maxRunning.accumulateAndGet(now, ::maxOf)
                        threadsSeen += Thread.currentThread()
                        // Trips only when `threads` coroutines run at once; a smaller parallelism hangs here.
                        barrier.await(WATCHDOG_SECONDS, TimeUnit.SECONDS)
                        running.decrementAndGet()
                    }
                }.joinAll()
                maxRunning.get() shouldBe threads
                threadsSeen.size shouldBe threads
                threadsSeen.forEach { it.name shouldStartWith "parallel-worker-" }
            }
        }
    }

    test("runBlocking from outside the pool runs its body on the pool and returns its value") {
        testDispatcher(2, "blocking").use { d ->
            withWatchdog {
                val caller = Thread.currentThread()
                val (thread, value) = runBlocking(d) {
                    val inner = withContext(d) { 21 * 2 }
                    Thread.currentThread() to inner
                }
                value shouldBe 42
                (thread === caller) shouldBe false
                thread.name shouldStartWith "blocking-worker-"
            }
        }
    }

    test("a failing child cancels its siblings and the parent sees the exception") {
        testDispatcher(2, "structured").use { d ->
            withWatchdog {
                val siblingStarted = CompletableDeferred<Unit>()
                val siblingFinally = CompletableDeferred<Throwable?>()
                val failure = shouldThrow<IllegalStateException> {
                    withContext(d) {
                        coroutineScope {
                            launch {
                                try {
                                    siblingStarted.complete(Unit)
                                    awaitCancellation()
                                } catch (e: Throwable) {
                                    siblingFinally.complete(e)
                                    throw e
                                }
                            }
                            launch {
                                siblingStarted.await()
                                throw IllegalStateException("child failed")
                            }
                        }
                    }
                }
                failure.message shouldBe "child failed"
                (siblingFinally.await() is kotlinx.coroutines.CancellationException) shouldBe true

                // The same through a parent Job: it is cancelled and its handler gets the child's exception.
                val handled = CompletableDeferred<Throwable>()
                val scope = CoroutineScope(d + Job() + CoroutineExceptionHandler { _, e -> handled.complete(e) })
                val sibling = scope.launch { awaitCancellation() }
                scope.launch { throw IllegalArgumentException("second") }
                sibling.join()
                sibling.isCancelled shouldBe true
                handled.await().message shouldBe "second"
                scope.coroutineContext[Job]!!.isCancelled shouldBe true
            }
        }
    }

    test("an uncaught exception reaches the CoroutineExceptionHandler in the context, on a worker") {
        testDispatcher(1, "with-handler").use { d ->
            withWatchdog {
                val handled = CompletableDeferred<Pair<String, Throwable>>()
                val handler = CoroutineExceptionHandler { _, e -> handled.complete(Thread.currentThread().name to e) }
                val boom = IllegalStateException("handled boom")
                CoroutineScope(d + SupervisorJob() + handler).launch { throw boom }
                val (thread, e) = handled.await()
                e shouldBeSameInstanceAs boom
                thread shouldStartWith "with-handler-worker-"
            }
        }
    }

    test("without a handler, an uncaught exception reaches the pool's handler and the worker survives") {
        val reported = LinkedBlockingQueue<Pair<Thread, Throwable>>()
        forageDispatcher {
            ioWorkers = IO_WORKERS
            threads = 1
            name = "pool-handler"
            uncaughtExceptionHandler = Thread.UncaughtExceptionHandler { t, e -> reported.add(t to e) }
        }.use { d ->
            withWatchdog {
                val boom = IllegalStateException("unhandled boom")
                val worker = withContext(d) { Thread.currentThread() }
                CoroutineScope(d + SupervisorJob()).launch { throw boom }.join()
                val (thread, e) = reported.poll(WATCHDOG_SECONDS, TimeUnit.SECONDS)!!
                e shouldBeSameInstanceAs boom
                thread shouldBeSameInstanceAs worker
                // The one worker is still there and still runs coroutines.
                withContext(d) { Thread.currentThread() } shouldBeSameInstanceAs worker
                worker.isAlive shouldBe true
                reported.size shouldBe 0
            }
        }
    }

    test("without any handler configured, an uncaught exception reaches the worker thread's own handler") {
        val reported = LinkedBlockingQueue<Throwable>()
        val factory = ThreadFactory { r ->
            Thread(r, "own-handler-thread").apply {
                isDaemon = true
                uncaughtExceptionHandler = Thread.UncaughtExceptionHandler { _, e -> reported.add(e) }
            }
        }
        forageDispatcher {
            ioWorkers = IO_WORKERS
            threads = 1
            threadFactory = factory
        }.use { d ->
            withWatchdog {
                val boom = IllegalStateException("thread handler boom")
                CoroutineScope(d + SupervisorJob()).launch { throw boom }.join()
                reported.poll(WATCHDOG_SECONDS, TimeUnit.SECONDS) shouldBeSameInstanceAs boom
                withContext(d) { Thread.currentThread().name } shouldStartWith "own-handler-thread"
            }
        }
    }

    test("Dispatchers.Forage runs on the common pool's daemon threads") {
        withWatchdog {
            val thread = withContext(Dispatchers.Forage) {
                ForagePool.current() shouldBeSameInstanceAs ForagePool.commonPool()
                Thread.currentThread()
            }
            thread.name shouldStartWith "forage-common-worker-"
            thread.isDaemon shouldBe true
            ForagePool.commonPool().parallelism() shouldBeGreaterThanOrEqual 1
        }
    }
})
