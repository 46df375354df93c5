package dev.forage.samples.android

import android.os.Looper
import dev.forage.ForagePool
import kotlinx.coroutines.awaitCancellation
import org.junit.Assert.assertEquals
import org.junit.Assert.assertSame
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.Config
import org.robolectric.annotation.LooperMode
import java.util.concurrent.CountDownLatch

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [34])
@LooperMode(LooperMode.Mode.PAUSED)
class PrimesModelTest {

    /** Work that signals when it starts, then waits until cancelled, and signals that too. */
    private class GatedWork {
        val started = CountDownLatch(1)
        val cancelled = CountDownLatch(1)
        val work: suspend (Int) -> Int = {
            started.countDown()
            try {
                awaitCancellation()
            } finally {
                cancelled.countDown()
            }
        }
    }

    private fun recordingObserver(into: MutableList<Pair<PrimesState, Thread>>): (PrimesState) -> Unit =
        { state -> into += state to Thread.currentThread() }

    @Test
    fun publishesEveryStateOnTheMainThread() {
        val seen = mutableListOf<Pair<PrimesState, Thread>>()
        val model = PrimesModel()
        model.observe(recordingObserver(seen))

        model.count(1_000)
        idleMainLooperUntil("the count") { model.state is PrimesState.Done }

        assertEquals(
            listOf(PrimesState.Idle, PrimesState.Counting(1_000), PrimesState.Done(1_000, 168)), // pi(1000) = 168
            seen.map { it.first },
        )
        val main = Looper.getMainLooper().thread
        seen.forEach { (state, thread) -> assertSame("$state published off the main thread", main, thread) }
        model.clear()
    }

    @Test
    fun theWorkRunsOnForageWorkersNotOnTheMainThread() {
        val workThreads = java.util.concurrent.ConcurrentLinkedQueue<Thread>()
        val onForage = java.util.concurrent.atomic.AtomicBoolean(true)
        val model = PrimesModel(work = { limit ->
            workThreads += Thread.currentThread()
            if (ForagePool.current() !== ForagePool.commonPool()) onForage.set(false)
            countPrimesBelow(limit)
        })
        model.count(10_000)
        idleMainLooperUntil("the count") { model.state is PrimesState.Done }

        assertEquals(PrimesState.Done(10_000, 1229), model.state) // pi(10^4) = 1229
        assertTrue("the work ran on Dispatchers.Forage's pool, threads: $workThreads", onForage.get())
        assertTrue(workThreads.none { it === Looper.getMainLooper().thread })
        model.clear()
    }

    @Test
    fun aFailingCountIsPublishedAsFailed() {
        val model = PrimesModel(work = { throw IllegalStateException("no primes today") })
        model.count(10)
        idleMainLooperUntil("the failure") { model.state !is PrimesState.Counting }
        assertEquals(PrimesState.Failed(10, "no primes today"), model.state)
        model.clear()
    }

    @Test
    fun clearCancelsTheRunningWorkAndPublishesNothingMore() {
        val gate = GatedWork()
        val seen = mutableListOf<Pair<PrimesState, Thread>>()
        val model = PrimesModel(work = gate.work)
        model.observe(recordingObserver(seen))
        val job = model.count(10)
        idleMainLooperUntil("the work to start") { gate.started.count == 0L }

        model.clear()
        awaitOrFail(gate.cancelled, "the work to see the cancellation")
        idleMainLooperUntil("the count's coroutine to end") { job.isCompleted }

        assertTrue(job.isCancelled)
        assertEquals(listOf(PrimesState.Idle, PrimesState.Counting(10)), seen.map { it.first })
    }

    @Test
    fun aNewCountCancelsTheOneInProgress() {
        val gate = GatedWork()
        val model = PrimesModel(work = { limit -> if (limit == 1) gate.work(limit) else limit * 2 })
        val first = model.count(1)
        idleMainLooperUntil("the first count to start") { gate.started.count == 0L }

        model.count(2)
        awaitOrFail(gate.cancelled, "the first count to be cancelled")
        idleMainLooperUntil("the second count") { model.state is PrimesState.Done }

        assertTrue(first.isCancelled)
        assertEquals(PrimesState.Done(2, 4), model.state)
        model.clear()
    }
}
