package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.context.OpenTelemetryTaskDecorator;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFutures;
import dev.forage.testing.Watchdog;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * OpenTelemetry: forage-context's {@link OpenTelemetryTaskDecorator}, as a user imports it, carries the current
 * span's context into every task. docs/integrations.md, "Context propagation". The decorator's own checks are
 * forage-context's tests.
 */
@Watchdog.Budget(seconds = 60)
class OpenTelemetryPropagationTest {
    /** A span context as an incoming request's traceparent header would give it (no SDK needed to carry one). */
    private static final SpanContext REQUEST = SpanContext.createFromRemoteParent(
            "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", TraceFlags.getSampled(),
            TraceState.getDefault());

    @Test
    void theSpanContextCrossesIntoTasksAndFutures() throws Exception {
        // snippet: docs/integrations.md, OpenTelemetry pool
        ForagePool pool = ForagePool.builder().threads(2).name("traced")
                .taskDecorator(new OpenTelemetryTaskDecorator())
                .build();
        // end snippet
        try (ForageExecutorService executor = ForageExecutorService.owning(pool)) {
            try (Scope request = Context.current().with(Span.wrap(REQUEST)).makeCurrent()) {
                SpanContext inTask = executor.submit(() -> Span.current().getSpanContext()).get(30, TimeUnit.SECONDS);
                assertEquals(REQUEST, inTask);

                String inStage = ForageFutures.supplyAsync(() -> "x", pool)
                        .thenApplyAsync(x -> Span.current().getSpanContext().getTraceId())
                        .get(30, TimeUnit.SECONDS);
                assertEquals(REQUEST.getTraceId(), inStage);

                String inInstall = pool.install(() -> Span.current().getSpanContext().getSpanId());
                assertEquals(REQUEST.getSpanId(), inInstall, "install from outside runs in the caller's context");
            }
            assertFalse(Span.current().getSpanContext().isValid(), "the scope closed on the test thread");
            SpanContext later = executor.submit(() -> Span.current().getSpanContext()).get(30, TimeUnit.SECONDS);
            assertFalse(later.isValid(), "a task submitted outside the span carries none");
        }
    }

    @Test
    void withoutTheDecoratorTheSpanStaysOnTheSubmittingThread() throws Exception {
        try (ForageExecutorService executor =
                     ForageExecutorService.owning(ForagePool.builder().threads(1).name("untraced").build());
             Scope request = Context.current().with(Span.wrap(REQUEST)).makeCurrent()) {
            SpanContext inTask = executor.submit(() -> Span.current().getSpanContext()).get(30, TimeUnit.SECONDS);
            assertFalse(inTask.isValid(), "no span crossed: " + inTask);
            assertTrue(Span.current().getSpanContext().isValid());
        }
    }
}
