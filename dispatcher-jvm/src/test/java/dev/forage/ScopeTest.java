package dev.forage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code scope} from a user's view: it waits for everything spawned into it, and reports failures after. */
@Watchdog.Budget(seconds = 120)
class ScopeTest {
    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void waitsForNestedSpawnsAndReturnsTheBodysResult(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            AtomicIntegerArray ran = new AtomicIntegerArray(1000);
            String result = pool.scope(s -> {
                for (int i = 0; i < 10; i++) {
                    int a = i;
                    s.spawn(inner -> {
                        for (int j = 0; j < 10; j++) {
                            int b = j;
                            inner.spawn(deeper -> {
                                for (int k = 0; k < 10; k++) {
                                    int id = a * 100 + b * 10 + k;
                                    deeper.spawn(() -> {
                                        Pools.burn(1000);
                                        ran.incrementAndGet(id);
                                    });
                                }
                            });
                        }
                    });
                }
                return "body";
            });
            assertEquals("body", result);
            for (int i = 0; i < 1000; i++) {
                assertEquals(1, ran.get(i), "job " + i + " had not finished (or ran twice) when scope returned");
            }
        }
    }

    @Test
    void theBodyRunsOnAWorkerOfThePool() {
        try (ForagePool pool = Pools.pool(2)) {
            assertSame(pool, pool.scope(s -> ForagePool.current()));
            assertSame(pool, pool.install(() -> pool.scope(s -> ForagePool.current())));
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void theBodysFailureArrivesUnchangedAfterSpawnedJobsFinished(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            for (int round = 0; round < 20; round++) {
                AtomicBoolean bodyThrowing = new AtomicBoolean();
                AtomicInteger done = new AtomicInteger();
                IllegalStateException boom = new IllegalStateException("body failed");
                IllegalStateException caught = assertThrows(IllegalStateException.class, () -> pool.scope(s -> {
                    for (int i = 0; i < 3; i++) {
                        s.spawn(() -> {
                            Pools.briefly(bodyThrowing, 200);
                            Pools.burn(200_000);
                            done.incrementAndGet();
                        });
                    }
                    if (threads > 1) {
                        Pools.burn(100_000); // give thieves a chance to take the jobs before we fail
                    }
                    bodyThrowing.set(true);
                    throw boom;
                }));
                assertSame(boom, caught);
                assertEquals(3, done.get(), "the failure arrived before the spawned jobs finished");
            }
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void aSpawnedJobsErrorArrivesUnchangedAfterItsSiblingsFinished(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            JoinTest.TestError boom = new JoinTest.TestError("job failed");
            AtomicInteger done = new AtomicInteger();
            JoinTest.TestError caught = assertThrows(JoinTest.TestError.class, () -> pool.scope(s -> {
                s.spawn(() -> {
                    throw boom;
                });
                for (int i = 0; i < 4; i++) {
                    s.spawn(() -> {
                        Pools.burn(300_000);
                        done.incrementAndGet();
                    });
                }
                return null;
            }));
            assertSame(boom, caught);
            assertEquals(4, done.get());
        }
    }

    @Test
    void whenTheBodyAndAJobFailTheFirstCarriesTheSecondAsSuppressed() {
        // One worker: the body finishes (and fails) before the spawned job runs, so the order is known.
        try (ForagePool pool = Pools.pool(1)) {
            IllegalStateException first = new IllegalStateException("body");
            IllegalArgumentException second = new IllegalArgumentException("job");
            IllegalStateException caught = assertThrows(IllegalStateException.class, () -> pool.scope(s -> {
                s.spawn(() -> {
                    throw second;
                });
                throw first;
            }));
            assertSame(first, caught);
            assertArrayEquals(new Throwable[] {second}, caught.getSuppressed());
        }
    }

    @Test
    void spawnAfterTheScopeEndedIsRefusedAndThePoolKeepsWorking() {
        try (ForagePool pool = Pools.pool(2)) {
            AtomicReference<Scope> escaped = new AtomicReference<>();
            pool.scope(s -> {
                escaped.set(s);
                return null;
            });
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> escaped.get().spawn(() -> { }));
            assertTrue(e.getMessage().contains("after the scope ended"), e.getMessage());
            IllegalStateException e2 = assertThrows(IllegalStateException.class,
                    () -> pool.install(() -> {
                        escaped.get().spawn(inner -> { });
                        return null;
                    }));
            assertTrue(e2.getMessage().contains("after the scope ended"), e2.getMessage());
            assertEquals(7, (int) pool.scope(s -> 7));
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 3})
    void scopesNestInsideJoinsAndJoinsInsideScopes(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            AtomicInteger count = new AtomicInteger();
            pool.scope(s -> {
                for (int i = 0; i < 8; i++) {
                    s.spawn(() -> {
                        JoinResult<Integer, Integer> r = pool.join(
                                () -> pool.scope(inner -> {
                                    inner.spawn(count::incrementAndGet);
                                    return 1;
                                }),
                                () -> pool.scope(inner -> {
                                    inner.spawn(count::incrementAndGet);
                                    return 2;
                                }));
                        count.addAndGet(r.first() + r.second());
                    });
                }
                return null;
            });
            assertEquals(8 * (2 + 3), count.get());
        }
    }
}
