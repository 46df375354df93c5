package dev.forage.bench.scenario

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.ConcurrentLinkedQueue
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

/**
 * What `yield()` does on a dispatcher, as opposed to how fast: 8 coroutines loop over `yield()` on two or more
 * workers, and each worker thread counts how many times in a row it resumed the same coroutine before another
 * one ran on it. A dispatcher whose `yield()` lets the others take turns gives runs of 1; one that puts the
 * coroutine back where it is taken next (a LIFO `ForkJoinPool`) gives runs of the whole loop. Untimed: the
 * bookkeeping would be a large share of a `yield()`.
 */
object YieldTurns {
    /** The [dev.forage.bench.Results] info key, shown in the run details. */
    const val INFO_KEY = "yieldTurns"

    /** The median run: resumes in a row of one coroutine on one worker, over one pass of 8 loops of [each]. */
    @JvmStatic
    fun measure(d: CoroutineDispatcher, each: Int): Int {
        val runs = ConcurrentLinkedQueue<Int>()
        // Per worker thread: the coroutine it resumed last, and how many times in a row. Each entry is written
        // only by its own thread; the scope's completion publishes them to this one.
        val current = ConcurrentHashMap<Thread, IntArray>()
        runBlocking {
            withContext(d) {
                coroutineScope {
                    repeat(8) { c ->
                        launch {
                            repeat(each) {
                                yield()
                                val run = current.computeIfAbsent(Thread.currentThread()) { intArrayOf(-1, 0) }
                                if (run[0] == c) {
                                    run[1]++
                                } else {
                                    if (run[0] >= 0) runs.add(run[1])
                                    run[0] = c
                                    run[1] = 1
                                }
                            }
                        }
                    }
                }
            }
        }
        for (run in current.values) {
            runs.add(run[1])
        }
        return median(runs.toList())
    }

    private fun median(runs: List<Int>): Int {
        check(runs.isNotEmpty()) { "no yield() returned" }
        return runs.sorted()[runs.size / 2]
    }
}
