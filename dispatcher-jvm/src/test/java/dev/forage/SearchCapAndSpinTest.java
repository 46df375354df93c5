package dev.forage;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The searching cap's bookkeeping, and the spin phase's hand-over to the strategy behind it. */
class SearchCapAndSpinTest {
    @Test
    void atMostHalfTheWorkersSearchAndTheLastSearcherHandsOver() {
        SearchCapSleep s = searchCap(4, Tuning.DEFAULTS.getInt(Tunable.ROUNDS_UNTIL_SLEEPY));
        FakeWorker[] w = new FakeWorker[4];
        for (int i = 0; i < 4; i++) {
            w[i] = new FakeWorker(s, i);
            w[i].startLooking();
        }
        assertEquals(2, s.searchingThreads(), "Tokio's rule: refuse when 2 * searching >= workers");
        s.workFound(w[0].idle);
        assertEquals(1, s.searchingThreads());
        s.workFound(w[2].idle); // not a searcher: no change
        assertEquals(1, s.searchingThreads());
        s.workFound(w[1].idle);
        assertEquals(0, s.searchingThreads());
    }

    @Test
    void aSearcherStopsSearchingWhenItGetsSleepy() {
        SearchCapSleep s = searchCap(2, 1);
        FakeWorker w = new FakeWorker(s, 0);
        w.startLooking();
        assertEquals(1, s.searchingThreads());
        w.noWorkFound(); // round 0 -> 1
        assertEquals(1, s.searchingThreads());
        w.noWorkFound(); // round 1 == roundsUntilSleepy: sleepy, no longer searching
        assertEquals(0, s.searchingThreads());
    }

    @Test
    void spinningEndsAtOnceWhenWorkIsVisible() {
        Recording inner = new Recording();
        TestProbe probe = new TestProbe();
        probe.visibleWork = true;
        SpinForWork s = new SpinForWork(inner, Tuning.DEFAULTS, 1, 60_000_000_000L, probe); // a minute: only work ends it
        FakeWorker w = new FakeWorker(s, 0);
        w.startLooking();
        for (int i = 0; i < 100; i++) {
            w.noWorkFound();
        }
        assertEquals(0, inner.noWorkFound.get(), "while spinning, the inner strategy is not asked");
    }

    @Test
    void afterTheSpinTimeTheInnerStrategyTakesOver() {
        Recording inner = new Recording();
        TestProbe probe = new TestProbe();
        long spin = 2_000_000L;
        SpinForWork s = new SpinForWork(inner, Tuning.DEFAULTS, 1, spin, probe);
        FakeWorker w = new FakeWorker(s, 0);
        w.startLooking();
        long start = System.nanoTime();
        while (inner.noWorkFound.get() == 0) {
            w.noWorkFound();
        }
        assertTrue(System.nanoTime() - start >= spin, "the inner strategy was asked before the spin time passed");
        w.noWorkFound();
        assertEquals(2, inner.noWorkFound.get(), "no second spin in the same idle spell");
        w.startLooking(); // a new idle spell spins again
        w.noWorkFound();
        assertEquals(2, inner.noWorkFound.get());
    }

    /** Counts the calls that reach it; never blocks. */
    private static final class Recording implements Sleep {
        final AtomicInteger noWorkFound = new AtomicInteger();
        private final JecSleep jec = new JecSleep(Tuning.DEFAULTS, ThreadParker.forWorkers(1), new TestProbe());

        @Override
        public IdleState startLooking(int workerIndex) {
            return jec.startLooking(workerIndex);
        }

        @Override
        public void workFound(IdleState idle) {
            jec.workFound(idle);
        }

        @Override
        public void noWorkFound(IdleState idle, CoreLatch latch, IdleContext context) {
            noWorkFound.incrementAndGet();
        }

        @Override
        public void newInternalJobs(int count, boolean queueWasEmpty) {
        }

        @Override
        public void newInjectedJobs(int count, boolean queueWasEmpty) {
        }

        @Override
        public void notifyWorkerLatchIsSet(int workerIndex) {
        }

        @Override
        public void timerDeadlineChanged(int watcherIndex) {
        }


        @Override
        public int sleepingThreads() {
            return 0;
        }

        @Override
        public int idleThreads() {
            return 0;
        }
    }

    /** The pool's protocol {@code SEARCH_CAP} for {@code threads} workers, sleepy after {@code rounds} rounds. */
    private static SearchCapSleep searchCap(int threads, int rounds) {
        Tuning tuning = Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, rounds);
        return (SearchCapSleep) SleepProtocols.factory(SleepProtocol.SEARCH_CAP, -1L)
                .build(tuning, ThreadParker.forWorkers(threads), threads, new TestProbe());
    }
}
