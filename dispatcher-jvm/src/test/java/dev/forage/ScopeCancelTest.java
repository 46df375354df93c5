package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Scope#cancel()}: jobs that have not started never run, the running one finishes, the scope still waits. */
@Watchdog.Budget(seconds = 120)
class ScopeCancelTest {
    @Test
    void aCancelledScopeSkipsItsQueuedJobsAndStillWaitsForTheRunningOne() {
        // One worker: the body and then one job at a time, so every job spawned by the body is still queued
        // when the first one to start cancels the scope.
        try (ForagePool pool = Pools.pool(1)) {
            AtomicInteger started = new AtomicInteger();
            AtomicBoolean cancellerFinished = new AtomicBoolean();
            AtomicBoolean sawCancelled = new AtomicBoolean();
            String result = pool.scope(s -> {
                for (int i = 0; i < 10; i++) {
                    s.spawn(() -> {
                        if (started.incrementAndGet() == 1) {
                            s.cancel();
                            sawCancelled.set(s.isCancelled());
                            s.spawn(() -> started.incrementAndGet()); // after cancel: never queued
                            s.spawn(inner -> started.incrementAndGet());
                            cancellerFinished.set(true);
                        }
                    });
                }
                return "body";
            });
            assertEquals("body", result, "a cancelled scope still returns its body's result");
            assertTrue(cancellerFinished.get(), "the scope returned before its running job finished");
            assertTrue(sawCancelled.get());
            assertEquals(1, started.get(), "jobs that had not started when the scope was cancelled ran anyway");
        }
    }

    @Test
    void anUncancelledScopeRunsEverything() {
        try (ForagePool pool = Pools.pool(2)) {
            AtomicInteger ran = new AtomicInteger();
            pool.scope(s -> {
                s.spawn(inner -> inner.spawn(ran::incrementAndGet), inner -> ran.incrementAndGet());
                assertFalse(s.isCancelled());
                return null;
            });
            assertEquals(2, ran.get());
        }
    }
}
