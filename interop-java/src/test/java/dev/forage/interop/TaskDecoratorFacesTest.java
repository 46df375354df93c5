package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The pool's task decorator seen through the executor: a decorator that fails leaves no task counted by a view
 * (so the view still terminates), and stops a periodic task with its exception.
 */
@Watchdog.Budget(seconds = 60)
class TaskDecoratorFacesTest {
    @Test
    void aViewWhoseSubmissionTheDecoratorRefusedStillTerminates() throws Exception {
        IllegalStateException boom = new IllegalStateException("decorator failed");
        try (ForagePool pool = ForagePool.builder().threads(1).name("decorated-view").taskDecorator(task -> {
            throw boom;
        }).build()) {
            ForageExecutorService view = ForageExecutorService.viewOf(pool);
            assertSame(boom, assertThrows(IllegalStateException.class, () -> view.execute(() -> { })));
            assertSame(boom, assertThrows(IllegalStateException.class, () -> view.submit(() -> 1)));
            assertSame(boom, assertThrows(IllegalStateException.class,
                    () -> view.schedule(() -> { }, 1, TimeUnit.MILLISECONDS)));
            view.shutdown();
            assertTrue(view.awaitTermination(30, TimeUnit.SECONDS), "no refused task was left counted: " + view);
        }
    }

    @Test
    void aDecoratorFailingOnAPeriodicTasksNextRunStopsItWithThatException() throws Exception {
        AtomicInteger decorations = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("no context for the third run");
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(1)
                .name("decorated-periodic").taskDecorator(task -> {
                    if (decorations.incrementAndGet() == 3) {
                        throw boom;
                    }
                    return task;
                }).build())) {
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(runs::incrementAndGet, 0, 1,
                    TimeUnit.MILLISECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> periodic.get(30, TimeUnit.SECONDS));
            assertSame(boom, e.getCause());
            assertEquals(2, runs.get(), "two runs were decorated and ran; the third never was");
        }
    }
}
