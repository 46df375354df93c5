package dev.forage.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link OpenTelemetryTaskDecorator}: every check of {@link ContextCheck} on real pools, and the decorator alone. */
@Watchdog.Budget(seconds = 60)
class OpenTelemetryTaskDecoratorTest {
    private static final ContextKey<String> USER = ContextKey.named("user");

    @AfterEach
    void rootContextOnTheTestThread() {
        assertSame(Context.root(), Context.current(), "a test left a context on the test thread");
    }

    @Test
    void passesEveryContextCheck() throws Exception {
        assertEquals(List.of(),
                new ContextCheck(Carriers.openTelemetry(), new OpenTelemetryTaskDecorator()).problems());
    }

    @Test
    void theTaskRunsInTheVeryContextOfItsSubmission() {
        AtomicReference<Context> seen = new AtomicReference<>();
        Context submitted = Context.current().with(USER, "ada");
        Runnable decorated;
        try (Scope submitter = submitted.makeCurrent()) {
            decorated = new OpenTelemetryTaskDecorator().decorate(() -> seen.set(Context.current()));
        }
        try (Scope runner = Context.current().with(USER, "runner").makeCurrent()) {
            decorated.run();
            assertSame(submitted, seen.get(), "the context object of the submission, every value in it");
            assertEquals("runner", Context.current().get(USER));
        }
    }

    @Test
    void theTasksExceptionPassesThroughUnchangedAndTheContextIsBack() {
        IllegalStateException boom = new IllegalStateException("task failed");
        Runnable decorated;
        try (Scope submitter = Context.current().with(USER, "submitter").makeCurrent()) {
            decorated = new OpenTelemetryTaskDecorator().decorate(() -> {
                throw boom;
            });
        }
        try (Scope runner = Context.current().with(USER, "runner").makeCurrent()) {
            assertSame(boom, assertThrows(IllegalStateException.class, decorated::run));
            assertEquals("runner", Context.current().get(USER));
        }
    }

    @Test
    void aNullTaskIsRefusedWithAMessageThatSaysWhatItTakes() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> new OpenTelemetryTaskDecorator().decorate(null));
        assertTrue(e.getMessage().startsWith("OpenTelemetryTaskDecorator.decorate: task is null; it takes the "
                + "Runnable"), e.getMessage());
    }
}
