package dev.forage.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition by polling it until a deadline: the allowed way for a test to wait for something it
 * cannot get a latch for (a worker falling asleep, a statistic reaching a value). The short park between polls
 * only spaces the polls out, so the poller does not steal the CPU that the pool needs to get there; it is never
 * the synchronization itself. On timeout the failure carries the state and a thread dump.
 */
public final class Poll {
    /** Generous: the condition is expected within milliseconds; only a bug makes it take this long. */
    public static final int DEFAULT_DEADLINE_SECONDS = 60;

    private Poll() {
    }

    public static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        until(what, DEFAULT_DEADLINE_SECONDS, condition, state);
    }

    public static void until(String what, int deadlineSeconds, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(deadlineSeconds);
        long park = 10_000L; // 10 us, backing off to 1 ms
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not reached within " + deadlineSeconds + " s: " + what
                        + "\nstate: " + state.get() + "\n" + Watchdog.threadDump());
            }
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, 1_000_000L);
        }
    }
}
