package dev.forage.context;

import dev.forage.ForagePool;
import dev.forage.ForageTaskDecorator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.MDC;

/**
 * What a user of one decorator runs, each in a class of its own so that {@code OptionalDependenciesTest} can load
 * it in a class loader that holds only that decorator's library: each class names one library, or none.
 */
final class LibraryProbes {
    private LibraryProbes() {
    }

    /** Runs {@code task} on a one-worker pool decorated by {@code decorator}, and returns what it answered. */
    static String onAPool(ForageTaskDecorator decorator, Callable<String> task) throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).name("probe").taskDecorator(decorator).build()) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    answer.complete(task.call());
                } catch (Exception e) {
                    answer.completeExceptionally(e);
                }
            });
            return answer.get(30, TimeUnit.SECONDS);
        }
    }

    /** SLF4J only: MdcTaskDecorator, composed. */
    static final class Mdc implements Callable<String> {
        @Override
        public String call() throws Exception {
            MDC.put("requestId", "r-mdc");
            try {
                return onAPool(TaskDecorators.compose(new MdcTaskDecorator(), task -> task),
                        () -> MDC.get("requestId"));
            } finally {
                MDC.clear();
            }
        }
    }

    /** OpenTelemetry only: OpenTelemetryTaskDecorator, composed. */
    static final class OpenTelemetry implements Callable<String> {
        private static final ContextKey<String> KEY = ContextKey.named("requestId");

        @Override
        public String call() throws Exception {
            try (Scope request = Context.current().with(KEY, "r-otel").makeCurrent()) {
                return onAPool(TaskDecorators.compose(new OpenTelemetryTaskDecorator(), task -> task),
                        () -> Context.current().get(KEY));
            }
        }
    }

    /** Neither library: a decorator of one's own, composed. */
    static final class Neither implements Callable<String> {
        private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

        @Override
        public String call() throws Exception {
            ForageTaskDecorator own = task -> {
                String captured = CONTEXT.get();
                return () -> {
                    CONTEXT.set(captured);
                    try {
                        task.run();
                    } finally {
                        CONTEXT.remove();   // a worker thread of a pool that has threads: it had none before
                    }
                };
            };
            CONTEXT.set("r-own");
            try {
                return onAPool(TaskDecorators.compose(own, task -> task), CONTEXT::get);
            } finally {
                CONTEXT.remove();
            }
        }
    }
}
