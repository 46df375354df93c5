package dev.forage;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** EMPER's IO sleep strategy at the unit level: hints, pending notifications, withdrawn reads, passed-on hints. */
class EmperSleepTest {
    private final TestProbe probe = new TestProbe();

    private EmperSleep emper(int threads) {
        return new EmperSleep(Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0), ThreadParker.forWorkers(threads), probe); // 0 rounds: the first failed search goes to sleep
    }

    private static void awaitBlocked(EmperSleep s, int n) {
        Watchdog.awaitCondition(n + " blocked", Duration.ofSeconds(30), () -> s.sleepingThreads() == n, s::toString);
    }

    @Test
    void aJobPushedByAWorkerWakesASleeperWithThatWorkersIndex() throws Throwable {
        EmperSleep s = emper(3);
        FakeWorker w0 = new FakeWorker(s, 0);
        AtomicInteger hint = new AtomicInteger(Integer.MIN_VALUE);
        Watchdog.within("internal hint", () -> {
            Thread t = w0.startThread(() -> {
                w0.startLooking();
                w0.searchUntilWokenOnce();
                hint.set(w0.idle.firstPlaceToLook());
            });
            awaitBlocked(s, 1);
            assertEquals(1, s.sleepersCount());
            probe.callingWorker = 2;
            s.newInternalJobs(1, true);
            t.join();
        });
        assertEquals(2, hint.get(), "the woken worker is told to look at worker 2's deque");
        assertEquals(IdleState.ANYWHERE, w0.idle.firstPlaceToLook(), "a hint is returned once");
        assertEquals(0, s.sleepersCount(), "the notifier took the sleeper off the count");
        assertEquals(0, s.bufferedHints());
    }

    @Test
    void anInjectedJobWakesASleeperPointingAtTheInjector() throws Throwable {
        EmperSleep s = emper(2);
        FakeWorker w1 = new FakeWorker(s, 1);
        AtomicInteger hint = new AtomicInteger(Integer.MIN_VALUE);
        Watchdog.within("injector hint", () -> {
            Thread t = w1.startThread(() -> {
                w1.startLooking();
                w1.searchUntilWokenOnce();
                hint.set(w1.idle.firstPlaceToLook());
            });
            awaitBlocked(s, 1);
            s.newInjectedJobs(1, true);
            t.join();
        });
        assertEquals(IdleState.INJECTOR, hint.get());
        assertEquals(0, s.sleepersCount());
    }

    @Test
    void aNotificationThatFoundNobodyStopsTheNextWorkerFromSleeping() {
        EmperSleep s = emper(2);
        s.newInjectedJobs(1, true); // nobody counted: NotifyAnywhere leaves it pending
        assertEquals(-1, s.sleepersCount());
        FakeWorker w0 = new FakeWorker(s, 0);
        w0.startLooking();
        w0.noWorkFound(); // the sleep step: would block forever if the pending notification were ignored
        assertEquals(0, w0.counters.get(PoolCounter.SLEEPS), "it consumed the pending notification instead of sleeping");
        assertEquals(0, s.sleepersCount());
        assertEquals(IdleState.INJECTOR, w0.idle.firstPlaceToLook(), "and searches the injector first");
    }

    @Test
    void aWorkerThatLeavesWithoutSearchingPassesItsNotificationOn() {
        EmperSleep s = emper(2);
        s.newInjectedJobs(1, true);
        FakeWorker w0 = new FakeWorker(s, 0);
        w0.startLooking();
        w0.noWorkFound(); // consumes the pending notification
        assertEquals(0, s.sleepersCount());
        s.workFound(w0.idle); // its latch was set: it leaves the idle loop without the search it owed
        assertEquals(-1, s.sleepersCount(), "the notification is pending again for the next worker");
    }

    @Test
    void workVisibleAfterCountingStopsTheWorkerFromSleeping() {
        EmperSleep s = emper(1);
        probe.visibleWork = true; // pushed between the last search and the count
        FakeWorker w0 = new FakeWorker(s, 0);
        w0.startLooking();
        w0.noWorkFound();
        assertEquals(0, w0.counters.get(PoolCounter.SLEEPS));
        assertEquals(0, s.sleepersCount(), "it took its count back");
    }

    @Test
    void aSetLatchWakesItsOwnerWhichWithdrawsItsRead() throws Throwable {
        EmperSleep s = emper(2);
        FakeWorker w0 = new FakeWorker(s, 0);
        Watchdog.within("latch wake-up", () -> {
            Thread t = w0.startThread(() -> {
                w0.startLooking();
                w0.searchUntilWokenOnce();
            });
            awaitBlocked(s, 1);
            w0.latch.set(); // SLEEPING: the latch calls notifyWorkerLatchIsSet(0)
            t.join();
        });
        assertEquals(1, w0.counters.get(PoolCounter.LATCH_WAKEUPS));
        assertEquals(0, s.sleepersCount(), "the owner is no longer a sleeper: no notifier may claim it");
        s.newInjectedJobs(1, true);
        assertEquals(-1, s.sleepersCount(), "so the next notification stays pending instead of waking nobody");
        assertEquals(0, s.bufferedHints());
    }

    @Test
    void underRandomNotificationsTheCountMatchesTheReaders() throws Throwable {
        // Four workers sleep and wake at random while notifiers of both kinds run; latches end it. Afterwards no
        // reader is left, so the count holds only pending notifications, and no hint ever lacked a reader.
        int threads = 4;
        EmperSleep s = emper(threads);
        List<FakeWorker> workers = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        Watchdog.within("random notifications", () -> {
            for (int i = 0; i < threads; i++) {
                FakeWorker w = new FakeWorker(s, i);
                workers.add(w);
                running.add(w.startThread(() -> {
                    w.startLooking();
                    while (!w.latch.probe()) {
                        w.noWorkFound();
                        w.idle.firstPlaceToLook(); // the search that a hint asks for
                    }
                    s.workFound(w.idle);
                }));
            }
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < 20_000; i++) {
                probe.callingWorker = random.nextInt(threads);
                probe.visibleWork = random.nextInt(8) == 0;
                if (random.nextBoolean()) {
                    s.newInjectedJobs(1 + random.nextInt(2), true);
                } else {
                    s.newInternalJobs(1, true);
                }
                if (i % 1000 == 0) {
                    Thread.yield();
                }
            }
            probe.visibleWork = false;
            for (FakeWorker w : workers) {
                w.latch.set();
            }
            for (Thread t : running) {
                t.join();
            }
        });
        assertEquals(0, s.bufferedHints(), "every claimed hint found a posted read");
        assertEquals(0, s.sleepingThreads());
        int count = s.sleepersCount();
        assertTrue(count <= 0 && count >= -4, "no reader is left, so only pending notifications remain: " + count);
    }
}
