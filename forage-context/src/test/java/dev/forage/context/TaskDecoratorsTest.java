package dev.forage.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.ForageTaskDecorator;
import dev.forage.testing.Watchdog;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** {@link TaskDecorators#compose}: order, the MDC and OpenTelemetry decorators together, and bad input. */
@Watchdog.Budget(seconds = 60)
class TaskDecoratorsTest {
    private static final ContextKey<String> TRACE = ContextKey.named("trace");

    @AfterEach
    void clearTestThread() {
        MDC.clear();
    }

    @Test
    void theMdcAndOpenTelemetryDecoratorsTogetherPassEveryCheckOfBoth() throws Exception {
        ForageTaskDecorator both = TaskDecorators.compose(new MdcTaskDecorator(), new OpenTelemetryTaskDecorator());
        ForageTaskDecorator reversed = TaskDecorators.compose(new OpenTelemetryTaskDecorator(), new MdcTaskDecorator());
        for (ForageTaskDecorator d : List.of(both, reversed)) {
            assertEquals(List.of(), new ContextCheck(Carriers.mdc(), d).problems(), d + ", MDC");
            assertEquals(List.of(), new ContextCheck(Carriers.openTelemetry(), d).problems(), d + ", OpenTelemetry");
        }
    }

    @Test
    void bothContextsReachOneTask() throws Exception {
        // snippet: docs/integrations.md, both decorators
        ForagePool pool = ForagePool.builder().threads(2).name("requests")
                .taskDecorator(TaskDecorators.compose(new MdcTaskDecorator(), new OpenTelemetryTaskDecorator()))
                .build();
        // end snippet
        try (pool; Scope trace = Context.current().with(TRACE, "t-1").makeCurrent()) {
            MDC.put("requestId", "r-1");
            CompletableFuture<String> seen = new CompletableFuture<>();
            pool.execute(() -> seen.complete(MDC.get("requestId") + " " + Context.current().get(TRACE)));
            assertEquals("r-1 t-1", seen.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void theFirstDecoratorIsOutermostAndTheLastCapturesFirst() {
        List<String> events = new ArrayList<>();
        ForageTaskDecorator composed = TaskDecorators.compose(recording("a", events), recording("b", events),
                recording("c", events));
        Runnable decorated = composed.decorate(() -> events.add("task"));
        assertEquals(List.of("c captures", "b captures", "a captures"), events);
        events.clear();
        decorated.run();
        assertEquals(List.of("a sets", "b sets", "c sets", "task", "c restores", "b restores", "a restores"), events);
    }

    @Test
    void noDecoratorsLeaveTheTaskAsItIsAndOneIsItself() {
        Runnable task = () -> { };
        assertSame(task, TaskDecorators.compose().decorate(task));
        MdcTaskDecorator mdc = new MdcTaskDecorator();
        assertSame(mdc, TaskDecorators.compose(mdc));
    }

    @Test
    void theArrayIsCopied() {
        List<String> events = new ArrayList<>();
        ForageTaskDecorator[] decorators = {recording("a", events), recording("b", events)};
        ForageTaskDecorator composed = TaskDecorators.compose(decorators);
        decorators[1] = recording("changed", events);
        composed.decorate(() -> { }).run();
        assertEquals(List.of("b captures", "a captures", "a sets", "b sets", "b restores", "a restores"), events);
    }

    @Test
    void aNullArrayOrDecoratorIsRefusedWithAMessageThatSaysWhatIsAllowed() {
        NullPointerException array = assertThrows(NullPointerException.class,
                () -> TaskDecorators.compose((ForageTaskDecorator[]) null));
        assertEquals("TaskDecorators.compose: the decorators array is null; pass the decorators themselves, "
                + "outermost first, or none", array.getMessage());
        NullPointerException element = assertThrows(NullPointerException.class,
                () -> TaskDecorators.compose(new MdcTaskDecorator(), null));
        assertEquals("TaskDecorators.compose: decorator 1 of 2 is null; every decorator must be a "
                + "ForageTaskDecorator, such as new MdcTaskDecorator()", element.getMessage());
    }

    @Test
    void aNullTaskIsRefusedWithAMessageThatSaysWhatItTakes() {
        ForageTaskDecorator composed = TaskDecorators.compose(new MdcTaskDecorator(), new OpenTelemetryTaskDecorator());
        NullPointerException e = assertThrows(NullPointerException.class, () -> composed.decorate(null));
        assertEquals("decorate: task is null; TaskDecorators.compose[MdcTaskDecorator, OpenTelemetryTaskDecorator] "
                + "takes the Runnable the pool was given", e.getMessage());
    }

    @Test
    void aMemberThatReturnsNullIsNamed() {
        ForageTaskDecorator broken = new ForageTaskDecorator() {
            @Override
            public Runnable decorate(Runnable task) {
                return null;
            }

            @Override
            public String toString() {
                return "broken";
            }
        };
        ForageTaskDecorator composed = TaskDecorators.compose(broken, new MdcTaskDecorator());
        Runnable task = new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                return "the task";
            }
        };
        NullPointerException e = assertThrows(NullPointerException.class, () -> composed.decorate(task));
        assertTrue(e.getMessage().startsWith("decorator 0 of TaskDecorators.compose[broken, MdcTaskDecorator] "
                + "returned null for the task; a ForageTaskDecorator must return a Runnable"), e.getMessage());
    }

    /** A decorator that records when it captures (decorate), sets (before the task) and restores (after). */
    private static ForageTaskDecorator recording(String name, List<String> events) {
        return task -> {
            events.add(name + " captures");
            return () -> {
                events.add(name + " sets");
                try {
                    task.run();
                } finally {
                    events.add(name + " restores");
                }
            };
        };
    }
}
