package dev.forage.coroutines

import dev.forage.testing.LongJobRecording
import dev.forage.testing.LongJobRecording.naming
import dev.forage.testing.LongJobRecording.runLong
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldStartWith
import jdk.jfr.consumer.RecordedEvent
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/** A step that suspends until [gate] opens and then runs long on the worker that resumed it. */
private suspend fun slowStepAfterTheGate(gate: CompletableDeferred<Unit>) {
    gate.await()
    runLong()
}

private fun poolName(test: String) = "long-job-names-$test"

/**
 * JFR's `dev.forage.LongJob` names the coroutine, not kotlinx's runnable: its `CoroutineName`, and the class of the
 * innermost suspended frame that is the user's (the frames of kotlinx, the standard library and this face are
 * skipped). Each pool has a 20 ms threshold; each coroutine runs 60 ms without suspending.
 */
class LongJobNamesSpec : FunSpec({
    fun coroutineEvents(test: String, body: suspend (ForageDispatcher) -> Unit): List<RecordedEvent> {
        val pool = LongJobRecording.pool(poolName(test), 2)
        val d = pool.asForageDispatcher()
        return LongJobRecording.record(pool) { withWatchdog { body(d) } }
    }

    test("a named coroutine is reported by its CoroutineName and its body's class") {
        val events = coroutineEvents("named") { d ->
            withContext(d + CoroutineName("resize-images")) { runLong() }
        }
        val e = events.single { it.getString("coroutineName") == "resize-images" }
        e.getString("jobClass") shouldStartWith LongJobNamesSpec::class.java.name
        e.getString("wrapperClass") shouldBe "kotlinx.coroutines.internal.DispatchedContinuation"
    }

    test("a resumed coroutine is reported by the user's suspend function it resumed in") {
        val events = coroutineEvents("resumed") { d ->
            val gate = CompletableDeferred<Unit>()
            val job = launch(d + CoroutineName("after-the-gate")) { slowStepAfterTheGate(gate) }
            // Suspended in the gate, the coroutine holds no worker: then the gate's completion resumes it as a new
            // job, kotlinx's continuation of the frame that suspended.
            pollUntil("the coroutine suspended at the gate") { d.pool.statistics().sleepingWorkers() == 2 }
            gate.complete(Unit)
            job.join()
        }
        val e = events.singleOrNull { it.getString("jobClass").contains("slowStepAfterTheGate") }
            ?: throw AssertionError("no event names slowStepAfterTheGate: ${LongJobRecording.describe(events)}")
        e.getString("coroutineName") shouldBe "after-the-gate"
        e.getString("wrapperClass") shouldStartWith "kotlinx.coroutines."
    }

    test("an awaitJoin half that runs as its own job is reported by its function") {
        val b: () -> Unit = { runLong() }
        val events = coroutineEvents("join") { d ->
            withContext(d) { d.pool.awaitJoin({ runLong() }, b) }
        }
        naming(events, b.javaClass.name).getString("wrapperClass") shouldStartWith "dev.forage.coroutines."
    }
})
