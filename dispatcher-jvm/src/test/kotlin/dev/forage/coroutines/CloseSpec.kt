package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.timerQueueSize
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.string.shouldNotStartWith
import io.kotest.matchers.string.shouldStartWith
import java.io.Closeable
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.Job
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.isActive
import kotlinx.coroutines.yield

/** What a coroutine saw of its own end: where its finally block ran, and how a delay there ended. */
private class Ending {
    val finallyThread = CompletableDeferred<String>()
    val delayInFinally = CompletableDeferred<Throwable?>()
}

/** A coroutine on [dispatcher] that waits for [gate], then records its ending. */
private fun CoroutineScope.waitingCoroutine(
    dispatcher: kotlinx.coroutines.CoroutineDispatcher,
    gate: CompletableDeferred<Unit>,
    started: CompletableDeferred<Unit>,
    ending: Ending,
    passedGate: AtomicBoolean,
): Job = launch(dispatcher) {
    try {
        started.complete(Unit)
        gate.await()
        passedGate.set(true)
    } finally {
        ending.finallyThread.complete(Thread.currentThread().name)
        withContext(NonCancellable) {
            // The pool can no longer time this; it must end at once, not hang.
            ending.delayInFinally.complete(runCatching { delay(10) }.exceptionOrNull())
        }
    }
}

@OptIn(InternalCoroutinesApi::class)
private fun Job.cancellationMessage(): String = getCancellationException().message ?: ""

@OptIn(InternalCoroutinesApi::class)
private fun Job.cancellationCause(): Throwable? = getCancellationException().cause

class CloseSpec : FunSpec({
    test("a coroutine resumed after close is cancelled with a cause naming the pool and runs finally on Dispatchers.IO") {
        withWatchdog {
            val d = testDispatcher(2, "closed-pool")
            val scope = CoroutineScope(SupervisorJob())
            val gate = CompletableDeferred<Unit>()
            val started = CompletableDeferred<Unit>()
            val ending = Ending()
            val passedGate = AtomicBoolean()
            val job = scope.waitingCoroutine(d, gate, started, ending, passedGate)
            started.await()
            d.close()
            d.pool.isTerminated shouldBe true

            gate.complete(Unit) // resumes the coroutine: its dispatch is rejected; no exception reaches us
            job.join()
            job.isCancelled shouldBe true
            job.cancellationMessage() shouldContain "pool closed-pool is shut down"
            passedGate.get() shouldBe false
            ending.finallyThread.await() shouldStartWith "DefaultDispatcher-worker-"
            val delayFailure = ending.delayInFinally.await()
            (delayFailure is CancellationException) shouldBe true
            delayFailure!!.message!! shouldContain "closed-pool"
        }
    }

    test("launching on a closed dispatcher does not throw and cancels the coroutine before it starts") {
        withWatchdog {
            val d = testDispatcher(1, "closed-launch")
            d.close()
            val ran = AtomicBoolean()
            val job = CoroutineScope(SupervisorJob()).launch(d) { ran.set(true) }
            job.join()
            job.isCancelled shouldBe true
            ran.get() shouldBe false
            job.cancellationMessage() shouldContain "closed-launch"
            // Neither does an undispatched start that suspends and is then resumed.
            val resumed = CoroutineScope(SupervisorJob()).launch(d, start = CoroutineStart.UNDISPATCHED) {
                kotlinx.coroutines.yield()
                ran.set(true)
            }
            resumed.join()
            resumed.isCancelled shouldBe true
            ran.get() shouldBe false
        }
    }

    test("close cancels coroutines waiting in delay or withTimeout at once instead of waiting for their deadlines") {
        withWatchdog {
            val d = testDispatcher(2, "close-timers")
            val scope = CoroutineScope(SupervisorJob())
            val inDelay = CompletableDeferred<Unit>()
            val inTimeout = CompletableDeferred<Unit>()
            val finallyRan = CompletableDeferred<Unit>()
            val sleeper = scope.launch(d) {
                try {
                    inDelay.complete(Unit)
                    delay(TimeUnit.HOURS.toMillis(1))
                } finally {
                    finallyRan.complete(Unit)
                }
            }
            val timed = scope.launch(d) {
                withTimeout(TimeUnit.HOURS.toMillis(1)) {
                    inTimeout.complete(Unit)
                    awaitCancellation()
                }
            }
            inDelay.await()
            inTimeout.await()
            pollUntil("both timers in the pool's queue") { d.pool.timerQueueSize() == 2 }
            d.close() // would wait an hour if the timers kept the pool alive
            d.pool.isTerminated shouldBe true
            sleeper.join()
            timed.join()
            finallyRan.isCompleted shouldBe true
            sleeper.cancellationMessage() shouldContain "close-timers"
            timed.cancellationMessage() shouldContain "close-timers"
            d.pool.timerQueueSize() shouldBe 0
            d.pendingTimerCount shouldBe 0
        }
    }

    test("a shut-down pool terminates as soon as its last pending delay is cancelled, not at the deadline") {
        withWatchdog {
            val d = testDispatcher(2, "drain-timer")
            val inDelay = CompletableDeferred<Unit>()
            val sleeper = CoroutineScope(SupervisorJob()).launch(d) {
                inDelay.complete(Unit)
                delay(TimeUnit.HOURS.toMillis(1))
            }
            inDelay.await()
            pollUntil("the timer is in the pool's queue") { d.pool.timerQueueSize() == 1 }
            d.pool.shutdown() // the pool itself, not the dispatcher: its timers are not closed early
            pollUntil("the last worker parks until the timer's deadline, to fire it") {
                Thread.getAllStackTraces().any { (thread, stack) ->
                    thread.name.startsWith("drain-timer-worker-") && thread.state == Thread.State.TIMED_WAITING &&
                        stack.any { it.methodName == "drainAndRetire" }
                }
            }
            sleeper.cancel() // removes the timer: the parked worker must notice and retire
            d.pool.awaitTermination(60, TimeUnit.SECONDS) shouldBe true
            sleeper.join()
            d.close()
        }
    }

    test("a limited view of a closed pool cancels like the pool's dispatcher and keeps its bound") {
        withWatchdog {
            val d = testDispatcher(2, "closed-view")
            val view = d.limitedParallelism(1)
            val scope = CoroutineScope(SupervisorJob())
            val gates = List(4) { CompletableDeferred<Unit>() }
            val started = List(4) { CompletableDeferred<Unit>() }
            val endings = List(4) { Ending() }
            val passed = AtomicBoolean()
            val jobs = (0 until 4).map { scope.waitingCoroutine(view, gates[it], started[it], endings[it], passed) }
            started.forEach { it.await() }
            d.close()
            gates.forEach { it.complete(Unit) }
            jobs.forEach { it.join() }
            jobs.forEach {
                it.isCancelled shouldBe true
                it.cancellationMessage() shouldContain "closed-view"
            }
            passed.get() shouldBe false
            endings.forEach { it.finallyThread.await() shouldStartWith "DefaultDispatcher-worker-" }
        }
    }

    test("close is idempotent and may be called from a coroutine on the pool itself") {
        withWatchdog {
            val d = testDispatcher(2, "self-close")
            withContext(d) { d.close() } // on a worker it only shuts down; it cannot wait for itself
            d.pool.awaitTermination(WATCHDOG_SECONDS, TimeUnit.SECONDS) shouldBe true
            d.close()
            d.pool.isTerminated shouldBe true
        }
    }

    test("the shared dispatcher cannot be closed, and says what to use instead") {
        val shared = Dispatchers.Forage as Closeable
        val refused = shouldThrow<UnsupportedOperationException> { shared.close() }
        refused.message!! shouldContain "cannot be closed"
        refused.message!! shouldContain "forageDispatcher"
        shouldThrow<UnsupportedOperationException> { ForagePool.commonPool().asForageDispatcher().close() }
        ForagePool.commonPool().isShutdown shouldBe false
        withWatchdog { withContext(Dispatchers.Forage) { 1 + 1 } shouldBe 2 }
    }

    test("suspending waits from outside a closed pool cancel the caller as a rejected dispatch does, not hang") {
        withWatchdog {
            val d = testDispatcher(1, "closed-waits")
            d.close()
            for (wait in listOf<suspend () -> Any>({ d.pool.awaitJoin({ 1 }, { 2 }) }, { d.pool.awaitScope { 3 } })) {
                val caller = launch(Dispatchers.Default) { wait() }
                caller.join()
                caller.isCancelled shouldBe true
                caller.cancellationMessage() shouldContain "pool closed-waits is shut down"
                (caller.cancellationCause() is RejectedExecutionException) shouldBe true
            }
        }
    }

    // close() returns while coroutines keep the pool busy: dispatches and yields from the pool's own workers are
    // refused after shutdown, so those coroutines are cancelled and finish on Dispatchers.IO.

    // The third: a view's loop already running on a worker may run the cancelled coroutine's rest there (it drains
    // what the view had queued), so only the pool's own dispatches are sure to finish on Dispatchers.IO.
    for ((shape, endsOffThePool, body) in listOf<Triple<String, Boolean, suspend CoroutineScope.() -> Unit>>(
        Triple("yields in a loop", true) { while (isActive) yield() },
        Triple("launches and joins children in a loop", true) { while (true) launch { }.join() },
        Triple("yields in a loop on a limitedParallelism view", false) {
            withContext(coroutineContext[kotlinx.coroutines.CoroutineDispatcher]!!.limitedParallelism(1)) {
                while (isActive) yield()
            }
        },
    )) {
        test("close() returns while a coroutine $shape, and the coroutine is cancelled with the pool's cause") {
            withWatchdog {
                val d = testDispatcher(2, "busy-close")
                val scope = CoroutineScope(SupervisorJob())
                val running = CompletableDeferred<Unit>()
                val ended = CompletableDeferred<String>()
                val job = scope.launch(d) {
                    try {
                        running.complete(Unit)
                        body()
                    } finally {
                        ended.complete(Thread.currentThread().name)
                    }
                }
                running.await()
                d.close() // would never return if the loop's own dispatches were still accepted
                d.pool.isTerminated shouldBe true
                job.join()
                job.isCancelled shouldBe true
                job.cancellationMessage() shouldContain "pool busy-close is shut down"
                val endedOn = ended.await()
                if (endsOffThePool) endedOn shouldNotStartWith "busy-close"
            }
        }
    }
})

