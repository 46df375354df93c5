package dev.forage.samples.android

import android.os.Looper
import dev.forage.coroutines.Forage
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/**
 * A ViewModel-style holder (no androidx needed): it owns a main-thread coroutine scope, runs the counting on
 * [workDispatcher] (Forage's shared pool by default) and publishes every [PrimesState] on the main thread.
 * [clear] cancels whatever is still running; call it where the owner dies (`Activity.onDestroy`, or
 * `ViewModel.onCleared` if you move this into an androidx `ViewModel`).
 *
 * ```
 * val model = PrimesModel()
 * model.observe { state -> textView.text = state.toString() }   // main thread
 * model.count(1_000_000)
 * // ... onDestroy:
 * model.clear()
 * ```
 *
 * @param workDispatcher where the CPU work runs; the UI never waits for it.
 * @param work the computation, given the limit (replaceable for tests).
 */
class PrimesModel(
    private val workDispatcher: CoroutineDispatcher = Dispatchers.Forage,
    private val work: suspend (limit: Int) -> Int = { limit -> countPrimesBelow(limit) },
) {
    // Main.immediate: a call from the main thread updates the state at once instead of one frame later.
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Main.immediate)
    private var observer: ((PrimesState) -> Unit)? = null
    private var running: Job? = null

    /** The last published state. Read it on the main thread. */
    var state: PrimesState = PrimesState.Idle
        private set

    /** The count in progress or last started (for tests). */
    internal val runningJob: Job?
        get() = running

    /** Registers the one observer (the screen) and gives it the current state. Main thread only. */
    fun observe(observer: (PrimesState) -> Unit) {
        checkMainThread("observe")
        this.observer = observer
        observer(state)
    }

    /**
     * Starts counting the primes below [limit], cancelling a count still in progress. Main thread only.
     * Returns the job, so a caller can wait for it or cancel just this count.
     */
    fun count(limit: Int): Job {
        checkMainThread("count")
        require(limit >= 0) { "limit must be >= 0, was $limit" }
        running?.cancel()
        publish(PrimesState.Counting(limit))
        val job = scope.launch {
            val next = try {
                PrimesState.Done(limit, withContext(workDispatcher) { work(limit) })
            } catch (e: CancellationException) {
                throw e // cancelled: the owner is gone or a newer count replaced this one; publish nothing
            } catch (e: Exception) {
                PrimesState.Failed(limit, e.message ?: e.toString())
            }
            publish(next) // back on the main thread: withContext returned to the scope's dispatcher
        }
        running = job
        return job
    }

    /** Cancels the running count for good; the model publishes nothing afterwards. */
    fun clear() {
        scope.cancel("PrimesModel cleared")
        observer = null
    }

    private fun publish(next: PrimesState) {
        checkMainThread("publish")
        state = next
        observer?.invoke(next)
    }

    private fun checkMainThread(what: String) {
        check(Looper.myLooper() == Looper.getMainLooper()) {
            "$what must run on the main thread, ran on ${Thread.currentThread().name}"
        }
    }
}
