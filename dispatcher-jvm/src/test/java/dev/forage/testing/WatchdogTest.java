package dev.forage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The watchdog itself must turn a hang into a failure that shows where every thread is stuck. */
class WatchdogTest {
    @Test
    void aHangBecomesAFailureWithAFullThreadDump() {
        Object monitor = new Object();
        CountDownLatch never = new CountDownLatch(1);
        AssertionError e = assertThrows(AssertionError.class, () -> Watchdog.watch("hanging body", 1, () -> {
            synchronized (monitor) {
                never.await();
            }
            return null;
        }));
        String m = e.getMessage();
        assertTrue(m.contains("budget of 1 s"), m);
        assertTrue(m.contains("\"watched: hanging body\""), "the hung thread is in the dump:\n" + m);
        assertTrue(m.contains("WatchdogTest"), "with its whole stack:\n" + m);
        assertTrue(m.contains("- locked java.lang.Object@"), "with the monitors it holds:\n" + m);
        assertTrue(m.contains("CountDownLatch$Sync"), "and what it waits for:\n" + m);
    }

    @Test
    void aResultOrFailurePassesThroughUnchanged() throws Throwable {
        assertEquals(42, (int) Watchdog.watch("value", 10, () -> 42));
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Watchdog.watch("failure", 10, () -> {
            throw boom;
        })));
    }

    @Test
    void theBudgetScaleAppliesAndTheContextIsReported() {
        String before = System.getProperty(Watchdog.BUDGET_SCALE_PROPERTY);
        System.setProperty(Watchdog.BUDGET_SCALE_PROPERTY, "0.001"); // 120 s nominal: the 1 s floor
        try {
            CountDownLatch never = new CountDownLatch(1);
            AssertionError e = assertThrows(AssertionError.class,
                    () -> Watchdog.within("scaled body", () -> "pool state: idle", never::await));
            String m = e.getMessage();
            assertTrue(m.contains("budget of 1 s"), m);
            assertTrue(m.contains("pool state: idle"), "with the caller's context:\n" + m);
            assertTrue(m.contains("\"watched: scaled body\""), m);
        } finally {
            if (before == null) {
                System.clearProperty(Watchdog.BUDGET_SCALE_PROPERTY);
            } else {
                System.setProperty(Watchdog.BUDGET_SCALE_PROPERTY, before);
            }
        }
    }
}
