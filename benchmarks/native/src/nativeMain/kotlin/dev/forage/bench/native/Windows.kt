@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.bench.native

import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.random.Random
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Runnable
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/**
 * The windowed scenarios: low-load CPU, idle CPU and wake-up latency. The measuring thread is the program's main
 * thread, outside every pool. A pool's CPU is the process's CPU time minus the measuring thread's own: Kotlin/Native
 * has no portable way to pick a pool's threads by name, so the runtime's other threads (the collector's) count
 * too, alike for every subject.
 */
internal object Windows {
    private const val TASK_NANOS = 20_000L

    /**
     * A task of about 20 µs of CPU every [periodNanos], dispatched from outside on a fixed schedule (open loop: a
     * late submission does not delay the next ones). Reports `cpu`: the pool's CPU over the window divided by
     * tasks × the task's own CPU (measured on the submitting thread); 1.0 is the ideal, the excess is what
     * idling, spinning and waking cost.
     */
    fun lowLoad(s: Subject, b: Budget, out: Out, periodNanos: Long) {
        val work = BusyWork.calibrate(TASK_NANOS)
        val taskCpu = work.measureCpuNanos(if (b.tiny) 50 else 2000)
        out.info("taskMicros", format(taskCpu / 1000))
        val completed = AtomicInt(0)
        val task = Runnable {
            work.run()
            completed.addAndFetch(1)
        }
        runWindow(s.dispatcher, task, completed, periodNanos, if (b.tiny) b.windowNanos else 300_000_000L)
        val values = List(b.windows) {
            val p0 = Clocks.processCpu()
            val t0 = Clocks.threadCpu()
            val tasks = runWindow(s.dispatcher, task, completed, periodNanos, b.windowNanos)
            poolCpu(p0, t0) / (tasks * taskCpu)
        }
        out.result("cpu", values)
    }

    /**
     * The CPU the process's other threads used since [p0] (process clock) and [t0] (this thread's clock, read just
     * after). The end is read in the opposite order, so the process window holds the thread window: the
     * difference can only over-count, by this thread's own clock reads between the two (a few µs, the
     * measurement's floor); a reading below 0, from the clocks' grain when the pool slept throughout, is 0.
     */
    private fun poolCpu(p0: Long, t0: Long): Double {
        val thread = Clocks.threadCpu() - t0
        val process = Clocks.processCpu() - p0
        return maxOf(0L, process - thread).toDouble()
    }

    /** One window of the low-load schedule; returns once every task of it ran, with the number of tasks. */
    private fun runWindow(d: CoroutineDispatcher, task: Runnable, completed: AtomicInt, period: Long, length: Long): Int {
        completed.store(0)
        val start = Clocks.now()
        var next = start
        var n = 0
        while (next < start + length) {
            Clocks.sleepUntil(next)
            d.dispatch(EmptyCoroutineContext, task)
            n++
            next += period
        }
        val deadline = Clocks.now() + 60_000_000_000L
        while (completed.load() < n) {
            check(Clocks.now() < deadline) { "${n - completed.load()} of $n low-load tasks did not run within 60 s" }
            Clocks.sleepNanos(50_000L)
        }
        return n
    }

    /**
     * Every worker is woken by a burst of 20,000 tiny jobs, then nothing is submitted: after 200 ms for the
     * workers to fall asleep, the pool's CPU over each idle window, in µs of CPU per second (`cpu`). A pool whose
     * workers really sleep scores about 0.
     */
    fun idle(s: Subject, b: Budget, out: Out) {
        val n = b.size(20_000, 200)
        val left = AtomicInt(n)
        val done = CompletableDeferred<Unit>()
        val job = Runnable { if (left.addAndFetch(-1) == 0) done.complete(Unit) }
        repeat(n) { s.dispatcher.dispatch(EmptyCoroutineContext, job) }
        runBlocking { withTimeout(60_000L) { done.await() } }
        Clocks.sleepNanos(if (b.tiny) 20_000_000L else 200_000_000L)
        val values = List(b.windows) {
            val p0 = Clocks.processCpu()
            val t0 = Clocks.threadCpu()
            val w0 = Clocks.now()
            Clocks.sleepNanos(b.windowNanos)
            val seconds = (Clocks.now() - w0) / 1e9
            poolCpu(p0, t0) / 1000.0 / seconds
        }
        out.result("cpu", values)
    }

    /**
     * From a sleeping pool: the measuring thread reads the clock and dispatches a job that reads it first thing.
     * Between samples it waits until the job ran and then 0.8 to 1.2 ms more, so the workers are asleep when the
     * next job arrives. `p50` and `p99` in µs, one value of each per window of samples.
     */
    fun wakeup(s: Subject, b: Budget, out: Out) {
        val started = AtomicLong(0L)
        val job = Runnable { started.store(Clocks.now()) }
        val random = Random(42)
        fun sample(): Long {
            started.store(0L)
            val t0 = Clocks.now()
            s.dispatcher.dispatch(EmptyCoroutineContext, job)
            var t: Long
            // Spin while the job is likely to start soon, then poll: a lost job must not hang the run.
            while (true) {
                t = started.load()
                if (t != 0L) break
                val waited = Clocks.now() - t0
                check(waited < 60_000_000_000L) { "a dispatched job did not start within 60 s" }
                if (waited > 5_000_000L) Clocks.sleepNanos(20_000L)
            }
            Clocks.sleepNanos(800_000L + random.nextLong(400_000L))
            return t - t0
        }
        repeat(b.size(200, 5)) { sample() }
        val p50 = ArrayList<Double>()
        val p99 = ArrayList<Double>()
        repeat(b.windows) {
            val lat = LongArray(b.samples) { sample() }
            lat.sort()
            p50 += lat[percentileIndex(lat.size, 0.50)] / 1000.0
            p99 += lat[percentileIndex(lat.size, 0.99)] / 1000.0
        }
        out.result("p50", p50)
        out.result("p99", p99)
    }

    /** The nearest-rank percentile's index in a sorted sample of [n]. */
    private fun percentileIndex(n: Int, p: Double): Int = (kotlin.math.ceil(p * n).toInt() - 1).coerceIn(0, n - 1)

    fun format(v: Double): String {
        val r = kotlin.math.round(v * 100) / 100
        return r.toString()
    }
}
