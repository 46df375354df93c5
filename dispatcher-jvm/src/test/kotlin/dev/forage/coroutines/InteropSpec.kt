package dev.forage.coroutines

import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.nulls.shouldBeNull
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldStartWith
import java.io.IOException
import java.util.Collections
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CountDownLatch
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.asContextElement
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.produce
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.future.await
import kotlinx.coroutines.future.future
import kotlinx.coroutines.launch
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.supervisorScope
import kotlinx.coroutines.sync.withLock
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

class InteropSpec : FunSpec({
    test("Channel ping-pong between two coroutines") {
        testDispatcher(2, "ping-pong").use { d ->
            withWatchdog {
                val rounds = if (LONG_STRESS) 200_000 else 20_000
                val ping = Channel<Int>()
                val pong = Channel<Int>()
                withContext(d) {
                    launch {
                        for (x in ping) {
                            pong.send(x + 1)
                        }
                    }
                    launch {
                        var x = 0
                        repeat(rounds) {
                            ping.send(x)
                            x = pong.receive()
                        }
                        ping.close()
                        x shouldBe rounds
                    }
                }
            }
        }
    }

    test("a fan-out/fan-in pipeline delivers every item exactly once") {
        @OptIn(ExperimentalCoroutinesApi::class) // produce
        testDispatcher(4, "pipeline").use { d ->
            withWatchdog {
                val items = 10_000
                val threadsSeen = Collections.newSetFromMap(ConcurrentHashMap<String, Boolean>())
                val total = withContext(d) {
                    val source = produce { for (i in 1..items) send(i.toLong()) }
                    val squares = Channel<Long>(capacity = 64)
                    coroutineScope {
                        val workers = (1..4).map {
                            launch {
                                for (x in source) {
                                    threadsSeen += Thread.currentThread().name
                                    squares.send(x * x)
                                }
                            }
                        }
                        launch {
                            workers.forEach { it.join() }
                            squares.close()
                        }
                        var sum = 0L
                        var count = 0
                        for (s in squares) {
                            sum += s
                            count++
                        }
                        count shouldBe items
                        sum
                    }
                }
                total shouldBe (1..items).sumOf { it.toLong() * it }
                // The pool's threads, never the caller's: its workers, or a stand-in ("pipeline-blocking-N") that
                // the monitor starts for a worker it sees make no progress while jobs queue behind it, which a
                // worker descheduled for tens of milliseconds on a loaded 2-core machine looks like.
                threadsSeen.forEach { it shouldStartWith "pipeline-" }
            }
        }
    }

    test("Flow.flowOn runs the upstream on the pool and collects on the caller") {
        testDispatcher(2, "flow-on").use { d ->
            withWatchdog {
                val collector = Thread.currentThread()
                val collected = flow {
                    repeat(100) { i ->
                        emit(i to Thread.currentThread().name)
                    }
                }.flowOn(d)
                    .map { (i, producer) ->
                        (Thread.currentThread() === collector) shouldBe true
                        i to producer
                    }
                    .toList()
                collected.map { it.first } shouldBe (0 until 100).toList()
                collected.forEach { it.second shouldStartWith "flow-on-worker-" }
            }
        }
    }

    test("Mutex under contention keeps a counter exact") {
        testDispatcher(4, "mutex").use { d ->
            withWatchdog {
                val mutex = Mutex()
                var counter = 0 // guarded by mutex
                withContext(d) {
                    repeat(200) {
                        launch {
                            repeat(100) {
                                mutex.withLock {
                                    val seen = counter
                                    yield() // invite another coroutine in while the lock is held
                                    counter = seen + 1
                                }
                            }
                        }
                    }
                }
                mutex.withLock { counter } shouldBe 200 * 100
            }
        }
    }

    test("ThreadLocal.asContextElement follows the coroutine across threads and does not leak") {
        testDispatcher(2, "thread-local").use { d ->
            withWatchdog {
                val local = ThreadLocal<String?>()
                withContext(d + local.asContextElement("request-42")) {
                    repeat(20) {
                        local.get() shouldBe "request-42"
                        delay(1)
                        local.get() shouldBe "request-42"
                        yield()
                    }
                }
                // Every worker runs a coroutine without the element: none sees the value.
                val blocked = CountDownLatch(d.pool.parallelism())
                (0 until d.pool.parallelism()).map {
                    async(d) {
                        blocked.countDown()
                        blocked.await() // occupies each worker once
                        local.get()
                    }
                }.awaitAll().forEach { it.shouldBeNull() }
            }
        }
    }

    test("CompletableFuture.await suspends on the pool and resumes on it") {
        testDispatcher(2, "future").use { d ->
            withWatchdog {
                val future = CompletableFuture<String>()
                val suspended = CompletableDeferred<Unit>()
                val result = async(d, start = CoroutineStart.UNDISPATCHED) {
                    suspended.complete(Unit)
                    future.await() to Thread.currentThread().name
                }
                suspended.await()
                Thread({ future.complete("done") }, "completer").start()
                val (value, thread) = result.await()
                value shouldBe "done"
                thread shouldStartWith "future-worker-"

                val failing = CompletableFuture<String>()
                supervisorScope {
                    val failed = async(d) { failing.await() }
                    failing.completeExceptionally(IOException("disk"))
                    // (Stack-trace recovery, on with assertions enabled, may hand back a copy of the exception.)
                    shouldThrow<IOException> { failed.await() }.message shouldBe "disk"
                }

                // And the other direction: a future produced by a coroutine on the pool.
                val produced = future(d) { Thread.currentThread().name }
                produced.await() shouldStartWith "future-worker-"
            }
        }
    }
})
