package dev.forage.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.util.LogbackMDCAdapter;
import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** {@link MdcTaskDecorator}: every check of {@link ContextCheck} on real pools, and the decorator on its own. */
@Watchdog.Budget(seconds = 60)
class MdcTaskDecoratorTest {
    @BeforeAll
    static void mdcIsReal() {
        // slf4j-simple and the NOP binding keep no MDC at all, which would make every check below vacuous.
        assertInstanceOf(LogbackMDCAdapter.class, MDC.getMDCAdapter());
    }

    @AfterEach
    void clearTestThread() {
        MDC.clear();
    }

    @Test
    void passesEveryContextCheck() throws Exception {
        assertEquals(List.of(), new ContextCheck(Carriers.mdc(), new MdcTaskDecorator()).problems());
    }

    @Test
    void theTaskGetsTheWholeMapOfItsSubmissionAndTheThreadItsOwnBack() {
        MDC.put("requestId", "r-1");
        MDC.put("user", "ada");
        Runnable decorated = new MdcTaskDecorator().decorate(new Runnable() {
            @Override
            public void run() {
                assertEquals(Map.of("requestId", "r-1", "user", "ada"), MDC.getCopyOfContextMap());
                MDC.put("inTask", "x");
            }
        });
        // What the submitter does after submitting is not the task's business: the copy was taken.
        MDC.clear();
        MDC.put("requestId", "r-2");
        decorated.run();
        assertEquals(Map.of("requestId", "r-2"), MDC.getCopyOfContextMap(), "the running thread's MDC after the task");
        decorated.run();   // the captured map is unchanged by the first run
        assertEquals(Map.of("requestId", "r-2"), MDC.getCopyOfContextMap());
    }

    @Test
    void aTaskSubmittedWithoutAnMdcRunsWithNoneEvenOnAThreadThatHasOne() {
        MDC.clear();
        AtomicReference<Map<String, String>> seen = new AtomicReference<>(Map.of("not", "run"));
        Runnable decorated = new MdcTaskDecorator().decorate(() -> seen.set(MDC.getCopyOfContextMap()));
        MDC.put("requestId", "the runner's own");
        decorated.run();
        assertTrue(seen.get() == null || seen.get().isEmpty(), "the task saw " + seen.get());
        assertEquals("the runner's own", MDC.get("requestId"));
    }

    @Test
    void theTasksExceptionPassesThroughUnchangedAndTheMdcIsBack() {
        IllegalStateException boom = new IllegalStateException("task failed");
        MDC.put("requestId", "submitter");
        Runnable decorated = new MdcTaskDecorator().decorate(() -> {
            throw boom;
        });
        MDC.put("requestId", "runner");
        assertSame(boom, assertThrows(IllegalStateException.class, decorated::run));
        assertEquals("runner", MDC.get("requestId"));
    }

    @Test
    void aNullTaskIsRefusedWithAMessageThatSaysWhatItTakes() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new MdcTaskDecorator().decorate(null));
        assertTrue(e.getMessage().startsWith("MdcTaskDecorator.decorate: task is null; it takes the Runnable"),
                e.getMessage());
        assertNull(MDC.getCopyOfContextMap());
    }
}
