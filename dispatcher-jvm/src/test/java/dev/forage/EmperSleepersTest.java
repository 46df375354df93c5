package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** EMPER's sleepers count: the notifier-side decrements, negative values as pending notifications. */
class EmperSleepersTest {
    private static EmperSleepers withSleepers(int n) {
        EmperSleepers s = new EmperSleepers();
        for (int i = 0; i < n; i++) {
            assertTrue(s.countSleeper() >= 0);
        }
        return s;
    }

    @Test
    void notifyEmperClaimsAtMostTheSleepersItSees() {
        EmperSleepers s = withSleepers(3);
        assertEquals(2, s.notifyEmper(2));
        assertEquals(1, s.get());
        assertEquals(1, s.notifyEmper(5), "only one sleeper is left to claim");
        assertEquals(0, s.get());
        assertEquals(0, s.notifyEmper(1), "nobody counted: nothing to write");
        assertEquals(0, s.get(), "NotifyEmper never drives the count below zero");
    }

    @Test
    void notifyAnywhereLeavesPendingNotificationsThatAWorkerAboutToSleepConsumes() {
        EmperSleepers s = new EmperSleepers();
        assertEquals(0, s.notifyAnywhere(1), "nobody sleeps: no hint, but the notification is kept");
        assertEquals(-1, s.get());
        assertTrue(s.countSleeper() < 0, "a worker about to sleep sees the pending notification: it must not sleep");
        assertEquals(0, s.get());
        assertTrue(s.countSleeper() >= 0, "with nothing pending the next worker sleeps");
    }

    @Test
    void notifyAnywhereStopsOnceNNotificationsArePending() {
        EmperSleepers s = new EmperSleepers();
        s.notifyAnywhere(2);
        assertEquals(-2, s.get());
        assertEquals(0, s.notifyAnywhere(2), "two are already pending");
        assertEquals(-2, s.get());
        s.notifyAnywhere(3);
        assertEquals(-5, s.get(), "three more may be pending for a notification of three");
    }

    @Test
    void notifyAnywhereWakesTheSleepersItSeesAndKeepsTheRestPending() {
        EmperSleepers s = withSleepers(2);
        assertEquals(2, s.notifyAnywhere(5));
        assertEquals(-3, s.get(), "all five take effect: two as wake-ups, three as pending");
    }

    @Test
    void uncountingGivesTheCountBackOnlyWhileSomeoneIsUnclaimed() {
        EmperSleepers s = withSleepers(1);
        assertTrue(s.uncountSleeper());
        assertEquals(0, s.get());
        s = withSleepers(1);
        assertEquals(1, s.notifyEmper(1));
        assertFalse(s.uncountSleeper(), "claimed by a notifier: its hint is on the way, wait for it");
        assertEquals(0, s.get());
    }

    @Test
    void concurrentNotifiersClaimEachSleeperExactlyOnce() throws Exception {
        // The reason for the CAS loops: racing notifiers must split the sleepers, never both claim one.
        for (int round = 0; round < 200; round++) {
            int sleepers = 1000;
            EmperSleepers s = withSleepers(sleepers);
            int threads = 4;
            CyclicBarrier start = new CyclicBarrier(threads);
            AtomicInteger claimed = new AtomicInteger();
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int n = t + 1;
                boolean anywhere = t % 2 == 0;
                Thread th = new Thread(() -> {
                    PoolHarness.await(start);
                    for (int i = 0; i < 600; i++) {
                        claimed.addAndGet(anywhere ? s.notifyAnywhere(n) : s.notifyEmper(n));
                    }
                });
                all.add(th);
                th.start();
            }
            for (Thread th : all) {
                th.join();
            }
            assertEquals(sleepers, claimed.get(), "hints written must equal the sleepers counted");
            assertTrue(s.get() <= 0 && s.get() >= -2 * threads, "pending notifications stay bounded: " + s.get());
        }
    }
}
