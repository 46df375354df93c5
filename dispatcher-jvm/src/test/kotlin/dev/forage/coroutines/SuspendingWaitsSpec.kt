package dev.forage.coroutines

import dev.forage.testing.Fib
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.assertions.withClue
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.collections.shouldContainExactly
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldStartWith
import io.kotest.matchers.types.shouldBeSameInstanceAs
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicIntegerArray
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

class SuspendingWaitsSpec : FunSpec({
    test("awaitJoin on a worker runs a on the caller and b on the pool, and returns both") {
        testDispatcher(2, "join").use { d ->
            withWatchdog {
                withContext(d) {
                    val caller = Thread.currentThread()
                    val (a, b) = d.pool.awaitJoin({ Thread.currentThread() }, { Thread.currentThread().name })
                    a shouldBeSameInstanceAs caller
                    b shouldStartWith "join-worker-"
                    d.pool.awaitJoin({ Fib.join(d.pool, 20) }, { "x" }) shouldBe (6765L to "x")
                }
            }
        }
    }

    test("awaitJoin from outside the pool runs both halves on the pool") {
        testDispatcher(2, "join-outside").use { d ->
            withWatchdog {
                val (a, b) = d.pool.awaitJoin({ Thread.currentThread().name }, { Thread.currentThread().name })
                a shouldStartWith "join-outside-worker-"
                b shouldStartWith "join-outside-worker-"
            }
        }
    }

    test("a failure is rethrown only after the other half finished; both failures are kept") {
        testDispatcher(2, "join-fail").use { d ->
            withWatchdog {
                val bStarted = CountDownLatch(1)
                val bRelease = CountDownLatch(1)
                val bFinished = AtomicBoolean()
                val outcome = async(d) {
                    runCatching {
                        d.pool.awaitJoin({ throw IllegalStateException("a failed") }, {
                            bStarted.countDown()
                            bRelease.await()
                            bFinished.set(true)
                        })
                    }.exceptionOrNull()
                }
                bStarted.await()
                outcome.isCompleted shouldBe false // b is still blocked, so the join cannot have returned
                bRelease.countDown()
                val failure = outcome.await()!!
                failure.message shouldBe "a failed"
                bFinished.get() shouldBe true

                // Caught inside the coroutine: crossing withContext, stack-trace recovery (on with assertions
                // enabled) could hand back a copy without the suppressed exception.
                val both = withContext(d) {
                    shouldThrow<IllegalStateException> {
                        d.pool.awaitJoin({ throw IllegalStateException("first") }, { throw IllegalArgumentException("second") })
                    }
                }
                both.message shouldBe "first"
                both.suppressed.map { it.message } shouldContainExactly listOf("second")
            }
        }
    }

    test("the coroutine suspends (no thread waits) and the last job resumes it with exactly one dispatch") {
        // One worker: the coroutine must suspend before b can run, so the resumption is observable. A wait that
        // blocked or helped on the worker (like pool.join) would resume without any dispatch.
        testDispatcher(1, "one-dispatch").use { d ->
            withWatchdog {
                val counting = CountingDispatcher(d)
                withContext(counting) {
                    val before = counting.dispatches.get()
                    d.pool.awaitJoin({ 1 }, { 2 }) shouldBe (1 to 2)
                    counting.dispatches.get() - before shouldBe 1

                    val beforeScope = counting.dispatches.get()
                    val ran = AtomicInteger()
                    d.pool.awaitScope { s -> repeat(100) { s.spawn { -> ran.incrementAndGet() } } }
                    ran.get() shouldBe 100
                    counting.dispatches.get() - beforeScope shouldBe 1
                }
            }
        }
    }

    test("awaitScope returns after the body and every spawned job, nested spawns included") {
        testDispatcher(4, "scope").use { d ->
            withWatchdog {
                val n = 1000
                val squares = AtomicIntegerArray(n)
                val result = withContext(d) {
                    d.pool.awaitScope { s ->
                        for (i in 0 until n) {
                            s.spawn { inner -> inner.spawn { -> squares.set(i, i * i) } }
                        }
                        "body done"
                    }
                }
                result shouldBe "body done"
                (0 until n).all { squares.get(it) == it * it } shouldBe true

                // From outside the pool too.
                val outside = d.pool.awaitScope { s ->
                    s.spawn { -> squares.set(0, -1) }
                    Thread.currentThread().name
                }
                outside shouldStartWith "scope-worker-"
                squares.get(0) shouldBe -1
            }
        }
    }

    test("awaitScope rethrows the first failure after every job ran") {
        testDispatcher(2, "scope-fail").use { d ->
            withWatchdog {
                val ran = AtomicInteger()
                val failure = shouldThrow<IllegalStateException> {
                    withContext(d) {
                        d.pool.awaitScope { s ->
                            repeat(10) { s.spawn { -> ran.incrementAndGet() } }
                            s.spawn { -> throw IllegalStateException("job failed") }
                        }
                    }
                }
                failure.message shouldBe "job failed"
                ran.get() shouldBe 10
                shouldThrow<IllegalArgumentException> {
                    d.pool.awaitScope<Unit> { throw IllegalArgumentException("body failed") }
                }.message shouldBe "body failed"
            }
        }
    }

    test("a cancelled coroutine waits for its jobs, then throws CancellationException instead of returning") {
        testDispatcher(2, "scope-cancel").use { d ->
            withWatchdog {
                for (useJoin in listOf(false, true)) {
                    val started = CountDownLatch(1)
                    val release = CountDownLatch(1)
                    val jobFinished = AtomicBoolean()
                    val returned = AtomicBoolean()
                    val blocking = {
                        started.countDown()
                        release.await()
                        jobFinished.set(true)
                    }
                    val coroutine = launch(d) {
                        if (useJoin) {
                            d.pool.awaitJoin({ }, blocking)
                        } else {
                            d.pool.awaitScope { s -> s.spawn(blocking) }
                        }
                        returned.set(true)
                    }
                    started.await()
                    coroutine.cancel()
                    coroutine.isCompleted shouldBe false // the job still runs: the wait does not end early
                    release.countDown()
                    coroutine.join()
                    jobFinished.get() shouldBe true
                    returned.get() shouldBe false
                    coroutine.isCancelled shouldBe true
                }
            }
        }
    }

    test("cancelled: jobs not started never run, and the caller resumes only after the running job ended") {
        // One worker: the first job to start blocks it, so every other job is still queued when the caller is
        // cancelled. The caller runs on a one-thread executor of its own: whatever resumption the cancellation
        // dispatched has run before a marker task queued after it, so "not completed" below is not a race.
        testDispatcher(1, "cancel-queued").use { d ->
            val callerThread = Executors.newSingleThreadExecutor()
            try {
                val caller = callerThread.asCoroutineDispatcher()
                withWatchdog {
                    for (useJoin in listOf(false, true)) {
                        val started = CountDownLatch(1)
                        val release = CountDownLatch(1)
                        val first = AtomicBoolean()
                        val longEnded = AtomicBoolean()
                        val queuedRan = AtomicInteger()
                        val seenOnResume = AtomicReference<String>()
                        val job: () -> Unit = {
                            if (first.compareAndSet(false, true)) {
                                started.countDown()
                                release.await()
                                longEnded.set(true)
                            } else {
                                queuedRan.incrementAndGet()
                            }
                        }
                        val coroutine = launch(caller) {
                            try {
                                if (useJoin) {
                                    d.pool.awaitJoin(job, job)
                                } else {
                                    d.pool.awaitScope { s -> repeat(10) { s.spawn(job) } }
                                }
                                seenOnResume.set("returned")
                            } catch (e: CancellationException) {
                                seenOnResume.set("cancelled, long job ended: ${longEnded.get()}")
                                throw e
                            }
                        }
                        started.await()
                        coroutine.cancel()
                        callerThread.submit { }.get()
                        try {
                            withClue("useJoin=$useJoin: the caller must wait for the job that is running") {
                                coroutine.isCompleted shouldBe false
                                seenOnResume.get() shouldBe null
                            }
                        } finally {
                            release.countDown() // a failure must not leave the pool's only worker blocked
                        }
                        coroutine.join()
                        withClue("useJoin=$useJoin") {
                            seenOnResume.get() shouldBe "cancelled, long job ended: true"
                            queuedRan.get() shouldBe 0
                            coroutine.isCancelled shouldBe true
                        }
                    }
                }
            } finally {
                callerThread.shutdown()
            }
        }
    }

    test("cancelled before the pool reached them: awaitScope's body and awaitJoin's halves never run") {
        testDispatcher(1, "cancel-unstarted").use { d ->
            withWatchdog {
                for (useJoin in listOf(false, true)) {
                    val busy = CountDownLatch(1)
                    val release = CountDownLatch(1)
                    d.pool.execute { busy.countDown(); release.await() } // the only worker is taken
                    busy.await()
                    val ran = AtomicInteger()
                    val submitted = CountDownLatch(1)
                    val coroutine = launch(Dispatchers.IO) {
                        submitted.countDown()
                        if (useJoin) {
                            d.pool.awaitJoin({ ran.incrementAndGet() }, { ran.incrementAndGet() })
                        } else {
                            d.pool.awaitScope { s -> ran.incrementAndGet(); s.spawn { ran.incrementAndGet() } }
                        }
                    }
                    submitted.await()
                    pollUntil("the wait's jobs queued on the pool") { d.pool.statistics().queuedJobs() > 0 }
                    coroutine.cancel()
                    release.countDown()
                    coroutine.join()
                    withClue("useJoin=$useJoin") {
                        coroutine.isCancelled shouldBe true
                        ran.get() shouldBe 0
                    }
                }
            }
        }
    }

    test("cancelled while a on the calling worker runs: b never runs and the caller gets CancellationException") {
        testDispatcher(1, "cancel-on-worker").use { d ->
            withWatchdog {
                val aStarted = CountDownLatch(1)
                val release = CountDownLatch(1)
                val bRan = AtomicBoolean()
                val outcome = AtomicReference<Throwable>()
                val coroutine = launch(d) {
                    try {
                        d.pool.awaitJoin({ aStarted.countDown(); release.await() }, { bRan.set(true) })
                    } catch (e: Throwable) {
                        outcome.set(e)
                        throw e
                    }
                }
                aStarted.await()
                coroutine.cancel()
                release.countDown()
                coroutine.join()
                (outcome.get() is CancellationException) shouldBe true
                bRan.get() shouldBe false
            }
        }
    }

    test("a job's failure wins over the cancellation") {
        testDispatcher(1, "cancel-failure").use { d ->
            withWatchdog {
                val started = CountDownLatch(1)
                val release = CountDownLatch(1)
                val outcome = AtomicReference<Throwable>()
                val coroutine = launch(Dispatchers.IO) {
                    try {
                        d.pool.awaitScope { s ->
                            s.spawn {
                                started.countDown()
                                release.await()
                                throw IllegalStateException("failed while cancelled")
                            }
                        }
                    } catch (e: Throwable) {
                        outcome.set(e)
                    }
                }
                started.await()
                coroutine.cancel()
                release.countDown()
                coroutine.join()
                outcome.get().message shouldBe "failed while cancelled"
            }
        }
    }

    test("many coroutines waiting in awaitScope and awaitJoin at once all complete") {
        testDispatcher(4, "waits-stress").use { d ->
            withWatchdog {
                val coroutines = if (LONG_STRESS) 20_000 else 2_000
                val sums = (0 until coroutines).map { c ->
                    async(d) {
                        val counter = AtomicInteger()
                        d.pool.awaitScope { s -> repeat(10) { s.spawn { -> counter.addAndGet(c) } } }
                        val (x, y) = d.pool.awaitJoin({ counter.get() }, { c })
                        x + y
                    }
                }.awaitAll()
                sums shouldBe (0 until coroutines).map { it * 11 }
            }
        }
    }
})
