@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.stress

import dev.forage.coroutines.engine.EngineSettings
import dev.forage.coroutines.engine.JecCounters
import dev.forage.coroutines.engine.Registry
import dev.forage.coroutines.engine.SpinLatch
import dev.forage.coroutines.engine.WorkDeque
import dev.forage.coroutines.engine.currentWorker
import dev.forage.coroutines.engine.nanoTime
import dev.forage.coroutines.engine.startWorkerThread
import kotlin.concurrent.atomics.AtomicBoolean
import kotlin.concurrent.atomics.AtomicInt
import kotlin.concurrent.atomics.AtomicLong
import kotlin.concurrent.atomics.AtomicReference
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlin.concurrent.atomics.incrementAndFetch
import kotlin.random.Random
import kotlinx.coroutines.Runnable

/**
 * The races the JVM pins with jcstress, driven on the native engine: each runs many rounds, each round lands one
 * event (a post, a latch set) at a random point of a worker's way to sleep or to retirement, and checks the one
 * thing a lost wake-up or a double take would break. A round fails as soon as its bad state has lasted [STUCK]:
 * a correct engine leaves that state within microseconds (docs/sleep.md, section 4.3), so the check does not wait
 * for a hang.
 */
internal class Race(
    val name: String,
    val threads: Int,
    /** The engine it runs on: [Variant.CORRECT], or one with a step broken. */
    val variant: Variant = Variant.CORRECT,
    /** The pool's stack bound: 0 makes every wait inside a job block outside the sleep protocol. */
    val maxHelpDepth: Int = EngineSettings.DEFAULT_MAX_HELP_DEPTH,
    /** Whether the variant is broken in a way this race must catch. */
    val mustFail: Boolean,
    val body: (RaceRun) -> String?,
)

/** One run of a race: until [deadline], with a progress counter the watchdog reads. */
internal class RaceRun(val race: Race, val deadline: Long, val progress: AtomicLong) {
    val random = Random(nanoTime())
    var rounds = 0L

    fun timeLeft(): Boolean = nanoTime() < deadline

    fun round() {
        rounds++
        progress.incrementAndFetch()
    }

    fun pool(keepAliveNanos: Long = 0L): Registry =
        race.variant.pool("stress", race.threads, keepAliveNanos, race.maxHelpDepth)
}

/** How long a bad state must last to count as a lost wake-up. */
internal const val STUCK: Long = 100_000_000L

/** Spins about [nanos]: puts the next event at a random point of the other threads' paths. */
internal fun spinFor(nanos: Long) {
    val until = nanoTime() + nanos
    while (nanoTime() < until) { /* spin */ }
}

/**
 * Waits until [done]; returns a description if [bad] held without a break for [STUCK] first, or if nothing
 * finished within [limit] (a hang the bad-state check did not recognise).
 */
internal fun awaitOrStuck(done: () -> Boolean, bad: () -> Boolean, describe: () -> String, limit: Long = 10_000_000_000L): String? {
    val start = nanoTime()
    var badSince = -1L
    while (!done()) {
        val now = nanoTime()
        if (bad()) {
            if (badSince < 0) badSince = now
            if (now - badSince >= STUCK) return "stuck for ${STUCK / 1_000_000} ms: ${describe()}"
        } else {
            badSince = -1L
        }
        if (now - start > limit) return "no progress in ${limit / 1_000_000_000} s: ${describe()}"
    }
    return null
}

internal fun allBlocked(pool: Registry): Boolean = (0 until pool.settings.threads).all { pool.sleep.isBlocked(it) }

internal fun describe(pool: Registry): String =
    "${pool.sleep.counters}, blocked=${(0 until pool.settings.threads).map { pool.sleep.isBlocked(it) }}, " +
        "queued=${pool.queuedJobs()}, live=${pool.liveThreads()}, retired=${pool.retiredWorkers()}"

/**
 * Pair A / B: an outside post against a worker falling asleep. Bad state: a job queued while every worker is
 * blocked, after the post returned.
 */
internal fun postVsSleep(run: RaceRun): String? {
    val pool = run.pool()
    val ran = AtomicLong(0L)
    try {
        var posted = 0L
        while (run.timeLeft()) {
            // The worker that ran the last job is on its way to sleep: S1, one search, S2 take a few microseconds.
            // Every other round waits for S1 (the JEC turned even) and posts within the next 3 µs, which puts the
            // post near the search between S1 and S2 far more often than a uniform delay does.
            if (posted % 2 == 0L) {
                val until = nanoTime() + 50_000L
                while (!JecCounters.isJecSleepy(pool.sleep.counters.load()) && nanoTime() < until) { /* S1 */ }
                spinFor(run.random.nextLong(0L, 3_000L))
            } else {
                spinFor(run.random.nextLong(0L, 10_000L))
            }
            pool.submit(Runnable { ran.incrementAndFetch() })
            posted++
            val target = posted
            awaitOrStuck({ ran.load() == target }, { pool.hasQueuedJobs() && allBlocked(pool) }, { describe(pool) })
                ?.let { return "round $posted: $it" }
            run.round()
        }
        return null
    } finally {
        releaseStuck(pool)
    }
}

/**
 * Pair D: a latch set from outside against its owner going to sleep on it. Bad state: the latch is set and its
 * owner is still blocked.
 */
internal fun latchSetVsSleep(run: RaceRun): String? {
    val pool = run.pool()
    try {
        while (run.timeLeft()) {
            val latch = AtomicReference<SpinLatch?>(null)
            val owner = AtomicInt(-1)
            val done = AtomicBoolean(false)
            pool.submit(Runnable {
                val worker = currentWorker()!!
                val mine = SpinLatch(pool.sleep, worker.index)
                owner.store(worker.index)
                latch.store(mine)
                worker.waitUntil(mine, worker.dequeFloor())
                done.store(true)
            })
            while (latch.load() == null) { /* the job is about to wait */ }
            spinFor(run.random.nextLong(0L, 40_000L))
            latch.load()!!.set()
            awaitOrStuck({ done.load() }, { pool.sleep.isBlocked(owner.load()) }, { describe(pool) })
                ?.let { return "round ${run.rounds}: latch set, owner ${owner.load()} never woke: $it" }
            run.round()
        }
        return null
    } finally {
        releaseStuck(pool)
    }
}

/**
 * The waker's decrement: after each wake-up and the pool's return to sleep, the counters word must count exactly
 * the blocked workers (sleeping = inactive = threads). A waker that un-blocks without decrementing leaves a
 * sleeper counted that is not asleep.
 */
internal fun wakerDecrement(run: RaceRun): String? {
    val pool = run.pool()
    val ran = AtomicLong(0L)
    try {
        var posted = 0L
        while (run.timeLeft()) {
            pool.submit(Runnable { ran.incrementAndFetch() })
            posted++
            val target = posted
            awaitOrStuck({ ran.load() == target }, { false }, { describe(pool) })?.let { return "round $posted: $it" }
            awaitOrStuck({ allBlocked(pool) }, { false }, { describe(pool) })?.let { return "round $posted: $it" }
            val c = pool.sleep.counters.load()
            val threads = pool.settings.threads
            if (JecCounters.sleepingThreads(c) != threads || JecCounters.inactiveThreads(c) != threads) {
                return "round $posted: every worker is blocked but the word says ${pool.sleep.counters}"
            }
            run.round()
        }
        return null
    } finally {
        releaseStuck(pool)
    }
}

/**
 * Retirement against a post (docs/sleep.md 9.1): a keep-alive of a few microseconds makes workers retire between
 * almost every pair of posts. Bad state: a job queued while no worker thread is left.
 *
 * The race's window opens when the idle worker's keep-alive park ends, so each post comes after a random spin of up
 * to one and a half times the time an idle worker takes to retire here, measured every 64th round. Under Wine a
 * timed park of 20 us lasts far longer than on Linux, and with spins of a fixed 0 to 80 us nearly every post came
 * before the park ended: the broken variant ran 461,141 rounds in 30 s without being caught.
 */
internal fun retireVsPost(run: RaceRun): String? {
    val pool = run.pool(keepAliveNanos = 20_000L)
    val ran = AtomicLong(0L)
    try {
        var posted = 0L
        var retirements = 0L
        var spanNanos = 80_000L
        while (run.timeLeft()) {
            if (posted % 64 == 0L) {
                val idleSince = nanoTime()
                while (pool.retiredWorkers() == 0 && nanoTime() - idleSince < 50_000_000L) { /* until it retires */ }
                spanNanos = maxOf(80_000L, (nanoTime() - idleSince) * 3 / 2)
            }
            spinFor(run.random.nextLong(0L, spanNanos))
            if (pool.retiredWorkers() > 0) retirements++
            pool.submit(Runnable { ran.incrementAndFetch() })
            posted++
            val target = posted
            awaitOrStuck({ ran.load() == target }, { pool.hasQueuedJobs() && pool.liveThreads() == 0 }, { describe(pool) })
                ?.let { return "round $posted: $it" }
            run.round()
        }
        if (retirements == 0L) return "no post found a retired worker: the race was never run"
        return null
    } finally {
        releaseStuck(pool)
    }
}

/**
 * The hand-off rule, E2 (docs/sleep.md 3.6): both workers asleep, an outside thread posts job X, which blocks in
 * user code until job Y has run, then Y. X's post wakes a sleeper; Y's post finds that worker counted idle (woken,
 * not yet searching) and wakes nobody, counting on it; it takes X and blocks. Leaving the idle state with Y still
 * queued, it must wake the other sleeper for Y (E2). Bad state: a job queued while every other worker sleeps.
 */
internal fun handOffVsSleep(run: RaceRun): String? {
    val pool = run.pool()
    val abort = AtomicBoolean(false)
    val others = run.race.threads - 1
    try {
        var round = 0L
        while (run.timeLeft()) {
            awaitOrStuck({ allBlocked(pool) }, { false }, { describe(pool) })
                ?.let { return "round $round: the workers did not fall asleep: $it" }
            val yRan = AtomicBoolean(false)
            val xDone = AtomicBoolean(false)
            pool.submit(Runnable {
                while (!yRan.load() && !abort.load()) { /* blocked in user code until Y runs */ }
                xDone.store(true)
            })
            // Y must land after the woken worker took X and before its E1: that window opens a wake-up's latency
            // after X's post (about 10 us here, more on a loaded machine), so the spin spans a few of those.
            spinFor(run.random.nextLong(0L, 30_000L))
            pool.submit(Runnable { yRan.store(true) })
            awaitOrStuck(
                { xDone.load() },
                { !yRan.load() && pool.hasQueuedJobs() && (0 until run.race.threads).count { pool.sleep.isBlocked(it) } == others },
                { describe(pool) },
            )?.let { return "round $round: $it" }
            round++
            run.round()
        }
        return null
    } finally {
        abort.store(true)
        releaseStuck(pool)
    }
}

/**
 * A timer against retirement (docs/sleep.md 9.1): a keep-alive of a few microseconds makes the workers retire
 * between the timers, which are set at random points of that way (some before the last worker retired, some
 * after), each a little later than the keep-alive. A worker must not retire while a timer is pending, and a timer
 * set after the last one retired must bring one back. Bad state: a timer past its deadline while no worker thread
 * is left.
 */
internal fun timerVsRetire(run: RaceRun): String? {
    val pool = run.pool(keepAliveNanos = 20_000L)
    try {
        var set = 0L
        var afterRetirement = 0L
        while (run.timeLeft()) {
            if (afterRetirement == 0L && set % 8 == 7L) {
                // Every eighth timer, until one has been set after retirement, waits for the workers to retire
                // first: where threads exit slowly (mingwX64 under Wine) the random spins alone ran a whole window
                // without once finding every worker gone, and the race's second half was never run.
                awaitOrStuck({ pool.liveThreads() == 0 }, { false }, { describe(pool) }, limit = 1_000_000_000L)
                    ?.let { return "timer $set: the workers did not retire within 1 s of a 20 us keep-alive: $it" }
            } else {
                spinFor(run.random.nextLong(0L, 80_000L))
            }
            if (pool.liveThreads() == 0) afterRetirement++
            val fired = AtomicBoolean(false)
            val delay = run.random.nextLong(0L, 60_000L)
            val due = nanoTime() + delay
            pool.schedule(delay, { fired.store(true) }, { })
            set++
            awaitOrStuck({ fired.load() }, { nanoTime() > due && pool.liveThreads() == 0 }, { describe(pool) })
                ?.let { return "timer $set: $it" }
            run.round()
        }
        if (afterRetirement == 0L) return "no timer was set after the workers retired: the race was never run"
        return null
    } finally {
        releaseStuck(pool)
    }
}

/**
 * close() against an outside submission, on pools whose only worker has retired (docs/lifecycle.md, "Shutdown"):
 * every job that [Registry.submit] accepted must have run when close() returns. Bad state (checked once close
 * returned): a job accepted and never run.
 *
 * The window is narrow: the submission must be admitted before C1 and publish its job after it, about the time of
 * one push. One submitter thread serves every round (a thread's start takes far longer than that window, and
 * under an emulator far longer still), both sides start from one flag, and the closer's head start ([bias])
 * follows the outcomes: a refusal moves close() later, an acceptance earlier, so that about half the submissions
 * are accepted and their pushes straddle C1 instead of landing all before or all after it.
 */
internal fun closeVsSubmit(run: RaceRun): String? {
    val pool = AtomicReference<Registry?>(null)
    val ran = AtomicReference(AtomicBoolean(false))
    val started = AtomicLong(0L) // the round the submitter may submit in
    val finished = AtomicLong(0L) // the last round it submitted in
    val took = AtomicInt(-1) // 0: refused, 1: accepted
    val submitterSpin = AtomicLong(0L)
    val stop = AtomicBoolean(false)
    startWorkerThread("stress-submitter") {
        var seen = 0L
        while (!stop.load()) {
            val r = started.load()
            if (r == seen) continue
            seen = r
            spinFor(submitterSpin.load())
            val flag = ran.load()
            took.store(if (pool.load()!!.submit(Runnable { flag.store(true) })) 1 else 0)
            finished.store(r)
        }
    }
    var rounds = 0L
    var accepted = 0L
    var bias = 0L // nanoseconds the closer waits after the submitter (negative: the submitter waits)
    try {
        while (run.timeLeft()) {
            val p = run.pool(keepAliveNanos = 1_000L)
            awaitOrStuck({ p.liveThreads() == 0 && p.retiredWorkers() == run.race.threads }, { false }, { describe(p) })
                ?.let { return "round $rounds: the workers did not retire: $it" }
            val flag = AtomicBoolean(false)
            ran.store(flag)
            pool.store(p)
            submitterSpin.store(maxOf(0L, -bias) + run.random.nextLong(0L, 2_000L))
            val closerSpin = maxOf(0L, bias) + run.random.nextLong(0L, 2_000L)
            rounds++
            started.store(rounds)
            spinFor(closerSpin)
            p.close()
            while (finished.load() != rounds) { /* the submitter's verdict */ }
            if (took.load() == 1) {
                accepted++
                bias -= BIAS_STEP
                // close() returned: every accepted job has run by now, or never will.
                if (!flag.load()) return "round $rounds: a job accepted while the pool closed never ran (${describe(p)})"
            } else {
                bias += BIAS_STEP
            }
            run.round()
        }
    } finally {
        stop.store(true)
    }
    if (accepted == 0L) return "no submission was accepted in $rounds rounds: the race was never run"
    return null
}

/** How far one outcome moves the closer's head start in [closeVsSubmit]. */
private const val BIAS_STEP = 100L

/**
 * Steal against the owner's pop of the last job: the owner pushes one job and pops it while a thief steals; the
 * job must be taken exactly once.
 */
internal fun stealVsPop(run: RaceRun): String? {
    val deque = run.race.variant.deque()
    val round = AtomicLong(0L) // the round the thief may steal in
    val thiefDone = AtomicLong(0L)
    val thiefTook = AtomicInt(0)
    val stop = AtomicBoolean(false)
    val job = Runnable { }
    startWorkerThread("stress-thief") {
        var seen = 0L
        while (!stop.load()) {
            val r = round.load()
            if (r == seen) continue
            seen = r
            var took = 0
            var retries = 0
            while (true) {
                val j = deque.steal()
                if (j === WorkDeque.RETRY) {
                    // A correct deque settles a lost race at once; one left with a taken slot between top and bottom
                    // (a pop that skipped the CAS but cleared the slot) would retry forever.
                    if (++retries < 1_000_000) continue
                    took = -1
                    break
                }
                if (j != null) took = 1
                break
            }
            thiefTook.store(took)
            thiefDone.store(r)
        }
    }
    try {
        var r = 0L
        while (run.timeLeft()) {
            r++
            deque.push(job)
            round.store(r)
            spinFor(run.random.nextLong(0L, 2_000L))
            val ownerTook = if (deque.pop() != null) 1 else 0
            while (thiefDone.load() != r) { /* the thief's attempt for this round */ }
            if (thiefTook.load() < 0) return "round $r: the thief's steal never settled: the deque is left inconsistent (owner took $ownerTook)"
            val takes = ownerTook + thiefTook.load()
            if (takes != 1) return "round $r: the last job was taken $takes times (owner $ownerTook, thief ${thiefTook.load()})"
            if (!deque.isEmpty()) return "round $r: the deque is not empty after its only job was taken"
            run.round()
        }
        return null
    } finally {
        stop.store(true)
    }
}

/**
 * Closes [pool] even when a broken variant left workers blocked that nothing will wake (a latch set without its
 * wake-up never ends the sleep): the close runs on a thread of its own while this one wakes every blocked worker
 * until the threads have ended, for at most 10 s.
 */
private fun releaseStuck(pool: Registry) {
    startWorkerThread("stress-close") { pool.close() }
    val until = nanoTime() + 10_000_000_000L
    val releases = pool.sleep as? Releases
    while (pool.liveThreads() > 0 && nanoTime() < until) {
        pool.sleep.wakeAnyThreads(pool.settings.threads)
        if (releases != null) for (i in 0 until pool.settings.threads) releases.release(i)
    }
}
