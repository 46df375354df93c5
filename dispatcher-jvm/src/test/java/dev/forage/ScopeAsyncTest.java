package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link ForagePool#scopeAsync}: the listener is told once, after the body and every spawned job. */
@Watchdog.Budget(seconds = 60)
class ScopeAsyncTest {
    @Test
    void theListenerSeesTheResultAfterEveryNestedJobFinished() throws Exception {
        try (ForagePool pool = Pools.pool(3)) {
            for (boolean fromWorker : new boolean[] {false, true}) {
                AtomicInteger done = new AtomicInteger();
                AtomicInteger calls = new AtomicInteger();
                CompletableFuture<Integer> seen = new CompletableFuture<>();
                Runnable start = () -> pool.scopeAsync(s -> {
                    for (int i = 0; i < 50; i++) {
                        s.spawn(inner -> {
                            inner.spawn(done::incrementAndGet);
                            done.incrementAndGet();
                        });
                    }
                    return 7;
                }, (result, failure) -> {
                    calls.incrementAndGet();
                    assertNull(failure);
                    seen.complete(done.get() == 100 ? result : -done.get());
                });
                if (fromWorker) {
                    pool.execute(start);
                } else {
                    start.run();
                }
                assertEquals(7, seen.get(30, TimeUnit.SECONDS), "all 100 jobs finished before the listener");
                assertEquals(1, calls.get());
            }
        }
    }

    @Test
    void theFirstFailureReachesTheListenerWithTheOthersSuppressed() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            IllegalStateException body = new IllegalStateException("body");
            CompletableFuture<Throwable> seen = new CompletableFuture<>();
            pool.scopeAsync(s -> {
                s.spawn(() -> {
                    throw new IllegalArgumentException("job");
                });
                throw body;
            }, (result, failure) -> seen.complete(failure));
            Throwable failure = seen.get(30, TimeUnit.SECONDS);
            assertTrue(failure == body || failure.getMessage().equals("job"), "one of the two is first: " + failure);
            assertEquals(1, failure.getSuppressed().length, "the other is attached");
        }
    }

    @Test
    void afterShutdownItIsRejectedAndTheListenerIsNeverCalled() {
        ForagePool pool = Pools.pool(1);
        pool.close();
        AtomicInteger calls = new AtomicInteger();
        assertThrows(RejectedExecutionException.class,
                () -> pool.scopeAsync(s -> 1, (r, f) -> calls.incrementAndGet()));
        assertEquals(0, calls.get());
    }

    @Test
    void nullArgumentsAreRejectedWithTheirNames() {
        try (ForagePool pool = Pools.pool(1)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> pool.scopeAsync(null, (r, f) -> { }));
            assertTrue(e.getMessage().contains("body"), e.getMessage());
            assertThrows(NullPointerException.class, () -> pool.scopeAsync(s -> 1, null));
        }
    }

    @Test
    void onASingleThreadedPoolTheBodyRunsWhenTheCallerDrives() {
        try (ForagePool pool = ForagePool.builder().singleThreaded().build()) {
            Object[] seen = new Object[1];
            pool.scopeAsync(s -> {
                s.spawn(() -> { });
                return "ok";
            }, (result, failure) -> seen[0] = result);
            assertNull(seen[0], "queued only: nobody drives the pool yet");
            pool.runPending();
            assertSame("ok", seen[0]);
        }
    }
}
