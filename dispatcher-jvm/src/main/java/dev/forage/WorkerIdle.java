package dev.forage;

/**
 * A worker's idle spells: entering and leaving the idle state (the sleep protocol's {@code startLooking} and
 * {@code workFound}, the search policy's new spell, the busy clock, the timer watch), the keep-alive after which
 * its thread retires, and the worker as its protocol sees it while idle ({@link IdleContext}). One per worker;
 * called on the worker's own thread only, by {@code Worker.waitUntil} and, from inside {@code noWorkFound}, by the
 * protocol.
 */
final class WorkerIdle implements IdleContext {
    private final Worker w;
    private final Registry registry;
    private final Sleep sleep;
    private final PoolTimers timers;
    private final Clock clock;

    WorkerIdle(Worker w, Registry registry) {
        this.w = w;
        this.registry = registry;
        this.sleep = registry.sleep;
        this.timers = registry.timers;
        this.clock = registry.clock;
    }

    /**
     * Every entry into the idle state: the busy spell that began when this worker last left it ends here
     * ({@code docs/observability.md}, "Busy time"), then the sleep protocol's "start looking" event and the
     * search policy's new spell. Returns the protocol's state for the spell.
     */
    IdleState enter() {
        long now = System.nanoTime();
        w.idleSince = now;
        w.counters.busyEnds(now);
        IdleState idle = sleep.startLooking(w.index);
        if (w.ownJobsTaken) {
            // A neighbour took the jobs we pushed, perhaps ones we would have popped ourselves (a chain, a
            // ping-pong that moved to it): the protocol may let it show that by posting (docs/sleep.md 3.7).
            w.ownJobsTaken = false;
            idle.ownJobsTaken();
        }
        w.search.startSpell();
        return idle;
    }

    /**
     * Every exit from the idle state: the sleep protocol's "work found" event, and the timer watch goes to a
     * sleeper, because this worker is about to run user code (or return to its caller) and cannot watch. A busy
     * spell begins, and the worker looks again whether a recording wants long jobs timed.
     */
    void leave(IdleState idle) {
        sleep.workFound(idle);
        timers.handOverWatch(w.index);
        w.busyStarts(); // G1 of the monitor's start race: a volatile store
        registry.monitor.workerBusy(); // G2
    }

    /** In the top-level loop of a worker whose thread may retire. */
    private boolean mayRetire() {
        return w.retireAfterNanos > 0 && w.jobDepth == 0;
    }

    /**
     * Idle in the top-level loop: whether the keep-alive has passed with nothing to do, so the thread may retire.
     * Not while a timer is pending, which needs a worker to fire it: then another keep-alive begins (a timer
     * scheduled after the last thread retired brings one back, as any post does).
     */
    boolean keepAliveEnded() {
        if (!mayRetire()) {
            return false;
        }
        long now = System.nanoTime();
        if (now - w.idleSince < w.retireAfterNanos) {
            return false;
        }
        if (!timers.isEmpty()) {
            w.idleSince = now;
            return false;
        }
        return true;
    }

    // IdleContext: called by the sleep protocol on this worker's thread.

    @Override
    public void wakeupWithoutWork() {
        w.counters.wakeupWithoutWork();
        PoolEvents.INSTANCE.wakeupWithoutWork(registry.name, w.index);
    }

    @Override
    public boolean hasQueuedJobs() {
        return registry.hasQueuedJobs();
    }

    @Override
    public long parkNanos() {
        long nanos = timers.watchNanos(w.index); // Parker.FOREVER == PARK_FOREVER when not watching
        long waitDeadline = w.waitDeadline;
        if (waitDeadline != Worker.NO_DEADLINE) {
            nanos = Math.min(nanos, Math.max(waitDeadline - clock.nanoTime(), 0L));
        }
        if (nanos == PARK_FOREVER && mayRetire()) {
            // A sleep past the keep-alive ends by itself, as on a deadline; the loop then retires the thread.
            nanos = Math.max(w.idleSince + w.retireAfterNanos - System.nanoTime(), 0L);
        }
        return nanos;
    }

    @Override
    public WorkerStatistics statistics() {
        return w.counters;
    }
}
