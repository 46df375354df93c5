package dev.forage;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The run-time parallelism of a pool with threads ({@link ForagePool#setParallelism}; {@code docs/lifecycle.md},
 * "Run-time parallelism"). The pool has {@code max} core workers, made when it was built
 * ({@link ForagePoolBuilder#maxParallelism}); workers {@code 0 .. parallelism-1} are in use, the others are
 * <i>shed</i>: {@link Retirement#SHED}, no thread, and no post brings them back. Each core worker's top-level wait
 * is on its <i>stop latch</i>, which shutdown and a shrink set; only the worker's own thread replaces a set one.
 *
 * <p>The steps, mirrored like {@link Retirement}'s R1/R2 and P1 to P3. A shrink to {@code q}, under this object's
 * monitor:
 * <ol>
 *   <li>N1: writes {@code parallelism = q} (volatile);</li>
 *   <li>N2: for each worker {@code i >= q}: a RETIRED one becomes SHED (a CAS; it has no thread to tell), then its
 *       stop latch is set: a running worker leaves after its current job, a sleeping one is woken through the
 *       latch (the targeted wake-up of {@code docs/sleep.md} section 5, so the waker un-counts its sleep).</li>
 * </ol>
 * The worker's thread, its top-level wait ended on the set latch, no longer counted idle (it left through
 * {@code workFound}, with the hand-off rule), and its busy spell ended:
 * <ol>
 *   <li>L1: marks itself SHED (a volatile write): from here a grow or shutdown may take the worker over;</li>
 *   <li>L2: reads the SHUTDOWN bit and the parallelism; if either says stay, takes itself back by a CAS (SHED to
 *       RUNNING) and goes back to its loop, else (or if the CAS failed) its thread ends;</li>
 *   <li>L3: if a job is queued anywhere (its own deque included, whose jobs the others steal) or a timer is
 *       pending, it posts once (P2 and P3): a post whose wake-up went to this worker is passed on.</li>
 * </ol>
 * A grow to {@code q}, under the monitor:
 * <ol>
 *   <li>W1: raises the slots that searches scan to {@code q}, then writes {@code parallelism = q};</li>
 *   <li>W2: for each worker {@code i} it adds, takes it by the same CAS (SHED to RUNNING) and starts a thread for
 *       it; a worker still RUNNING is leaving or staying, and stays (L2 reads {@code q}); a RETIRED one is the
 *       pool's again, for the next post's P3.</li>
 * </ol>
 * The pairs: W1 then W2's CAS against L1 then L2's read; volatile accesses are totally ordered, so either W2 finds
 * SHED or L2 reads {@code q}, and if both, one CAS wins: never a worker in use without a thread, never two threads
 * for one worker (jcstress {@code GrowVsLeave}). N1 then N2's CAS against R1 then the read of the parallelism that
 * follows it ({@link #retire}): either N2 finds RETIRED or the retiring thread reads {@code q}, so no worker stays
 * RETIRED (counted, claimable) above the parallelism (jcstress {@code ShrinkVsRetire}). A fresh stop latch against
 * N1/N2 and against shutdown: {@link #topLevelLatch} (jcstress {@code ShrinkVsFreshLatch}). The proof that no post
 * is left to a leaving worker, and that the sleep protocol's counts stay right: {@code docs/lifecycle.md}.
 */
final class Resize {
    private final Pool pool;
    private final Retirement retirement;
    private final LatchWaker waker;
    private final AtomicReferenceArray<SpinLatch> stops;
    /** An IO pool's parallelism stays: each IO worker owns a selector and the channels registered with it. */
    private final boolean ioWorkers;
    /** Workers {@code 0 .. parallelism-1} are in use; written under the monitor (N1, W1), read anywhere. */
    private volatile int parallelism;

    /** What the steps need of the pool: {@link ThreadedRunner}, or a race test's stand-in. */
    interface Pool extends Retirement.WorkCheck {
        String name();

        boolean isShutdown();

        /** P2 and P3 of one job already queued (L3). */
        void post();

        /** W1: searches scan the first {@code slots} deques from now on. */
        void raiseSlotsInUse(int slots);

        /** W2: a new thread for worker {@code index}, just claimed; on failure the worker is left RETIRED. */
        void startThread(int index);

        /**
         * {@code delta} core workers left SHED (+1) or became SHED (-1): the workers that may still run after
         * shutdown, of which the last stays for pending timers ({@link ThreadedShutdown}), count no shed one.
         */
        void liveWorkers(int delta);
    }

    /** {@code max} core workers, the first {@code parallelism} in use. */
    Resize(Pool pool, Retirement retirement, LatchWaker waker, int parallelism, int max, boolean ioWorkers) {
        this.pool = pool;
        this.retirement = retirement;
        this.waker = waker;
        this.ioWorkers = ioWorkers;
        this.parallelism = parallelism;
        this.stops = new AtomicReferenceArray<>(max);
        for (int i = 0; i < max; i++) {
            stops.set(i, new SpinLatch(waker, i));
        }
    }

    /**
     * The builder's {@code maxParallelism}, checked against its other settings (0 when unset: the thread count).
     * Here rather than in the builder: what may resize is this class's rule.
     */
    static int checkMax(PoolSettings settings) {
        int max = settings.maxParallelism;
        if (max == 0) {
            return 0;
        }
        if (settings.threads == 0) {
            throw new IllegalArgumentException("maxParallelism(" + max + ") needs worker threads, and "
                    + "singleThreaded() asks for none; allowed: maxParallelism(max) with threads(n), n <= max");
        }
        if (max < settings.threads) {
            throw new IllegalArgumentException("maxParallelism (" + max + ") is below threads (" + settings.threads
                    + "); allowed: from the thread count to " + JecCounters.THREADS_MAX);
        }
        if (settings.ioWorkers && max > settings.threads) {
            // Worded for both builders: the Java methods and the Kotlin DSL's properties share these names.
            throw new IllegalArgumentException("maxParallelism (" + max + ") above threads (" + settings.threads
                    + ") with ioWorkers: an IO worker owns its selector's channels; allowed: maxParallelism equal "
                    + "to threads, or no ioWorkers");
        }
        return max;
    }

    int parallelism() {
        return parallelism;
    }

    /** Shutdown, after it published the SHUTDOWN bit: every core worker's top-level wait ends. */
    void stopAll() {
        for (int i = 0, n = stops.length(); i < n; i++) {
            stops.get(i).set();
        }
    }

    /** Worker {@code index}'s stop latch now; for a start that failed, and tests. */
    SpinLatch stop(int index) {
        return stops.get(index);
    }

    /**
     * {@link ForagePool#setParallelism}: checks {@code target} and the pool, shrinks or grows, and returns the
     * parallelism before. One resize at a time; a resize and shutdown may meet (both steps read the other's word).
     */
    synchronized int set(int target) {
        if (ioWorkers) {
            throw new UnsupportedOperationException("setParallelism: pool " + pool.name() + " has ioWorkers, "
                    + "each owning its selector's channels; allowed: resizing a pool without ioWorkers");
        }
        int max = stops.length();
        if (target < 1 || target > max) {
            // The setting's name only, not a builder's call: Java (maxParallelism(n)) and Kotlin
            // (forageDispatcher { maxParallelism = n }) both set it under that name.
            throw new IllegalArgumentException("setParallelism: parallelism must be between 1 and " + max
                    + " (pool " + pool.name() + "'s maxParallelism, set when it is built), was " + target);
        }
        if (pool.isShutdown()) {
            throw new IllegalStateException("setParallelism: pool " + pool.name() + " is shut down; allowed: "
                    + "resizing a running pool");
        }
        int old = parallelism;
        if (target < old) {
            parallelism = target; // N1
            for (int i = target; i < old; i++) {
                if (retirement.shedIfRetired(i)) { // N2: a retired worker has no thread to tell
                    pool.liveWorkers(-1);
                }
                stops.get(i).set(); // N2: a running or sleeping one leaves
            }
        } else if (target > old) {
            pool.raiseSlotsInUse(target); // W1: the new deques are searched before any of their pushes
            parallelism = target;         // W1
            for (int i = old; i < target; i++) {
                if (retirement.unshed(i)) { // W2
                    pool.liveWorkers(1);
                    pool.startThread(i);
                }
            }
        }
        return old;
    }

    /**
     * On worker {@code index}'s thread, at the top of its loop: the latch its top-level wait is on. A latch set by
     * a shrink that a grow has undone since is replaced first. The caller then reads the SHUTDOWN bit and
     * {@link #inUse} (X2) before it waits: a shrink (N1, then N2 reads the latch) or shutdown (the bit, then the
     * latch) that this publication (X1) did not precede is seen by X2, and one it did precede sets the new latch.
     */
    SpinLatch topLevelLatch(int index) {
        SpinLatch stop = stops.get(index);
        if (stop.probe() && !pool.isShutdown() && index < parallelism) {
            stop = new SpinLatch(waker, index);
            stops.set(index, stop); // X1
        }
        return stop;
    }

    /** Whether worker {@code index} is in use: below the parallelism. */
    boolean inUse(int index) {
        return index < parallelism;
    }

    /**
     * L1 to L3 on worker {@code index}'s thread, out of the idle state, its busy spell ended, when {@link #inUse}
     * said no. True: the thread must end now without touching the worker again (a grow may have given it a new
     * thread). False: a grow or shutdown came in meanwhile, and the thread goes back to its loop.
     */
    boolean leave(int index) {
        pool.liveWorkers(-1); // before L1: a grow's claim, which counts the worker back, comes after it
        retirement.shed(index); // L1
        // Hazard: from here a grow or shutdown may take this worker over; read only pool-wide state.
        if ((pool.isShutdown() || index < parallelism) && retirement.unshed(index)) { // L2
            pool.liveWorkers(1);
            return false;
        }
        if (pool.workLeft()) {
            pool.post(); // L3
        }
        return true;
    }

    /**
     * Worker {@code index}'s thread, idle for the keep-alive: R1 and R2 ({@link Retirement#retire}), then the
     * retired side of N2. True if it retired and must end now without touching the worker again; false if work or
     * shutdown came in meanwhile.
     */
    boolean retire(int index) {
        boolean retired = retirement.retire(index, new Retirement.WorkCheck() {
            @Override
            public boolean workLeft() {
                return pool.workLeft() || pool.isShutdown();
            }
        });
        if (retired) {
            retired(index);
        }
        return retired;
    }

    /**
     * The retired side of N2, after R1 (or a start that failed left the worker RETIRED): a worker at or above the
     * parallelism becomes SHED, out of the retired count, unless N2 or a post took it first.
     */
    void retired(int index) {
        if (index >= parallelism && retirement.shedIfRetired(index)) {
            pool.liveWorkers(-1);
        }
    }
}
