package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.LongNamedTask;
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
    @ParameterizedTest
    @EnumSource(ExecutorKindsTest.Kind.class)
    void afterShutdownEveryRefusalNamesTheTaskOnce(ExecutorKindsTest.Kind kind) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("refusals-" + kind).build();
        ForageExecutorService executor = kind.over(pool);
        executor.shutdown();
        try {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> executor.execute(new LongNamedTask()));
            LongNamedTask.assertNamesItOnce(e);
            assertTrue(e.getMessage().contains("is shut down") && e.getMessage().contains("allowed: "),
                    e.getMessage());
            e = assertThrows(RejectedExecutionException.class, () -> executor.submit((Runnable) new LongNamedTask()));
            LongNamedTask.assertShort(e);
            assertEquals(1, LongNamedTask.occurrences(e.getMessage(), LongNamedTask.class.getName()), e.getMessage());
            e = assertThrows(RejectedExecutionException.class,
                    () -> executor.schedule((Callable<String>) new LongNamedTask(), 1, TimeUnit.SECONDS));
            LongNamedTask.assertShort(e);
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
                () -> view.execute(new LongNamedTask()));
        LongNamedTask.assertNamesItOnce(e);
        assertTrue(e.getMessage().contains("pool refusals-view-pool"), e.getMessage());
    }

    @Test
    void badArgumentsAreShort() {
        ForagePool pool = ForagePool.builder().threads(1).name("refusals-args").build();
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        try {
            LongNamedTask.assertShort(assertThrows(IllegalArgumentException.class,
                    () -> executor.invokeAny(java.util.Collections.<Callable<String>>emptyList())));
            LongNamedTask.assertShort(assertThrows(IllegalArgumentException.class,
                    () -> executor.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS)));
            LongNamedTask.assertShort(assertThrows(IllegalArgumentException.class,
                    () -> ForageExecutorService.owning(ForagePool.commonPool())));
        } finally {
            executor.shutdown();
        }
    }
}
