@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.contract

import dev.forage.coroutines.engine.EngineSettings
import dev.forage.coroutines.engine.Injector
import dev.forage.coroutines.engine.JecCounters
import dev.forage.coroutines.engine.Registry
import dev.forage.coroutines.engine.Timers
import dev.forage.coroutines.engine.WorkDeque
import dev.forage.coroutines.engine.currentWorker
import dev.forage.coroutines.engine.Worker
import dev.forage.coroutines.engine.nanoTime
import dev.forage.coroutines.engine.startWorkerThread
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicIntArray
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.incrementAndFetch
import kotlin.concurrent.atomics.incrementAndFetchAt
import kotlin.random.Random
import kotlinx.coroutines.Runnable

/**
 * Checks of the native engine's parts and of the ways users break a pool, run after the contract suite by the
 * same program (`nativeTest` is a friend of the engine's klib). Waits are on conditions, each bounded so that a
 * broken engine fails instead of hanging.
 */
fun engineChecks(): List<ContractCase> = listOf(
    ContractCase("engine: the counters word keeps its three fields apart, and the JEC wraps without a carry") {
        val c = JecCounters()
        repeat(3) { c.addInactiveThread() }
        checkTrue(c.tryAddSleepingThread(c.load()), "S2's CAS on an unchanged word")
        var w = c.load()
        checkEquals(1, JecCounters.sleepingThreads(w), "sleeping")
        checkEquals(3, JecCounters.inactiveThreads(w), "inactive")
        checkEquals(2, JecCounters.awakeButIdleThreads(w), "awake but idle")
        checkTrue(JecCounters.isJecSleepy(w), "a fresh JEC is even (sleepy)")
        w = c.incrementJecIfSleepy()
        checkTrue(!JecCounters.isJecSleepy(w), "a post makes it odd")
        checkEquals(w, c.incrementJecIfSleepy(), "a second post with the JEC odd writes nothing")
        checkTrue(JecCounters.isJecSleepy(c.incrementJecIfActive()), "S1 makes it even again")
        val top = (0xFFFF_FFFFL shl 32) or (3L shl 16) or 1L
        val wrapped = top + JecCounters.ONE_JEC
        checkEquals(0L, JecCounters.jec(wrapped), "the JEC after 2^32 - 1")
        checkEquals(3, JecCounters.inactiveThreads(wrapped), "inactive across the wrap")
        checkEquals(1, JecCounters.sleepingThreads(wrapped), "sleeping across the wrap")
    },
    ContractCase("engine: timers fire in deadline order, a cancelled one never, and close hands out the rest") {
        val timers = Timers()
        val random = Random(42)
        val deadlines = LongArray(500) { random.nextLong(1_000L, 1_000_000L) }
        val fired = ArrayList<Int>()
        val made = (0 until 500).map { i -> timers.add(deadlines[i], { fired.add(i) }, { }).first }
        val cancelled = (0 until 500).filter { it % 3 == 0 }
        for (i in cancelled) checkTrue(timers.cancel(made[i]), "a pending timer is cancelled")
        checkTrue(!timers.cancel(made[0]), "a cancelled timer cannot be cancelled twice")
        checkEquals(500 - cancelled.size, timers.count(), "cancelled timers leave the heap at once")
        for (t in timers.takeDue(500_000L)) t.action()
        val firedDeadlines = fired.map { deadlines[it] }
        checkEquals(firedDeadlines.sorted(), firedDeadlines, "due timers come earliest first")
        checkTrue(firedDeadlines.all { it <= 500_000L }, "only due timers fired")
        checkEquals((0 until 500).count { it % 3 != 0 && deadlines[it] <= 500_000L }, fired.size, "every due timer fired")
        val rest = timers.drain()
        checkEquals(500 - cancelled.size - fired.size, rest.size, "close hands out every timer left")
        checkEquals(0, timers.count(), "nothing is left after the drain")
        checkTrue(cancelled.none { it in fired }, "no cancelled timer fired")
    },
    ContractCase("engine: the deque grows past its first buffer, pops newest first, and thieves take oldest first") {
        val deque = WorkDeque()
        val jobs = (0 until 1000).map { Runnable { } }
        for (j in jobs) deque.push(j)
        checkEquals(1000, deque.size(), "size after 1000 pushes")
        checkTrue(deque.steal() === jobs[0], "a thief takes the oldest")
        checkTrue(deque.pop() === jobs[999], "the owner takes the newest")
        var n = 2
        while (deque.pop() != null) n++
        checkEquals(1000, n, "every job taken once")
        checkTrue(deque.isEmpty() && deque.pop() == null && deque.steal() == null, "empty afterwards")
    },
    ContractCase("engine: the deque keeps no job it handed out (a finished coroutine is not kept reachable)") {
        for (broken in listOf(false, true)) {
            val deque = if (broken) KeepsTakenJobs() else WorkDeque()
            repeat(3) { // popped, stolen, and the two mixed, across the ring's wrap
                repeat(200) { deque.push(Runnable { }) }
                repeat(100) { deque.pop() }
                while (deque.steal().let { it != null }) { /* thieves' share, RETRY included */ }
            }
            checkTrue(deque.pop() == null, "empty")
            val held = deque.slotsHoldingJobs()
            if (!broken) {
                // The lazy clearing must skip slots the ring already reused: 31 taken, 254 more queued (the ring
                // of 256 wraps), 69 more taken, then a push clears the first 100: the queued jobs 256 to 284 sit
                // in the slots of 0 to 28.
                val ring = WorkDeque()
                val queued = (0 until 286).map { Runnable { } }
                for (i in 0 until 31) ring.push(queued[i])
                repeat(31) { checkTrue(ring.steal() === queued[it], "steal $it") }
                for (i in 31 until 285) ring.push(queued[i])
                repeat(69) { checkTrue(ring.steal() === queued[31 + it], "steal ${31 + it}") }
                ring.push(queued[285])
                var retries = 0
                for (i in 100 until 286) {
                    var job = ring.steal()
                    while (job === WorkDeque.RETRY && retries < 1000) {
                        retries++
                        job = ring.steal()
                    }
                    checkTrue(job === queued[i], "job $i after the ring wrapped and a push cleared taken slots")
                }
                checkTrue(ring.steal() == null, "every queued job taken once")
            }
            if (!broken) {
                checkEquals(0, held, "slots still holding a taken job")
            } else {
                checkTrue(held > 0, "the broken variant that keeps taken jobs is seen by this check ($held held)")
            }
        }
    },
    ContractCase("engine: a timer set after every worker retired fires, and one beyond the keep-alive keeps its watcher") {
        val pool = Registry(EngineSettings("check-timer-retire", 1, keepAliveNanos = 20_000_000L))
        try {
            awaitTrue("the worker retired") { pool.liveThreads() == 0 && pool.retiredWorkers() == 1 }
            val fired = AtomicInt(0)
            pool.schedule(10_000_000L, { fired.incrementAndFetch() }, { })
            awaitTrue("the timer set after the retirement fired") { fired.load() == 1 }
            // A timer five keep-alives away: its watcher's keep-alive passes first, and it must not retire.
            pool.schedule(100_000_000L, { fired.incrementAndFetch() }, { })
            awaitTrue("the timer beyond the keep-alive fired") { fired.load() == 2 }
            checkEquals(0L, pool.uncaughtExceptions(), "failures")
        } finally {
            pool.close()
        }
    },
    ContractCase("engine: close after every worker retired runs the job a submission queued meanwhile") {
        var accepted = 0
        val random = Random(7)
        repeat(100) { round ->
            val pool = Registry(EngineSettings("check-close-retired", 1, keepAliveNanos = 1_000_000L))
            awaitTrue("round $round: the worker retired") { pool.liveThreads() == 0 && pool.retiredWorkers() == 1 }
            val go = AtomicInt(0)
            val closed = AtomicInt(0)
            startWorkerThread("check-closer") {
                while (go.load() == 0) { /* released with the submission */ }
                pool.close()
                closed.store(1)
            }
            val ran = AtomicInt(0)
            go.store(1)
            spinNanos(random.nextLong(0L, 40_000L)) // lands the submission before, during or after the close
            if (pool.submit(Runnable { ran.store(1) })) accepted++ else ran.store(-1)
            awaitTrue("round $round: close returned") { closed.load() == 1 }
            checkTrue(ran.load() != 0, "round $round: an accepted job had not run when close returned")
            checkEquals(0, pool.liveThreads(), "round $round: threads alive after close")
        }
        checkTrue(accepted > 0, "no submission was accepted: the case never ran")
    },
    ContractCase("engine: the deque under one owner and two thieves takes every job exactly once") {
        val deque = WorkDeque()
        val n = 200_000
        val taken = AtomicIntArray(n)
        val ids = (0 until n).map { id -> Runnable { taken.incrementAndFetchAt(id) } }
        val done = AtomicInt(0)
        val stop = AtomicInt(0)
        repeat(2) {
            startWorkerThread("check-thief") {
                while (stop.load() == 0) {
                    val job = deque.steal()
                    if (job != null && job !== WorkDeque.RETRY) job.run()
                }
                done.incrementAndFetch()
            }
        }
        for (i in 0 until n) {
            deque.push(ids[i])
            if (i % 3 == 0) deque.pop()?.run()
        }
        while (true) deque.pop()?.run() ?: break
        val until = nanoTime() + 10_000_000_000L
        while (!deque.isEmpty() && nanoTime() < until) { /* thieves finish their takes */ }
        stop.store(1)
        while (done.load() < 2 && nanoTime() < until) { /* thieves leave */ }
        val counts = (0 until n).map { taken.loadAt(it) }
        checkEquals(0, counts.count { it == 0 }, "jobs never taken")
        checkEquals(0, counts.count { it > 1 }, "jobs taken twice")
    },
    ContractCase("engine: the injector is FIFO and, under two producers and two consumers, loses nothing") {
        val fifo = Injector()
        val order = (0 until 100).map { Runnable { } }
        for (j in order) fifo.push(j)
        checkTrue(order.all { fifo.pop() === it }, "jobs come out in the order they went in")
        checkTrue(fifo.isEmpty() && fifo.pop() == null, "empty afterwards")
        val queue = Injector()
        val perProducer = 100_000
        val ran = AtomicLong(0L)
        val producersDone = AtomicInt(0)
        repeat(2) {
            startWorkerThread("check-producer") {
                repeat(perProducer) { queue.push(Runnable { ran.incrementAndFetch() }) }
                producersDone.incrementAndFetch()
            }
        }
        val consumersDone = AtomicInt(0)
        repeat(2) {
            startWorkerThread("check-consumer") {
                while (producersDone.load() < 2 || !queue.isEmpty()) queue.pop()?.run()
                consumersDone.incrementAndFetch()
            }
        }
        val until = nanoTime() + 30_000_000_000L
        while (consumersDone.load() < 2 && nanoTime() < until) { /* wait */ }
        checkEquals(2L * perProducer, ran.load(), "jobs run")
        checkEquals(0L, queue.size(), "jobs left")
    },
    ContractCase("engine: a job's exception neither ends its worker nor loses the other jobs") {
        val pool = Registry(EngineSettings("check-throws", 2))
        try {
            val ran = AtomicInt(0)
            repeat(100) { i ->
                pool.submit(Runnable {
                    if (i % 10 == 0) throw IllegalStateException("job $i fails on purpose") else ran.incrementAndFetch()
                })
            }
            awaitTrue("the good jobs ran") { ran.load() == 90 }
            // A failing job may still be reporting when the last good one ends: wait for the reports too.
            awaitTrue("the failures were reported") { pool.uncaughtExceptions() >= 10L }
            checkEquals(10L, pool.uncaughtExceptions(), "failures reported")
            checkEquals(2, pool.liveThreads(), "workers alive after 10 failures")
        } finally {
            pool.close()
        }
    },
    ContractCase("engine: close with work still running runs every accepted job, then ends every thread") {
        val pool = Registry(EngineSettings("check-close", 3)) // 3 workers on 2 cores: oversubscribed
        val ran = AtomicInt(0)
        repeat(20_000) { pool.submit(Runnable { spinNanos(2_000L); ran.incrementAndFetch() }) }
        pool.close()
        checkEquals(20_000, ran.load(), "jobs run when close returned")
        checkEquals(0, pool.liveThreads(), "threads alive when close returned")
        checkTrue(!pool.submit(Runnable { }), "a submission after close is refused")
    },
    ContractCase("engine: a job that resubmits itself forever ends with close") {
        val pool = Registry(EngineSettings("check-runaway", 2))
        val runs = AtomicLong(0L)
        lateinit var again: Runnable
        again = Runnable {
            runs.incrementAndFetch()
            pool.submit(again) // refused once the pool is shut down
            pool.submit(again)
        }
        pool.submit(again)
        awaitTrue("the spawner ran") { runs.load() > 10_000 }
        pool.close()
        checkEquals(0, pool.liveThreads(), "threads alive after close")
    },
    ContractCase("engine: idle workers retire after the keep-alive and come back for new work") {
        val pool = Registry(EngineSettings("check-retire", 2, keepAliveNanos = 20_000_000L))
        try {
            val ran = AtomicInt(0)
            repeat(1000) { pool.submit(Runnable { ran.incrementAndFetch() }) }
            awaitTrue("the first jobs ran") { ran.load() == 1000 }
            awaitTrue("every worker retired") { pool.liveThreads() == 0 && pool.retiredWorkers() == 2 }
            repeat(1000) { pool.submit(Runnable { ran.incrementAndFetch() }) }
            awaitTrue("the jobs after the retirement ran") { ran.load() == 2000 }
            checkTrue(pool.liveThreads() >= 1, "a worker came back")
        } finally {
            pool.close()
        }
    },
    ContractCase("engine: join with no cutoff (fib(22)) is right on 1, 2 and 8 workers, with the stack bound at 0, 1 and its default") {
        for (threads in listOf(1, 2, 8)) {
            for (bound in listOf(0, 1, EngineSettings.DEFAULT_MAX_HELP_DEPTH)) {
                val pool = Registry(EngineSettings("check-fib", threads, maxHelpDepth = bound))
                try {
                    checkEquals(17_711L, onWorker(pool) { fibByJoin(it, 22) }, "fib(22) on $threads workers, bound $bound")
                } finally {
                    pool.close()
                }
            }
        }
    },
    ContractCase("engine: a join chain ${Worker.MAX_NESTED_WAITS - 1} deep finishes; one 40,000 deep throws instead of overflowing the stack") {
        val pool = Registry(EngineSettings("check-deep-join", 2))
        try {
            val deepest = Worker.MAX_NESTED_WAITS - 1
            checkEquals(deepest.toLong(), onWorker(pool) { chainByJoin(it, deepest) }, "levels joined")
            var message: String? = null // written on the worker before onWorker's result, read after it
            val thrown = onWorker(pool) {
                try {
                    chainByJoin(it, 40_000)
                    2L // no exception: the check below fails
                } catch (e: IllegalStateException) {
                    message = e.message
                    1L
                }
            }
            checkEquals(1L, thrown, "a chain past the bound throws IllegalStateException")
            checkTrue(message!!.contains("at most ${Worker.MAX_NESTED_WAITS} waits"), "the message names the bound: $message")
            checkEquals(3L, onWorker(pool) { chainByJoin(it, 3) }, "the worker joins again afterwards")
            checkEquals(0L, pool.uncaughtExceptions(), "nothing reported as uncaught")
        } finally {
            pool.close()
        }
    },
    ContractCase("engine: 8 workers on 2 cores run 200,000 jobs from outside and inside exactly once") {
        val pool = Registry(EngineSettings("check-oversubscribed", 8))
        try {
            val n = 100_000
            val counts = AtomicIntArray(2 * n)
            repeat(n) { i ->
                pool.submit(Runnable {
                    counts.incrementAndFetchAt(i)
                    pool.submit(Runnable { counts.incrementAndFetchAt(n + i) }) // from a worker: its own deque
                })
            }
            awaitTrue("every job ran") { (0 until 2 * n).all { counts.loadAt(it) >= 1 } }
            checkEquals(0, (0 until 2 * n).count { counts.loadAt(it) != 1 }, "jobs not run exactly once")
        } finally {
            pool.close()
        }
    },
)

private fun fibByJoin(worker: Worker, n: Int): Long {
    if (n < 2) return n.toLong()
    var a = 0L
    var b = 0L
    worker.join({ a = fibByJoin(currentWorker()!!, n - 1) }, { b = fibByJoin(currentWorker()!!, n - 2) })
    return a + b
}

/** Nested joins in a chain: [depth] levels, each joining the next level with an empty job. */
private fun chainByJoin(worker: Worker, depth: Int): Long {
    if (depth == 0) return 0L
    var below = 0L
    worker.join({ below = chainByJoin(worker, depth - 1) }, { })
    return below + 1
}

/** Runs [body] as a job on one of [pool]'s workers and returns its result (failing the case after 60 s). */
private fun onWorker(pool: Registry, body: (Worker) -> Long): Long {
    val result = AtomicLong(-1L)
    pool.submit(Runnable { result.store(body(currentWorker()!!)) })
    awaitTrue("the job on the worker returned") { result.load() >= 0L }
    return result.load()
}

/** A deque broken on purpose: taken jobs stay in their slots until overwritten, so it keeps finished work reachable. */
private class KeepsTakenJobs : WorkDeque() {
    override fun clearSlot(buf: Buffer, index: Long) = Unit
}

private fun spinNanos(nanos: Long) {
    val until = nanoTime() + nanos
    while (nanoTime() < until) { /* a job of a few microseconds */ }
}

/** Waits until [condition], failing after 30 s: a condition the engine never reaches fails the case. */
private fun awaitTrue(what: String, condition: () -> Boolean) {
    val until = nanoTime() + 30_000_000_000L
    while (!condition()) {
        if (nanoTime() > until) throw ContractFailure("not within 30 s: $what")
    }
}
