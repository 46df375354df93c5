package dev.forage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Fib;
import dev.forage.testing.Watchdog;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code join} from a user's view: both results, failures unchanged and only after the sibling finished. */
@Watchdog.Budget(seconds = 120)
class JoinTest {
    static final class TestError extends Error {
        TestError(String message) {
            super(message);
        }
    }


    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void returnsBothResultsFromOutsideAndInside(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            JoinResult<String, Integer> outside = pool.join(() -> "left", () -> 2);
            assertEquals("left", outside.first());
            assertEquals(2, outside.second());
            assertEquals(6765L, pool.install(() -> Fib.join(pool, 20)));
            assertEquals(6765L, Fib.join(pool, 20), "every level of a join from outside enters the pool");
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void bothHalvesRunOnThePoolAndAMayRunOnTheCaller(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            Thread[] ran = new Thread[3];
            pool.install(() -> {
                ran[0] = Thread.currentThread();
                return pool.join(() -> ran[1] = Thread.currentThread(), () -> ran[2] = Thread.currentThread());
            });
            assertSame(ran[0], ran[1], "a runs on the calling worker");
            assertTrue(Pools.workerThreads(pool).contains(ran[2]), "b runs on a worker of the pool");
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void failureOfTheFirstArrivesUnchangedAndOnlyAfterTheSecondFinished(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            for (int round = 0; round < 20; round++) {
                AtomicBoolean bStarted = new AtomicBoolean();
                AtomicBoolean aThrowing = new AtomicBoolean();
                AtomicBoolean bDone = new AtomicBoolean();
                IllegalStateException boom = new IllegalStateException("a failed");
                IllegalStateException caught = assertThrows(IllegalStateException.class, () -> pool.install(
                        () -> pool.join(() -> {
                            if (threads > 1) {
                                Pools.briefly(bStarted, 200); // let a thief take b, so the race is real
                            }
                            aThrowing.set(true);
                            throw boom;
                        }, () -> {
                            bStarted.set(true);
                            Pools.briefly(aThrowing, 200);
                            Pools.burn(200_000);
                            bDone.set(true);
                            return 1;
                        })));
                assertSame(boom, caught);
                assertTrue(bDone.get(), "the exception arrived before the sibling finished");
            }
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void failureOfTheSecondArrivesUnchangedAndOnlyAfterTheFirstFinished(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            for (int round = 0; round < 20; round++) {
                AtomicBoolean bThrew = new AtomicBoolean();
                AtomicBoolean aDone = new AtomicBoolean();
                TestError boom = new TestError("b failed");
                TestError caught = assertThrows(TestError.class, () -> pool.install(() -> pool.join(() -> {
                    if (threads > 1) {
                        Pools.briefly(bThrew, 200);
                    }
                    Pools.burn(200_000);
                    aDone.set(true);
                    return 1;
                }, () -> {
                    bThrew.set(true);
                    throw boom;
                })));
                assertSame(boom, caught, "an Error must arrive unchanged, not wrapped");
                assertTrue(aDone.get(), "the exception arrived before the sibling finished");
            }
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void whenBothFailTheFirstCarriesTheSecondAsSuppressed(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            IllegalArgumentException first = new IllegalArgumentException("a");
            TestError second = new TestError("b");
            IllegalArgumentException caught = assertThrows(IllegalArgumentException.class,
                    () -> pool.join(() -> {
                        throw first;
                    }, () -> {
                        throw second;
                    }));
            assertSame(first, caught);
            assertArrayEquals(new Throwable[] {second}, caught.getSuppressed());
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void failuresFromADeepJoinTreeReachTheTop(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            IllegalStateException boom = new IllegalStateException("leaf 777");
            IllegalStateException caught = assertThrows(IllegalStateException.class,
                    () -> pool.install(() -> sumOrFail(pool, 0, 1024, 777, boom)));
            assertSame(boom, caught);
            assertEquals((long) 1023 * 1024 / 2, pool.install(() -> sumOrFail(pool, 0, 1024, -1, boom)),
                    "the pool keeps working after a failed tree");
        }
    }

    private static long sumOrFail(ForagePool pool, int from, int to, int failAt, RuntimeException boom) {
        if (to - from == 1) {
            if (from == failAt) {
                throw boom;
            }
            return from;
        }
        int mid = (from + to) >>> 1;
        JoinResult<Long, Long> r = pool.join(() -> sumOrFail(pool, from, mid, failAt, boom),
                () -> sumOrFail(pool, mid, to, failAt, boom));
        return r.first() + r.second();
    }
}
