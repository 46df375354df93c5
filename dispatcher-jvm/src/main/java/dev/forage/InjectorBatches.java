package dev.forage;

/**
 * One worker's batches from the injector ({@code docs/sleep.md} section 3.9); owner thread only. A worker in its
 * top-level loop with nothing of its own queued takes a batch ({@link Injector#pollBatch}) once a backlog of two
 * batches waits: it runs the oldest job and pushes the rest on its deque in their order, where it then takes them
 * oldest first ({@link #takeOldest}) and idle workers steal them the same way, so the deque's order stays the jobs'
 * age. Then it posts them as its own pushes (I1 to I3 of {@code docs/sleep.md}): a sleeper's final check may have
 * looked at the injector after the claim and at the deque before the push, so without that post the batch could
 * wait behind a job that blocks, with everyone else asleep (jcstress {@code BatchMoveVsJecSleep}).
 */
final class InjectorBatches {
    private final Worker owner;
    private final Registry registry;
    private final Injector injector;
    /** The most jobs one batch takes ({@link Tunable#INJECTOR_BATCH}); 1: no batches. */
    private final int max;
    /** Where a batch lands on its way to the deque; cleared at once, so it keeps no job reachable. */
    private final Runnable[] taken;
    /**
     * The deque index just past the last batch, while some of it may be left; 0 when none is (indices start at 0,
     * so no batch ends there).
     */
    private long end;
    /** How many jobs the last {@link #take} took. */
    private int lastTaken;

    InjectorBatches(Worker owner, Registry registry, int max) {
        this.owner = owner;
        this.registry = registry;
        this.injector = registry.injector;
        this.max = max;
        this.taken = new Runnable[max];
    }

    /**
     * Whether the next look at the injector may take a batch: batches are on, the worker is in its top-level loop
     * and its deque is empty. Inside a job (a wait that helps) a batch on the deque would sit above the wait's floor
     * and count as the wait's own jobs (section 6.2, "The stack bound").
     */
    boolean mayTake() {
        return max > 1 && owner.jobDepth == 0 && owner.deque.isEmpty();
    }

    /**
     * The oldest job of a batch from the injector, the others pushed on the deque and posted; or one job, when
     * fewer than two batches' worth wait; null when the injector is empty. Counts every job taken.
     */
    Runnable take() {
        // Only from a backlog of two batches: fewer jobs are cheap to take one by one, and each then stays in the
        // shared queue, where any worker takes it, instead of on one worker's deque, where it waits for that worker
        // or for a neighbour with nothing else to do if the OS deschedules the worker.
        int n = injector.pollBatch(taken, max, registry.slotsInUse, 2L * max);
        lastTaken = n;
        if (n == 0) {
            return null;
        }
        Runnable job = taken[0];
        if (n > 1) {
            WorkDeque deque = owner.deque;
            boolean wasEmpty = deque.pushAll(taken, 1, n); // fits: the deque was empty (only its owner fills it)
            end = deque.endIndex();
            registry.newInternalJobs(n - 1, wasEmpty);
        }
        for (int i = 0; i < n; i++) {
            owner.counters.injectedJobTaken();
            taken[i] = null;
        }
        return job;
    }

    /** How many jobs the last {@link #take} took from the injector. */
    int lastTaken() {
        return lastTaken;
    }

    /** Whether part of the last batch may still be on the deque. */
    boolean pending() {
        return end != 0;
    }

    /**
     * While the deque's oldest job is one of the last batch, that job, by the thieves' own take: a batch runs in
     * its order, and jobs that its jobs push wait behind it (they are newer). Null once the batch is gone, taken
     * here or by thieves.
     */
    Runnable takeOldest() {
        WorkDeque deque = owner.deque;
        while (deque.oldestIndex() < end) {
            Runnable job = deque.steal();
            if (job != WorkDeque.RETRY) {
                return job; // null: the deque emptied since the read of its oldest index
            }
        }
        end = 0;
        return null;
    }
}
