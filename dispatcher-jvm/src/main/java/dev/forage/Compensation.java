package dev.forage;


/**
 * Keeps a pool's parallelism while some of its workers block ({@code docs/sleep.md}, "Blocking sections and
 * compensation"): for every worker inside a blocking section, one <i>compensating</i> worker runs, up to the
 * builder's {@code maxBlockingThreads}. {@code ForkJoinPool.managedBlock} compensates the same way; Go's scheduler
 * hands a blocked thread's processor to another thread, which is the picture to keep in mind.
 *
 * <p>The pool has its {@code n} core workers and {@code m} extra <i>slots</i> (indices {@code n .. n+m-1} of the
 * registry's worker array: a deque, sleep state and counters each). A blocked worker keeps its slot, so every frame
 * on its stack (a {@code join} in progress, a scope) stays valid, and its deque stays visible to thieves. An extra
 * slot is:
 * <ul>
 *   <li>{@link #FREE}: no thread;</li>
 *   <li>{@link #ACTIVE}: its thread runs the worker loop like a core worker (it may steal, sleep in the JEC and be
 *       woken), until its <i>release</i> latch is set;</li>
 *   <li>{@link #LEAVING}: released; its thread finishes the job in hand and runs the jobs left in its own deque;</li>
 *   <li>{@link #SPARE}: its thread waits outside the sleep protocol, for a new activation or the keep-alive.</li>
 * </ul>
 * All transitions happen under this object's monitor; blocking sections are slow events (each blocks a thread),
 * so one lock is cheaper than the proof a lock-free version would need.
 *
 * <p>The rule that keeps the JEC's proof intact: an extra slot's thread enters the sleep protocol only while the
 * slot is ACTIVE, that is, only inside its worker loop, where a wake-up always leads to a full search. A release
 * is a latch set (Rayon's targeted wake-up), so a sleeping extra leaves through the protocol's own latch path
 * ({@code workFound}, with the hand-off rule) and never takes a wake-up meant for new work with it. A SPARE
 * thread is not in the protocol's counters at all, so no poster counts on it.
 */
final class Compensation {
    static final int FREE = 0;
    static final int ACTIVE = 1;
    static final int LEAVING = 2;
    static final int SPARE = 3;

    private final Registry registry;
    private final ExtraThreads threads;
    private final long keepAliveNanos;
    private final int coreWorkers;
    /** The extra slots; null until first used ({@link #slotAt}), which counts as {@link #FREE}. */
    private final Slot[] slots;

    /** Workers inside a blocking section (each counted once, however deep its sections nest). */
    private int blocked;
    /** Extra slots that are ACTIVE. The invariant after every transition: {@code active == min(blocked, m)}. */
    private int active;
    /** Most blocked at once, for statistics. */
    private int mostBlocked;
    private boolean shutdown;

    Compensation(Registry registry, ExtraThreads threads, int coreWorkers, int extraSlots, long keepAliveNanos) {
        this.registry = registry;
        this.threads = threads;
        this.keepAliveNanos = keepAliveNanos;
        this.coreWorkers = coreWorkers;
        this.slots = new Slot[extraSlots];
    }

    /** Under the monitor: extra slot {@code i}, made with its worker on first use. */
    private Slot slotAt(int i) {
        Slot s = slots[i];
        if (s == null) {
            s = new Slot(registry.extraWorker(coreWorkers + i));
            slots[i] = s;
        }
        return s;
    }

    /**
     * Worker {@code w}'s thread enters a blocking section. The outermost section counts the worker as blocked and,
     * if the extra slots allow, activates one; nested sections cost a field increment.
     */
    void enter(Worker w) {
        if (w.blockingDepth++ > 0) {
            return;
        }
        w.counters.blockingSection();
        if (blockedOne()) {
            w.counters.compensation();
        }
    }

    /**
     * {@link #enter}, but only if a stand-in runs for the section: true then; false, with nothing entered, if
     * {@code w} is in a section already (no stand-in is due for a nested one) or no slot could be activated.
     */
    boolean enterWithStandIn(Worker w) {
        if (w.blockingDepth > 0) {
            return false;
        }
        w.blockingDepth = 1;
        if (blockedOne()) {
            w.counters.blockingSection();
            w.counters.compensation();
            return true;
        }
        exit(w);
        return false;
    }

    /** A worker's outermost section begins: count it and activate a slot if one is due; true if one was. */
    synchronized boolean blockedOne() {
        blocked++;
        mostBlocked = Math.max(mostBlocked, blocked);
        // After shutdown no slot is activated: an extra's thread may still be draining with its worker.
        return !shutdown && active < blocked && active < slots.length && activateOne();
    }

    /** Worker {@code w}'s thread leaves the blocking section it entered; the outermost one releases an extra. */
    void exit(Worker w) {
        if (--w.blockingDepth > 0) {
            return;
        }
        unblockedOne();
    }

    /** A worker's outermost section ends: release a slot if more are ACTIVE than workers are blocked. */
    synchronized void unblockedOne() {
        blocked--;
        if (active > blocked) {
            releaseOne();
        }
    }

    /**
     * Under the monitor: a slot that is not ACTIVE becomes ACTIVE, the lowest one that still has a thread (LEAVING
     * or SPARE) if any, else the lowest FREE one, which gets a new thread. False if none could be started.
     */
    private boolean activateOne() {
        int chosenIndex = -1;
        for (int i = 0; i < slots.length; i++) {
            int state = slots[i] == null ? FREE : slots[i].state;
            if (state == LEAVING || state == SPARE) {
                chosenIndex = i;
                break;
            }
            if (chosenIndex < 0 && state == FREE) {
                chosenIndex = i;
            }
        }
        // active < slots.length, so some slot is not ACTIVE.
        Slot chosen = slotAt(chosenIndex);
        int previous = chosen.state;
        chosen.release = new SpinLatch(registry, chosen.worker.index);
        chosen.state = ACTIVE;
        active++;
        registry.raiseSlotsInUse(chosen.worker.index + 1);
        if (previous != FREE) {
            // SPARE: it parks until activated. LEAVING: it may be in the spare's park already, having seen an
            // earlier activation and release come and go while it slept; it goes back to its loop either way.
            chosen.spare.unpark();
        } else if (!threads.start(chosen)) {
            // No thread: the pool runs with one worker fewer until the section ends. The section itself goes
            // on; nothing that was accepted depends on this slot, whose deque is empty.
            chosen.state = FREE;
            active--;
            return false;
        }
        return true;
    }

    /** Under the monitor: the highest ACTIVE slot is released, so the low slots stay the ones in use. */
    private void releaseOne() {
        for (int i = slots.length - 1; i >= 0; i--) {
            Slot s = slots[i];
            if (s != null && s.state == ACTIVE) {
                s.state = LEAVING;
                active--;
                s.release.set();
                return;
            }
        }
    }

    /** The pool shut down: every extra leaves its loop to drain, every spare ends. */
    synchronized void shutdownStarted() {
        shutdown = true;
        for (Slot s : slots) {
            if (s == null) {
                continue;
            }
            if (s.state == ACTIVE) {
                s.release.set();
            }
            if (s.state != FREE) {
                s.spare.unpark();
            }
        }
    }

    synchronized boolean isShutdown() {
        return shutdown;
    }

    /**
     * An extra slot's thread: the worker loop while the slot is ACTIVE, the slot's own jobs when released, then a
     * spare's wait for a new activation, until the keep-alive ends it or the pool shuts down. Returns when the
     * thread should end, the slot FREE: true after shutdown (the thread still owns the worker, for the drain,
     * because no slot is activated after shutdown), false after the keep-alive (the thread no longer touches
     * the worker: the slot may get a new thread at once).
     */
    boolean runExtra(Slot slot) {
        Worker w = slot.worker;
        while (true) {
            SpinLatch release;
            synchronized (this) {
                release = slot.release;
            }
            w.waitUntil(release, Worker.NO_DEADLINE);
            // Released: nobody else pops this deque, so run what is left of it before leaving.
            Runnable job;
            while ((job = w.deque.pop()) != null) {
                w.runJob(job);
            }
            synchronized (this) {
                if (slot.state == ACTIVE) {
                    continue; // activated again while leaving: a new release latch is in place
                }
                if (shutdown) {
                    slot.state = FREE;
                    return true;
                }
                w.busyEnds();
                slot.state = SPARE;
            }
            if (!awaitActivation(slot)) {
                return false; // a spare pushed nothing since it drained its deque
            }
            w.busyStarts();
        }
    }

    /**
     * Package-private for the activation race in the jcstress module: a spare waits outside the sleep protocol;
     * true when activated, false when it must end (slot FREE). A slot
     * that is LEAVING again was activated and released while its thread slept here: the thread goes back through
     * the loop (its release latch is set, so it only runs what its deque holds) and comes back as a spare.
     */
    boolean awaitActivation(Slot slot) {
        long deadline = System.nanoTime() + keepAliveNanos;
        slot.spare.bindCurrentThread(); // before the state is read: an activation after it unparks this thread
        while (true) {
            synchronized (this) {
                if (slot.state != SPARE) {
                    return true;
                }
                if (shutdown || deadline - System.nanoTime() <= 0) {
                    slot.state = FREE;
                    return false;
                }
            }
            slot.spare.park(Math.max(deadline - System.nanoTime(), 1L));
            Thread.interrupted(); // an interrupt from shutdownNow; the state says what to do
        }
    }

    /** For statistics, under the monitor: blocked workers, ACTIVE extras, SPARE threads, most blocked at once. */
    synchronized ThreadGauges snapshot() {
        ThreadGauges gauges = new ThreadGauges();
        for (Slot s : slots) {
            if (s != null && s.state == SPARE) {
                gauges.spareThreads++;
            }
        }
        gauges.blockedWorkers = blocked;
        gauges.compensatingThreads = active;
        gauges.mostBlockedWorkers = mostBlocked;
        return gauges;
    }

    /** Extra slot {@code i}'s thread, or null (no thread, or a slot never used); for the monitor. */
    synchronized Thread threadOf(int i) {
        Slot s = slots[i];
        return s != null ? s.thread : null;
    }

    /** Extra slot {@code i}, made if it was never used; for tests. */
    synchronized Slot slot(int i) {
        return slotAt(i);
    }

    /** How an extra slot gets a thread: {@link ThreadedRunner}, or a race test's stand-in. */
    interface ExtraThreads {
        /**
         * Under the compensation's monitor, on a live thread of the pool: starts a thread for {@code slot} that
         * runs {@link #runExtra}, after setting {@link Slot#thread}. False if none could be started.
         */
        boolean start(Slot slot);
    }

    /** One extra slot: its worker, its state and, while it has one, its thread. */
    static final class Slot {
        final Worker worker;
        /** Written under the monitor; volatile so that a spare's park loop and tests may read it. */
        volatile int state = FREE;
        /** The latch whose set releases the slot; replaced on every activation, under the monitor. */
        SpinLatch release;
        Thread thread;
        /**
         * Where the slot's thread waits as a spare ({@link #awaitActivation}), apart from the worker's own parker,
         * which the sleep protocol may still unpark for the worker's last spell.
         */
        final Parker spare = new ThreadParker();

        Slot(Worker worker) {
            this.worker = worker;
        }
    }
}
