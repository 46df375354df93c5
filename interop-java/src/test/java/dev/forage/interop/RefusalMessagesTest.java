package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The facade's refusals are short and name the task once: a task whose {@code toString} is 5,000 characters long
 * is cut, a submitted callable is named by its class (the facade's own wrapper is not what the user submitted),
 * and a refusal the pool made is the cause, not quoted (it names the same task).
 */
@ExtendWith(Watchdog.class)
class RefusalMessagesTest {
    static final int MAX_MESSAGE = 300;
    static final String MARK = "LONG-NAMED-TASK";

    /** A task that prints its whole payload. */
    static final class LongNamed implements Runnable, Callable<String> {
        @Override
        public void run() {
        }

        @Override
        public String call() {
            return "called";
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(MARK);
            for (int i = 0; i < 5000; i++) {
                b.append('x');
            }
            return b.toString();
        }
    }

    static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    static void assertShort(Throwable e) {
        String m = e.getMessage();
        assertTrue(m.length() <= MAX_MESSAGE, () -> m.length() + " characters: " + m);
    }

    /** Short, and names the long-named task exactly once. */
    static void assertNamesTheTaskOnce(Throwable e) {
        assertShort(e);
        assertEquals(1, occurrences(e.getMessage(), MARK), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(ExecutorKindsTest.Kind.class)
    void afterShutdownEveryRefusalNamesTheTaskOnce(ExecutorKindsTest.Kind kind) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("refusals-" + kind).build();
        ForageExecutorService executor = kind.over(pool);
        executor.shutdown();
        try {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> executor.execute(new LongNamed()));
            assertNamesTheTaskOnce(e);
            assertTrue(e.getMessage().contains("is shut down") && e.getMessage().contains("allowed: "),
                    e.getMessage());
            e = assertThrows(RejectedExecutionException.class, () -> executor.submit((Runnable) new LongNamed()));
            assertShort(e);
            assertEquals(1, occurrences(e.getMessage(), LongNamed.class.getName()), e.getMessage());
            e = assertThrows(RejectedExecutionException.class,
                    () -> executor.schedule((Callable<String>) new LongNamed(), 1, TimeUnit.SECONDS));
            assertShort(e);
        } finally {
            pool.close();
        }
    }

    @Test
    void aViewWhosePoolShutDownNamesTheTaskOnce() {
        ForagePool pool = ForagePool.builder().threads(1).name("refusals-view-pool").build();
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        pool.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> view.execute(new LongNamed()));
        assertNamesTheTaskOnce(e);
        assertTrue(e.getMessage().contains("pool refusals-view-pool"), e.getMessage());
    }

    @Test
    void badArgumentsAreShort() {
        ForagePool pool = ForagePool.builder().threads(1).name("refusals-args").build();
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        try {
            assertShort(assertThrows(IllegalArgumentException.class,
                    () -> executor.invokeAny(java.util.Collections.<Callable<String>>emptyList())));
            assertShort(assertThrows(IllegalArgumentException.class,
                    () -> executor.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS)));
            assertShort(assertThrows(IllegalArgumentException.class,
                    () -> ForageExecutorService.owning(ForagePool.commonPool())));
        } finally {
            executor.shutdown();
        }
    }
}
