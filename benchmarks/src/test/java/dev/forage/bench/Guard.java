package dev.forage.bench;

import dev.forage.testing.Watchdog;
import java.time.Duration;

/**
 * The build's one watchdog ({@link Watchdog}: a hang fails the test with a thread dump, budgets scaled by
 * {@code forage.test.budgetScale}) in the shape these tests call it: a body that throws checked exceptions.
 */
final class Guard {
    private Guard() {
    }

    interface Body {
        void run() throws Exception;
    }

    static void within(int seconds, String what, Body body) throws Exception {
        try {
            Watchdog.within(Duration.ofSeconds(seconds), what, () -> what, body::run);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(what + " failed", t);
        }
    }
}
