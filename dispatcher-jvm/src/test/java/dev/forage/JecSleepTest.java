package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sleep protocol on its own, driven by fake workers: who gets woken by which event, counted exactly. A
 * woken fake worker parks on a test latch instead of going back to sleep, so the sleeping count only moves when
 * a waker moves it and each assertion below is exact, not a race.
 */
@Watchdog.Budget(seconds = 60)
class JecSleepTest {
    /** Fake workers 0..SLEEPERS-1 sleep; index SLEEPERS is the test thread acting as an idle worker. */
    private static final int SLEEPERS = 6;

    private final TestProbe probe = new TestProbe();
    private final JecSleep sleep = new JecSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(SLEEPERS + 1), probe);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger woken = new AtomicInteger();
    private final List<FakeWorker> workers = new ArrayList<>();

    /** The per-worker view a sleep strategy needs; the fake injector is always empty unless told otherwise. */
    static final class Context implements IdleContext {
        final WorkerStatistics stats = new WorkerStatistics();
        volatile boolean injected;
        volatile long parkNanos = PARK_FOREVER;

        @Override
        public boolean hasQueuedJobs() {
            return injected;
        }

        @Override
        public long parkNanos() {
            return parkNanos;
        }

        @Override
        public void wakeupWithoutWork() {
            statistics().wakeupWithoutWork();
        }

        @Override
        public WorkerStatistics statistics() {
            return stats;
        }
    }

    /** A worker loop reduced to "search, find nothing, tell the sleep module", until its latch is set. */
    final class FakeWorker extends Thread {
        final int index;
        final SpinLatch latch;
        final Context context = new Context();
        volatile boolean wasWoken;

        FakeWorker(int index) {
            super("fake-worker-" + index);
            this.index = index;
            this.latch = new SpinLatch(sleep, index);
            setDaemon(true);
        }

        @Override
        public void run() {
            IdleState idle = sleep.startLooking(index);
            while (!latch.probe()) {
                long before = context.stats.get(PoolCounter.WAKEUPS);
                sleep.noWorkFound(idle, latch, context);
                if (context.stats.get(PoolCounter.WAKEUPS) != before && !wasWoken) {
                    wasWoken = true;
                    woken.incrementAndGet();
                    awaitRelease();
                }
            }
            sleep.workFound(idle);
        }

        private void awaitRelease() {
            while (true) {
                try {
                    release.await();
                    return;
                } catch (InterruptedException e) {
                    // keep waiting: only the test's cleanup releases us
                }
            }
        }
    }

    @AfterEach
    void stopWorkers() throws InterruptedException {
        release.countDown();
        for (FakeWorker w : workers) {
            w.latch.set();
        }
        for (FakeWorker w : workers) {
            w.join();
        }
    }

    private void startSleepers() {
        for (int i = 0; i < SLEEPERS; i++) {
            FakeWorker w = new FakeWorker(i);
            workers.add(w);
            w.start();
        }
        Poll.until("all fake workers blocked", () -> {
            for (FakeWorker w : workers) {
                if (w.context.stats.get(PoolCounter.SLEEPS) != 1 || w.getState() != Thread.State.WAITING) {
                    return false;
                }
            }
            return sleep.sleepingThreads() == SLEEPERS;
        }, sleep::toString);
    }

    private void assertWoken(int expected) {
        Poll.until(expected + " fake workers report a wake-up", () -> woken.get() >= expected, sleep::toString);
        assertEquals(expected, woken.get(), "fake workers woken");
    }

    /**
     * The race behind the hand-off rule (docs/sleep.md, E1/E2): a poster sees an idle worker, wakes nobody and
     * counts on it; that worker then leaves the idle state with other work. If the job is still queued, leaving
     * must wake a sleeper, or the job is stranded while every other worker sleeps. Found twice by the barrier
     * tests: for injected jobs (StrategyCorrectnessTest, 8 workers, once Rayon's ramp-up was off) and for internal
     * jobs whose pusher then blocked in user code (BarrierStressTest, 4 workers, in CI).
     */
    @ParameterizedTest(name = "{0} job")
    @ValueSource(strings = {"injected", "internal"})
    void anIdleWorkerThatLeavesWithOtherWorkHandsTheQueuedJobToASleeper(String where) {
        startSleepers();
        IdleState self = sleep.startLooking(SLEEPERS);
        assertEquals(1, sleep.idleThreads());
        if (where.equals("injected")) {
            sleep.newInjectedJobs(1, true);
        } else {
            sleep.newInternalJobs(1, true);
        }
        assertEquals(SLEEPERS, sleep.sleepingThreads(), "the poster counts on the idle worker: no wake-up");

        probe.unclaimedWork = true; // the idle worker took something else; the job is still queued
        sleep.workFound(self);
        assertEquals(SLEEPERS - 1, sleep.sleepingThreads(), "leaving with the job still queued wakes one sleeper");
        assertWoken(1);
    }

    @Test
    void anIdleWorkerThatLeavesWithNothingQueuedWakesNobody() {
        startSleepers();
        IdleState self = sleep.startLooking(SLEEPERS);
        probe.unclaimedWork = false;
        sleep.workFound(self);
        assertEquals(SLEEPERS, sleep.sleepingThreads(), "nothing queued: no wake-up (the low-load case)");
        assertEquals(0, woken.get());
    }

    @Test
    void newWorkWakesOnlyTheSleepersTheIdleCountSaysAreMissing() {
        startSleepers();
        assertEquals(0, sleep.idleThreads());

        sleep.newInjectedJobs(1, true);
        assertEquals(SLEEPERS - 1, sleep.sleepingThreads(), "one injected job wakes exactly one sleeper");
        assertWoken(1);

        // The woken worker is awake and idle now: it will find one job, so nobody else is woken for it.
        assertEquals(1, sleep.idleThreads());
        sleep.newInjectedJobs(1, true);
        assertEquals(SLEEPERS - 1, sleep.sleepingThreads(), "an idle worker will find the job: no wake-up");

        // Three jobs, one idle worker: two are missing.
        sleep.newInjectedJobs(3, true);
        assertEquals(SLEEPERS - 3, sleep.sleepingThreads(), "3 jobs - 1 idle = 2 wake-ups");
        assertWoken(3);

        // The test thread plays an idle worker that finds work: the ramp-up wakes WAKE_ON_WORK_FOUND more
        // (Rayon: 2; Forage's default: 0).
        IdleState self = sleep.startLooking(SLEEPERS);
        sleep.workFound(self);
        int cascade = Math.min(SLEEPERS - 3, Tuning.DEFAULTS.getInt(Tunable.WAKE_ON_WORK_FOUND));
        assertEquals(SLEEPERS - 3 - cascade, sleep.sleepingThreads(),
                "work found wakes min(sleeping, WAKE_ON_WORK_FOUND)");
        assertWoken(3 + cascade);

        // A queue that already held work means the idle workers are not keeping up: wake one regardless.
        int sleepingBefore = sleep.sleepingThreads();
        assertTrue(sleep.idleThreads() >= 1);
        sleep.newInjectedJobs(1, false);
        assertEquals(sleepingBefore - 1, sleep.sleepingThreads());
        assertWoken(4 + cascade);
    }

    @Test
    void settingALatchWakesExactlyItsOwner() {
        startSleepers();
        FakeWorker owner = workers.get(3);
        owner.latch.set();
        assertEquals(SLEEPERS - 1, sleep.sleepingThreads());
        assertWoken(1);
        assertTrue(owner.wasWoken, "the latch's owner must be the one woken");
        assertEquals(1, owner.context.stats.get(PoolCounter.LATCH_WAKEUPS));
        for (FakeWorker w : workers) {
            if (w != owner) {
                assertFalse(w.wasWoken, w.getName() + " woke for a latch it does not own");
            }
        }
    }

    @Test
    void timerDeadlineChangeMakesTheWatcherReReadItsDeadlineWithoutCountingAWakeUp() {
        startSleepers();
        FakeWorker watcher = workers.get(2);
        watcher.context.parkNanos = 0L; // its timer is due now
        sleep.timerDeadlineChanged(2);
        // The watcher wakes itself: it undoes its own sleeping count, and nobody else moves.
        Poll.until("the watcher left its sleep", () -> watcher.wasWoken, sleep::toString);
        assertWoken(1);
        Poll.until("the watcher went back to sleep or stays parked", () -> sleep.sleepingThreads() == SLEEPERS - 1,
                sleep::toString);
        for (FakeWorker w : workers) {
            if (w != watcher) {
                assertFalse(w.wasWoken, w.getName());
            }
        }
    }

    @Test
    void aSleepyWorkerDoesNotSleepWhenWorkWasPostedAfterItGotSleepy() {
        JecSleep one = new JecSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(1), new TestProbe());
        Context context = new Context();
        SpinLatch latch = new SpinLatch(one, 0);
        IdleState idle = one.startLooking(0);
        one.noWorkFound(idle, latch, context); // S1: sleepy, JEC made even and remembered
        assertTrue(JecCounters.isJecSleepy(one.word().load()));
        one.newInternalJobs(1, true); // a job posted after S1: JEC odd
        assertFalse(JecCounters.isJecSleepy(one.word().load()));

        // Would block forever if S2 ignored the JEC; the watchdog turns that into a failure.
        one.noWorkFound(idle, latch, context);
        assertEquals(0, one.sleepingThreads());
        assertEquals(0L, context.stats.get(PoolCounter.SLEEPS));
        assertFalse(JecCounters.isJecSleepy(one.word().load()));

        // wake_partly: the next failed search announces sleepy again at once (no idle rounds in between).
        one.noWorkFound(idle, latch, context);
        assertTrue(JecCounters.isJecSleepy(one.word().load()));
        assertTrue(latch.getSleepy(), "the latch must be back to UNSET after the aborted sleep");
    }

    @Test
    void theFinalInjectorCheckUndoesTheSleeperCount() {
        JecSleep one = new JecSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(1), new TestProbe());
        Context context = new Context();
        context.injected = true;
        SpinLatch latch = new SpinLatch(one, 0);
        IdleState idle = one.startLooking(0);
        one.noWorkFound(idle, latch, context); // sleepy
        one.noWorkFound(idle, latch, context); // S2 counts it, S4 sees the injected job: no block
        assertEquals(0, one.sleepingThreads(), "the worker must undo its own sleeping count");
        assertEquals(0L, context.stats.get(PoolCounter.SLEEPS));
        assertEquals(1, JecCounters.inactiveThreads(one.word().load()), "still idle, searching");
        one.workFound(idle);
        assertEquals(0, JecCounters.inactiveThreads(one.word().load()));
    }

    @Test
    void aDueTimerWakesTheWorkerWhichUndoesItsOwnCount() {
        JecSleep one = new JecSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(1), new TestProbe());
        Context context = new Context();
        context.parkNanos = 0L;
        SpinLatch latch = new SpinLatch(one, 0);
        IdleState idle = one.startLooking(0);
        one.noWorkFound(idle, latch, context);
        one.noWorkFound(idle, latch, context);
        assertEquals(1L, context.stats.get(PoolCounter.SLEEPS));
        assertEquals(1L, context.stats.get(PoolCounter.WAKEUPS));
        assertEquals(0, one.sleepingThreads(), "nobody woke it: it must decrement its own sleeping count");
    }

    @Test
    void aSetLatchKeepsTheWorkerFromSleeping() {
        JecSleep one = new JecSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(1), new TestProbe());
        Context context = new Context();
        SpinLatch latch = new SpinLatch(one, 0);
        IdleState idle = one.startLooking(0);
        one.noWorkFound(idle, latch, context);
        latch.set();
        one.noWorkFound(idle, latch, context);
        assertEquals(0, one.sleepingThreads());
        assertEquals(0L, context.stats.get(PoolCounter.SLEEPS));
    }

    @Test
    void threadCountOutsideTheCountersLimitIsRejected() {
        IllegalArgumentException low = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> new JecSleep(Tuning.DEFAULTS, ThreadParker.forWorkers(0), new TestProbe()));
        assertTrue(low.getMessage().contains("1.." + JecCounters.THREADS_MAX), low.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> new JecSleep(Tuning.DEFAULTS,
                        ThreadParker.forWorkers(JecCounters.THREADS_MAX + 1), new TestProbe()));
    }
}
