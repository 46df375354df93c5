package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How the threads of a {@link ThreadedRunner} end: after shutdown each drains what it can still find, the last
 * core worker stays while timers are pending and fires them at their deadlines, and the last thread of the pool to
 * leave, core or extra, reports termination. The counts here are what decide "last".
 */
final class ThreadedShutdown {
    private final Registry registry;
    private final Clock clock;
    private final Injector injector;
    private final Lifecycle lifecycle;
    private final PoolTimers timers;
    /**
     * Core workers that have not retired after shutdown, nor been shed ({@link Resize}: a shed worker runs again
     * only after a grow counts it back): the last one stays for pending timers.
     */
    private final AtomicInteger liveWorkers = new AtomicInteger();
    /**
     * Threads of the pool that have not finished, core and extra. An extra thread is counted by the live thread
     * that starts it, before it starts, so the count cannot reach zero while a thread is about to appear.
     */
    private final AtomicInteger liveThreads = new AtomicInteger();
    /**
     * Core workers that will never run again: their thread ended (after shutdown, or by an error that escaped the
     * worker loop), or never started, or shutdown counted them out while retired. A gauge for statistics: such a
     * worker is neither active, idle nor sleeping.
     */
    private final AtomicInteger endedWorkers = new AtomicInteger();

    ThreadedShutdown(Registry registry) {
        this.registry = registry;
        this.clock = registry.clock;
        this.injector = registry.injector;
        this.lifecycle = registry.lifecycle;
        this.timers = registry.timers;
    }

    /**
     * The pool starts {@code running} threads, of its {@code coreWorkers}: the others are shed, and count as live
     * threads until shutdown counts them out ({@link #shedWorkerEnded}), as retired ones do.
     */
    void coreWorkersStarting(int running, int coreWorkers) {
        liveWorkers.set(running);
        liveThreads.set(coreWorkers);
    }

    /**
     * Starting failed: {@code count} core workers never got a running thread, and the {@code shed} ones never will;
     * they count as gone.
     */
    void coreWorkersNeverStarted(int count, int shed) {
        endedWorkers.addAndGet(count + shed);
        liveWorkers.addAndGet(-count);
        if (liveThreads.addAndGet(-count - shed) == 0) {
            lifecycle.markTerminated();
        }
    }

    /** A core worker became shed (-1) or a grow took one back (+1): {@link Resize.Pool#liveWorkers}. */
    void liveWorkersChanged(int delta) {
        liveWorkers.addAndGet(delta);
    }

    /** After shutdown, a shed worker: no thread, and not among the live workers already; it leaves here. */
    void shedWorkerEnded() {
        coreThreadExited();
    }

    /** After shutdown, a core worker whose thread had retired: it has no thread to leave, so it leaves here. */
    void retiredWorkerEnded() {
        liveWorkers.decrementAndGet();
        coreThreadExited();
    }

    /** The last thing a core worker's thread does, unless it retired: the worker has ended. */
    void coreThreadExited() {
        endedWorkers.incrementAndGet();
        threadExited();
    }

    /** Core workers that have ended (see {@link #endedWorkers}); a snapshot. */
    int endedWorkers() {
        return endedWorkers.get();
    }

    /** A live thread of the pool is about to start an extra thread. */
    void extraThreadStarting() {
        liveThreads.incrementAndGet();
    }

    /** The extra thread announced by {@link #extraThreadStarting()} did not start (its starter is live). */
    void extraThreadNotStarted() {
        liveThreads.decrementAndGet();
    }

    /**
     * After shutdown: run every job that can still be found, wait out timer submissions in flight, and retire. The
     * last worker stays while timers are pending and fires them at their deadlines.
     */
    void drainAndRetire(Worker w) {
        while (true) {
            drain(w);
            if (tryRetire()) {
                return;
            }
            long next = timers.earliestDeadline();
            if (next != TimerQueue.NO_DEADLINE) {
                w.parker.bindCurrentThread();
                w.parker.park(Math.max(next - clock.nanoTime(), 1L));
                Thread.interrupted();
            }
        }
    }

    /**
     * After shutdown, the last pending timer was cancelled: the last worker may be parked in
     * {@link #drainAndRetire} until a deadline that no longer exists. An unpark that lands before it parks is a
     * permit, so the park returns at once: no lost wake-up.
     */
    void lastTimerCancelled() {
        Worker[] workers = registry.workers;
        for (int i = 0, n = registry.slotsInUse; i < n; i++) {
            workers[i].parker.unpark();
        }
    }

    /** A worker leaves the drain loop: true if it may exit. The last one stays while timers are pending. */
    private boolean tryRetire() {
        while (true) {
            int n = liveWorkers.get();
            if (n == 1 && !timers.isEmpty()) {
                return false;
            }
            if (liveWorkers.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** The last thing a thread of the pool does; the last one reports termination. */
    void threadExited() {
        if (liveThreads.decrementAndGet() == 0) {
            lifecycle.markTerminated();
        }
    }

    /**
     * After shutdown, on any thread of the pool: runs every job {@code w} can still find and waits out timers
     * scheduled from outside that are in flight (outside {@code execute}s need no wait: the injector is closed).
     * An extra thread does it too before it ends, because the jobs it pushed or injected may have no other live
     * thread to run them.
     */
    void drain(Worker w) {
        while (true) {
            Runnable job = w.findAnyWork();
            if (job != null) {
                w.runJob(job);
                continue;
            }
            if (lifecycle.submissionsInFlight() || !injector.isEmpty()) {
                Thread.yield();
                continue;
            }
            return;
        }
    }
}
