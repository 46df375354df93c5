package dev.forage.coroutines

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.EmptyCoroutineContext
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.cancel
import kotlinx.coroutines.handleCoroutineException

/**
 * The view returned by `limitedParallelism(n)` when n is below the pool's thread count: never more than
 * [parallelism] of its tasks run at once.
 *
 * Like kotlinx's `LimitedDispatcher`, it keeps its own FIFO [queue] and runs it with at most [parallelism]
 * "loops", each a job dispatched to [upstream] (the pool's dispatcher, or an enclosing view) that runs queued tasks
 * one after another. Unlike it, a loop re-queues itself with `dispatchYield` (behind the pool's queued jobs)
 * every [FAIRNESS_BUDGET] tasks, instead of with a plain dispatch that would land on top of the same worker's LIFO
 * deque and run again at once: a busy view yields to other work, and other views get their turn.
 *
 * Timers (`delay`, `withTimeout`) are the pool's ([parent]); a fired `delay` resumes through this view, so its
 * bound holds. After the pool closed, a dispatch cancels the coroutine like the pool's own dispatcher does; its
 * block still runs through the queue (the loop then runs on `Dispatchers.IO`), within the bound.
 *
 * The pool's queue bound holds for a view as for the pool's own dispatcher: a dispatch that must start a loop
 * and finds the pool's queue full cancels its coroutine (the cause names the full queue). The loop itself carries
 * tasks the view already took, so it is not dropped and does not leave the pool: it waits for a worker as a timer
 * due at once ([Loop.refused]), which adds at most [parallelism] jobs beyond the bound per view. A view's tasks
 * never run off the pool while it is open.
 */
@OptIn(InternalCoroutinesApi::class)
internal class LimitedForageDispatcher(
    private val parent: ForageDispatcher,
    private val upstream: CoroutineDispatcher,
    private val parallelism: Int,
    private val name: String?,
) : CoroutineDispatcher(), Delay by parent {
    private val queue = ConcurrentLinkedQueue<Runnable>()

    /** Loops started and not yet finished; never above [parallelism]. */
    private val runningLoops = AtomicInteger()

    override fun dispatch(context: CoroutineContext, block: Runnable) {
        cancelIfPoolClosed(context)
        queue.offer(block)
        startLoopIfNeeded(context, fair = false)
    }

    override fun dispatchYield(context: CoroutineContext, block: Runnable) {
        cancelIfPoolClosed(context)
        queue.offer(block)
        startLoopIfNeeded(context, fair = true)
    }

    override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher {
        checkParallelism(parallelism)
        if (parallelism >= this.parallelism) {
            return if (name == null) this else NamedForageDispatcher(this, parent, name)
        }
        return LimitedForageDispatcher(parent, this, parallelism, name)
    }

    override fun toString(): String = name ?: "$parent.limitedParallelism($parallelism)"

    private fun cancelIfPoolClosed(context: CoroutineContext) {
        val pool = parent.pool
        // The pool refuses every submission once shut down, its own workers' too.
        if (pool.isShutdown) {
            context.cancel(ClosedPool.cause(pool, null))
        }
    }

    /**
     * Starts one more loop when fewer than [parallelism] run and the queue holds a task. Correctness (no task
     * left behind while no loop runs) rests on two mirrored steps, both on sequentially consistent atomics:
     * 1. dispatch: offer the task; then read [runningLoops] (here) and start a loop if below the limit;
     * 2. a loop that finds the queue empty: decrement [runningLoops]; then re-check the queue ([pollOrStop]).
     * Either the dispatcher sees the decrement and starts a loop, or the loop sees the task and keeps going.
     */
    private fun startLoopIfNeeded(context: CoroutineContext, fair: Boolean) {
        if (!tryAcquireLoop()) {
            return
        }
        val first = pollOrStop() ?: return
        val loop = Loop(first)
        // Never throws. The dispatching coroutine's context goes along: if the pool refuses the loop, that is the
        // coroutine refused (Loop.refused), here or in an enclosing view.
        if (fair) upstream.dispatchYield(context, loop) else upstream.dispatch(context, loop)
    }

    private fun tryAcquireLoop(): Boolean {
        while (true) {
            val running = runningLoops.get()
            if (running >= parallelism) {
                return false
            }
            if (runningLoops.compareAndSet(running, running + 1)) {
                return true
            }
        }
    }

    /** The next task for a loop that holds a slot, or null after giving the slot back (step 2 above). */
    private fun pollOrStop(): Runnable? {
        while (true) {
            queue.poll()?.let { return it }
            runningLoops.decrementAndGet()
            if (queue.isEmpty() || !tryAcquireLoop()) {
                return null
            }
        }
    }

    /** One of at most [parallelism] jobs on the pool that run this view's tasks. */
    private inner class Loop(private var next: Runnable) : RefusalAwareJob {
        /**
         * The pool refused this loop ([ClosedPool.redirect]): its queue is full, or it was shut down. [context] is
         * the coroutine whose dispatch started the loop (or this view, for a loop that re-queues itself): it is
         * cancelled, as the pool's own dispatcher cancels a coroutine it cannot queue. The loop holds tasks the
         * view took before, so it still runs: on the pool, as a timer due at once (timers are queued past the
         * bound), or, once the pool is shut down, on `Dispatchers.IO`, where cancelled coroutines finish.
         */
        override fun refused(context: CoroutineContext, rejection: RejectedExecutionException) {
            val pool = parent.pool
            context.cancel(ClosedPool.cause(pool, rejection))
            if (!pool.isShutdown) {
                try {
                    pool.schedule(this, 0, TimeUnit.MILLISECONDS)
                    return
                } catch (closedMeanwhile: RejectedExecutionException) {
                    // shut down since the look above: the closed pool's way below
                }
            }
            Dispatchers.IO.dispatch(context, this)
        }

        override fun run() {
            var budget = FAIRNESS_BUDGET
            while (true) {
                try {
                    next.run()
                } catch (e: Throwable) {
                    // A coroutine's task handles its own failures; a plain Runnable (asExecutor()) may not.
                    // The loop must survive it, or its slot would be lost.
                    handleCoroutineException(EmptyCoroutineContext, e)
                }
                next = pollOrStop() ?: return
                if (--budget == 0) {
                    // Keep the slot and go to the back of the pool's line (Hazard: `next` is read by whoever runs
                    // this loop next; the dispatch publishes it).
                    upstream.dispatchYield(this@LimitedForageDispatcher, this)
                    return
                }
            }
        }

        override fun toString(): String = "Loop[${this@LimitedForageDispatcher}]"
    }

    private companion object {
        /** Tasks a loop runs before it re-queues itself (kotlinx's LimitedDispatcher uses the same 16). */
        const val FAIRNESS_BUDGET = 16
    }
}
