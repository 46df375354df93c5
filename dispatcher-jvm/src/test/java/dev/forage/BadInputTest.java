package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad input gets a clear exception naming what is allowed, and the pool keeps working afterwards. */
@Watchdog.Budget(seconds = 120)
class BadInputTest {
    private static void assertRejected(Class<? extends Throwable> type, Executable call, String... mentions) {
        Throwable e = assertThrows(type, call);
        for (String m : mentions) {
            assertTrue(e.getMessage() != null && e.getMessage().contains(m),
                    "message should mention '" + m + "': " + e.getMessage());
        }
    }

    @Test
    void threadCountOutsideOneTo65535IsRejected() {
        assertEquals(65_535, ForagePoolBuilder.MAX_THREADS);
        for (int bad : new int[] {0, -1, 65_536, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertRejected(IllegalArgumentException.class, () -> ForagePool.builder().threads(bad),
                    "between 1 and 65535", "was " + bad);
        }
        ForagePool.builder().threads(1).threads(65_535); // the bounds themselves are accepted (not built)
    }

    @Test
    void builderNullsAndBlankNamesAreRejected() {
        assertRejected(NullPointerException.class, () -> ForagePool.builder().name(null), "name");
        assertRejected(IllegalArgumentException.class, () -> ForagePool.builder().name("  "), "blank");
        assertRejected(NullPointerException.class, () -> ForagePool.builder().threadFactory(null), "threadFactory");
        assertRejected(NullPointerException.class, () -> ForagePool.builder().uncaughtExceptionHandler(null),
                "uncaughtExceptionHandler");
    }

    @Test
    void nullJobsAndBadTimeoutsAreRejectedAndThePoolKeepsWorking() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            Executable[] calls = {
                () -> pool.execute(null),
                () -> pool.executeFair(null),
                () -> pool.join(null, () -> 1),
                () -> pool.join(() -> 1, null),
                () -> pool.scope(null),
                () -> pool.install(null),
                () -> pool.schedule(null, 1, TimeUnit.SECONDS),
                () -> pool.schedule(() -> { }, 1, null),
                () -> pool.awaitTermination(1, null),
            };
            String[] mention = {"job", "job", "non-null", "non-null", "body", "computation", "job", "unit", "unit"};
            for (int i = 0; i < calls.length; i++) {
                assertRejected(NullPointerException.class, calls[i], mention[i]);
                assertEquals(pool, pool.install(ForagePool::current),
                        "the pool stopped working after rejected call " + i);
            }
            assertRejected(IllegalArgumentException.class, () -> pool.awaitTermination(-1, TimeUnit.SECONDS),
                    ">= 0", "-1");
            assertRejected(NullPointerException.class, () -> pool.scope(s -> {
                s.spawn((Runnable) null);
                return null;
            }), "job");
            assertRejected(NullPointerException.class, () -> pool.scope(s -> {
                s.spawn((ScopeTask) null);
                return null;
            }), "task");
            ForageLatch latch = ForageLatch.forCurrentThread();
            assertRejected(IllegalArgumentException.class, () -> latch.await(-1, TimeUnit.MILLISECONDS), ">= 0");
            assertEquals(42, pool.install(() -> 42));
            assertEquals(3, (int) pool.scope(s -> {
                s.spawn(() -> { });
                return 3;
            }));
        }
    }
}
