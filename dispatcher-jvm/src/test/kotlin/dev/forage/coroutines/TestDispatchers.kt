package dev.forage.coroutines

import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch

/**
 * True when the specs run on IO pools (`-Dforage.test.ioWorkers=true`, the build's second run of the dispatcher
 * specs): every [testDispatcher] then parks its workers in NIO selectors, so the dispatcher's whole behaviour is
 * checked with the selector parker too.
 */
val IO_WORKERS: Boolean = System.getProperty("forage.test.ioWorkers") == "true"

/**
 * A private dispatcher for one test: [threads] workers named `[name]-worker-N`, with IO workers when
 * [IO_WORKERS]. Close it with `use`.
 */
fun testDispatcher(threads: Int, name: String): ForageDispatcher = forageDispatcher {
    this.threads = threads
    this.name = name
    ioWorkers = IO_WORKERS
}

/** Counts the dispatches of coroutines running on it, then hands them to [inner] (timers too). */
@OptIn(InternalCoroutinesApi::class)
class CountingDispatcher(private val inner: ForageDispatcher) : CoroutineDispatcher(), Delay by inner {
    val dispatches = AtomicInteger()

    override fun dispatch(context: CoroutineContext, block: Runnable) {
        dispatches.incrementAndGet()
        inner.dispatch(context, block)
    }
}

/**
 * Occupies every worker of [pool] with a job that blocks until the returned gate is released, and returns once all
 * of them are blocked: work submitted meanwhile queues up in submission order, so a test can start several
 * coroutines "at the same moment".
 */
fun holdAllWorkers(pool: dev.forage.ForagePool): java.util.concurrent.CountDownLatch {
    val gate = java.util.concurrent.CountDownLatch(1)
    val held = java.util.concurrent.CountDownLatch(pool.parallelism())
    repeat(pool.parallelism()) {
        pool.execute {
            held.countDown()
            gate.await()
        }
    }
    check(held.await(WATCHDOG_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
        "not every worker of $pool took a holding job; thread dump:\n${threadDump()}"
    }
    return gate
}

/**
 * Starts one coroutine per id on [dispatcher] while every worker of [pool] is held, so that they queue in this
 * order; each appends its id to the trace and yields, [rounds] times. Returns the trace once all are done.
 */
suspend fun <T> kotlinx.coroutines.CoroutineScope.yieldTrace(
    pool: dev.forage.ForagePool,
    dispatcher: CoroutineDispatcher,
    ids: List<T>,
    rounds: Int,
): List<T> {
    val trace = java.util.Collections.synchronizedList(mutableListOf<T>())
    val gate = holdAllWorkers(pool)
    val jobs = ids.map { id ->
        launch(dispatcher) {
            repeat(rounds) {
                trace += id
                kotlinx.coroutines.yield()
            }
        }
    }
    gate.countDown()
    jobs.joinAll()
    return trace.toList()
}
