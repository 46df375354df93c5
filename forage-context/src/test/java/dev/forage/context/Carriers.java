package dev.forage.context;

import dev.forage.context.ContextCheck.Carrier;
import dev.forage.context.ContextCheck.Entered;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.Map;
import org.slf4j.MDC;

/** The two contexts this artifact carries, as {@link ContextCheck} sees them: one value under "requestId". */
final class Carriers {
    static final String KEY = "requestId";
    private static final ContextKey<String> OTEL_KEY = ContextKey.named(KEY);

    private Carriers() {
    }

    /** SLF4J's MDC: entering puts the value, closing puts the whole previous map back. */
    static Carrier mdc() {
        return new Carrier() {
            @Override
            public Entered enter(String value) {
                Map<String, String> previous = MDC.getCopyOfContextMap();
                MDC.put(KEY, value);
                return () -> {
                    if (previous == null) {
                        MDC.clear();
                    } else {
                        MDC.setContextMap(previous);
                    }
                };
            }

            @Override
            public String current() {
                return MDC.get(KEY);
            }

            @Override
            public void clear() {
                MDC.clear();
            }

            @Override
            public String toString() {
                return "MDC";
            }
        };
    }

    /** OpenTelemetry's Context: entering opens a scope, closing closes it. */
    static Carrier openTelemetry() {
        return new Carrier() {
            @Override
            public Entered enter(String value) {
                Scope scope = Context.current().with(OTEL_KEY, value).makeCurrent();
                return scope::close;
            }

            @Override
            public String current() {
                return Context.current().get(OTEL_KEY);
            }

            @Override
            @SuppressWarnings("MustBeClosed")
            public void clear() {
                // Left open on purpose: this is the broken decorator's way of leaving the thread with no context.
                Context.root().makeCurrent();
            }

            @Override
            public String toString() {
                return "OpenTelemetry Context";
            }
        };
    }
}
