package dev.forage;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The retirement of idle core workers' threads ({@code docs/lifecycle.md}, "Retirement"): a core worker idle in its
 * top-level loop for the keep-alive leaves the idle state (the sleep protocol then counts it busy) and its thread
 * ends; the worker itself (its deque, its slot) stays, {@link #RETIRED}. Any post brings one retired worker back
 * with a new thread, which starts the worker loop afresh. Not part of the sleep protocol: a retired worker is one
 * the protocol does not count on, and this class makes sure a post cannot be left to it.
 *
 * <p>The race between the last worker retiring and a job being posted is a Dekker pair of mirrored steps:
 * <ol>
 *   <li>R1: the worker marks itself RETIRED and adds one to {@link #retired} (a volatile read-modify-write);</li>
 *   <li>R2: it looks once more for queued jobs and pending timers (volatile reads) and stays if it finds any.</li>
 * </ol>
 * <ol>
 *   <li>P1: a poster pushes its job (a volatile write: the deque's bottom, the injector's claim CAS, the timer
 *       queue's earliest deadline);</li>
 *   <li>P2: the sleep protocol's post;</li>
 *   <li>P3: it reads {@link #retired} ({@link #claimRetired}) and, if it is not zero, brings one worker back.</li>
 * </ol>
 * Volatile accesses are totally ordered, so either R2 sees the job or P3 sees the count. Whoever takes a RETIRED
 * worker (a post, shutdown, or the retiring thread changing its mind in R2) decides by a CAS on its state, so
 * exactly one does. jcstress {@code RetireVsPost} pins the pair.
 *
 * <p>A worker at or above the pool's run-time parallelism is {@link #SHED} ({@link Resize}, which holds that
 * protocol): it has no thread, and P3 never takes it ({@link #claimRetired(int)} looks below the parallelism only);
 * only a grow or shutdown does, by a CAS as well.
 */
final class Retirement {
    /** A thread runs the worker (or is about to). */
    static final int RUNNING = 0;
    /** The worker's thread retired: no thread until a post brings it back. */
    static final int RETIRED = 1;
    /** A retired worker that shutdown counted out: it never runs again. */
    static final int ENDED = 2;
    /**
     * At or above the parallelism ({@link Resize}): no thread, not counted in {@link #retired}, and no post brings
     * it back; a grow or shutdown takes it. A pool's workers above its first parallelism start here.
     */
    static final int SHED = 3;

    private static final AtomicIntegerFieldUpdater<Retirement> RETIRED_COUNT =
            AtomicIntegerFieldUpdater.newUpdater(Retirement.class, "retired");

    private final AtomicIntegerArray states;
    /** Workers in state RETIRED, give or take one in transition; P3 reads it after every post. */
    private volatile int retired;

    Retirement(int coreWorkers) {
        this(coreWorkers, coreWorkers);
    }

    /** For {@code coreWorkers} workers, those from {@code running} on SHED: a grow gives them threads. */
    Retirement(int coreWorkers, int running) {
        this.states = new AtomicIntegerArray(coreWorkers);
        for (int i = running; i < coreWorkers; i++) {
            states.set(i, SHED);
        }
    }

    /** What R2 asks: is there anything a worker must stay for? */
    interface WorkCheck {
        boolean workLeft();
    }

    /**
     * R1 and R2, on the thread of worker {@code index}, idle for the keep-alive and no longer counted idle. True:
     * the thread must end now without touching the worker again (a post may already have given it a new thread).
     * False: work or shutdown came in meanwhile, and the thread goes back to the worker loop.
     */
    boolean retire(int index, WorkCheck check) {
        states.set(index, RETIRED);
        RETIRED_COUNT.incrementAndGet(this); // R1
        // Hazard: from here a post may restart this worker with a new thread; R2 reads only pool-wide state.
        if (!check.workLeft()) {
            return true;
        }
        if (states.compareAndSet(index, RETIRED, RUNNING)) {
            RETIRED_COUNT.decrementAndGet(this);
            return false;
        }
        return true; // a post or shutdown took the worker over
    }

    /** {@link #claimRetired(int)} over every worker: for a pool whose parallelism never changes. */
    int claimRetired() {
        return claimRetired(states.length());
    }

    /**
     * P3, after a post: if any worker below {@code parallelism} is retired, takes one (RETIRED to RUNNING) and
     * returns its index, for the caller to start a thread for it; otherwise -1. One read of {@link #retired} when
     * none is. A retired worker at or above the parallelism is on its way to SHED ({@link Resize#retired}).
     */
    int claimRetired(int parallelism) {
        if (retired == 0) {
            return -1;
        }
        for (int i = 0, n = Math.min(states.length(), parallelism); i < n; i++) {
            if (states.get(i) == RETIRED && states.compareAndSet(i, RETIRED, RUNNING)) {
                RETIRED_COUNT.decrementAndGet(this);
                return i;
            }
        }
        return -1;
    }

    /** Whether {@link #claimRetired} may find a worker: the read P3 makes first. */
    boolean anyRetired() {
        return retired != 0;
    }

    /** A claimed worker could not get a thread: it is retired again, for the next post to try. */
    void restartFailed(int index) {
        states.set(index, RETIRED);
        RETIRED_COUNT.incrementAndGet(this);
    }

    /**
     * Shutdown, after it published the SHUTDOWN bit: counts worker {@code index} out if it is retired; true if it
     * did (the caller accounts for the thread that will not end). A worker that retires later sees the bit in R2.
     */
    boolean endIfRetired(int index) {
        if (states.get(index) == RETIRED && states.compareAndSet(index, RETIRED, ENDED)) {
            RETIRED_COUNT.decrementAndGet(this);
            return true;
        }
        return false;
    }

    /**
     * Shutdown, after it published the SHUTDOWN bit: counts worker {@code index} out if it is SHED; true if it did.
     * A worker that leaves later sees the bit in L2 ({@link Resize}).
     */
    boolean endIfShed(int index) {
        return states.get(index) == SHED && states.compareAndSet(index, SHED, ENDED);
    }

    /** N2 and the retired side of it ({@link Resize}): a RETIRED worker becomes SHED; true if this call did it. */
    boolean shedIfRetired(int index) {
        if (states.get(index) == RETIRED && states.compareAndSet(index, RETIRED, SHED)) {
            RETIRED_COUNT.decrementAndGet(this);
            return true;
        }
        return false;
    }

    /** L1, on the worker's own thread, RUNNING: it marks itself SHED (a volatile write). */
    void shed(int index) {
        states.set(index, SHED);
    }

    /**
     * W2 of a grow, and L2 of a worker that stays ({@link Resize}): takes a SHED worker back to RUNNING; true if this
     * call did. The caller then runs the worker (its own thread) or starts a thread for it.
     */
    boolean unshed(int index) {
        return states.compareAndSet(index, SHED, RUNNING);
    }

    /** Worker {@code index}'s state; for tests and statistics. */
    int state(int index) {
        return states.get(index);
    }

    /** Workers retired now; a snapshot. */
    int retiredCount() {
        return retired;
    }
}
