package dev.forage.bench.scenario

import java.util.concurrent.atomic.LongAdder
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/**
 * Where the time of `launch-1m` goes, as opposed to how much: a few untimed operations of the same shape, each
 * split into the launch loop (until the launching coroutine has called `launch` for the last time) and the rest
 * (until every child is done), with the share of the children that ran while the loop was still launching.
 *
 * Every `launch` adds a node to the parent's list of children and every child's completion takes one off, and the
 * two ends of that list are fields of one object, so a child that completes beside the loop makes the loop's next
 * `launch` fetch that line from the other core. A pool whose second worker runs children alongside the loop pays
 * that on both cores; one whose second worker stays out until the loop ends runs the loop at one thread's speed
 * and the children in parallel afterwards. The children count into a [LongAdder] so that the count itself shares
 * no line between the two workers.
 */
object LaunchLoop {
    /** The [dev.forage.bench.Results] info key, shown in the run details. */
    const val INFO_KEY = "launchLoop"

    /** One operation: the loop's and the whole operation's time, and the children done when the loop ended. */
    class Split(val loopNanos: Long, val opNanos: Long, val doneDuringLoop: Long, val children: Int)

    /** One operation of [children] launches on [d], timed in two parts. */
    @JvmStatic
    fun measureOnce(d: CoroutineDispatcher, children: Int): Split {
        val done = LongAdder()
        var loopEnd = 0L
        var doneAtLoopEnd = 0L
        val start = System.nanoTime()
        runBlocking {
            withContext(d) {
                coroutineScope {
                    repeat(children) { launch { done.increment() } }
                    loopEnd = System.nanoTime()
                    doneAtLoopEnd = done.sum()
                }
            }
        }
        val end = System.nanoTime()
        check(done.sum() == children.toLong()) { "${done.sum()} of $children children ran" }
        return Split(loopEnd - start, end - start, doneAtLoopEnd, children)
    }

    /**
     * [ops] operations; the run details' text: the median loop and operation times and the median share of the
     * children done during the loop.
     */
    @JvmStatic
    fun measure(d: CoroutineDispatcher, children: Int, ops: Int): String {
        val splits = List(ops) { measureOnce(d, children) }
        val loop = splits.map { it.loopNanos }.sorted()[ops / 2] / 1e6
        val op = splits.map { it.opNanos }.sorted()[ops / 2] / 1e6
        val share = splits.map { it.doneDuringLoop * 100.0 / it.children }.sorted()[ops / 2]
        return String.format(java.util.Locale.ROOT, "%.0f of %.0f ms, %.0f %%", loop, op, share)
    }
}
