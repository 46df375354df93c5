package dev.forage.interop;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes: waiting for a state, never for a duration. */
final class Eventually {
    private static final long DEADLINE_SECONDS = 30;

    private Eventually() {
    }

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still not true after " + DEADLINE_SECONDS + " s: " + what);
            }
            LockSupport.parkNanos(100_000L); // a polling interval, not a guess at how long something takes
        }
    }
}
