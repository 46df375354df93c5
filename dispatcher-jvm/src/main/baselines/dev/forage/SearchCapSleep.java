package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JEC protocol with a cap on searching workers, as Tokio and Go do it ("beyond Rayon"). Selected
 * with {@code SleepProtocol.SEARCH_CAP}.
 *
 * <p>An idle worker becomes a <i>searcher</i> only while fewer than half the workers search (Tokio's rule:
 * refuse when {@code 2 * searching >= threads}). A searcher runs the JEC's idle rounds; a worker beyond the cap
 * skips them and goes straight to the sleep step (get sleepy, one more full search, the JEC's CAS). A searcher
 * stops searching when it gets sleepy. When the last searcher finds work it wakes one sleeper, which becomes the
 * next searcher (the hand-off chain of Go's {@code resetspinning} and Tokio's
 * {@code transition_worker_from_searching}); this replaces the JEC's ramp-up of up to two sleepers on every
 * found job. A worker woken from sleep tries to become a searcher again.
 *
 * <p>The cap and the hand-off are optimizations only: whether a worker searches changes only how many rounds it
 * spends before the JEC's sleep step, whose proof ({@code docs/sleep.md}) holds for any number of
 * rounds, and the JEC's rule for posted work is unchanged. The searching count is therefore allowed to be sloppy,
 * as in Tokio. Details: {@code docs/sleep-strategies.md} section 5.
 */
final class SearchCapSleep implements Sleep {
    private final JecSleep jec;
    private final int threads;
    private final int roundsUntilSleepy;
    private final AtomicInteger searching = new AtomicInteger();
    /** Indexed by worker; each slot is read and written only by its worker's thread. */
    private final boolean[] isSearcher;

    /**
     * Around {@code jec}, built with {@link Tunable#WAKE_ON_WORK_FOUND} 0, as the cap does its own ramp-up (a test
     * keeps a reference to it to watch its blocked flag). Every one of the {@code slots} workers may search; the cap
     * counts the first {@code capped} (extra slots that stand in for blocked workers search uncapped).
     */
    SearchCapSleep(JecSleep jec, Tuning tuning, int slots, int capped) {
        this.jec = jec;
        this.threads = capped;
        this.roundsUntilSleepy = tuning.getInt(Tunable.ROUNDS_UNTIL_SLEEPY);
        this.isSearcher = new boolean[slots];
    }

    @Override
    public IdleState startLooking(int workerIndex) {
        JecSleep.JecIdleState idle = jec.startLooking(workerIndex);
        if (!transitionToSearching(workerIndex)) {
            idle.rounds = roundsUntilSleepy; // beyond the cap: straight to the sleep step
        }
        return idle;
    }

    @Override
    public void workFound(IdleState idle) {
        if (transitionFromSearching(idle.workerIndex) && jec.sleepingThreads() > 0) {
            jec.wakeAnyThreads(1); // the last searcher found work: hand the search over
        }
        jec.workFound(idle);
    }

    @Override
    public void noWorkFound(IdleState state, CoreLatch latch, IdleContext context) {
        // The JEC's own: this protocol is the JEC with a cap.
        JecSleep.JecIdleState idle = (JecSleep.JecIdleState) state;
        int i = idle.workerIndex;
        if (idle.rounds >= roundsUntilSleepy) {
            transitionFromSearching(i); // getting sleepy: no longer searching, and nobody to hand over to
        }
        jec.noWorkFound(idle, latch, context);
        if (idle.rounds == 0 && !transitionToSearching(i)) {
            // The JEC restarted the idle rounds (we woke from sleep); beyond the cap we skip them again.
            idle.rounds = roundsUntilSleepy;
        }
    }

    /** Tokio's {@code transition_worker_to_searching}. True if the worker searches now. */
    private boolean transitionToSearching(int i) {
        if (isSearcher[i]) {
            return true;
        }
        while (true) {
            int s = searching.get();
            if (2 * s >= threads) {
                return false;
            }
            if (searching.compareAndSet(s, s + 1)) {
                isSearcher[i] = true;
                return true;
            }
        }
    }

    /** Stops searching; true if this worker was the last searcher. */
    private boolean transitionFromSearching(int i) {
        if (!isSearcher[i]) {
            return false;
        }
        isSearcher[i] = false;
        return searching.decrementAndGet() == 0;
    }

    @Override
    public void newInternalJobs(int count, boolean queueWasEmpty) {
        jec.newInternalJobs(count, queueWasEmpty);
    }

    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        jec.newInjectedJobs(count, queueWasEmpty);
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        jec.notifyWorkerLatchIsSet(workerIndex);
    }

    @Override
    public void timerDeadlineChanged(int watcherIndex) {
        jec.timerDeadlineChanged(watcherIndex);
    }

    @Override
    public int sleepingThreads() {
        return jec.sleepingThreads();
    }

    @Override
    public int idleThreads() {
        return jec.idleThreads();
    }

    /** Test hook: workers searching now. */
    public int searchingThreads() {
        return searching.get();
    }

    @Override
    public String toString() {
        return "SearchCapSleep{searching=" + searching.get() + ", " + jec + "}";
    }
}
