package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.util.LogbackMDCAdapter;
import dev.forage.ForagePool;
import dev.forage.ForageTaskDecorator;
import dev.forage.context.MdcTaskDecorator;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import dev.forage.testing.Watchdog;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * SLF4J's MDC (Logback's adapter) through the pool's task decorator, forage-context's {@link MdcTaskDecorator} as
 * a user imports it: the submitter's values are there in the task, and gone from the worker afterwards; without
 * the decorator they never arrive. docs/integrations.md, "Context propagation". The decorator's own checks
 * (restoring rather than clearing, exceptions, every face) are forage-context's tests.
 */
@Watchdog.Budget(seconds = 60)
class MdcPropagationTest {
    @BeforeAll
    static void mdcIsReal() {
        // slf4j-simple and the NOP binding keep no MDC at all, which would make the negative test below vacuous.
        assertInstanceOf(LogbackMDCAdapter.class, MDC.getMDCAdapter());
    }

    @AfterEach
    void clearTestThread() {
        MDC.clear();
    }

    @Test
    void theSubmittersMdcIsInTheTaskAndGoneFromTheWorkerAfterwards() throws Exception {
        // What the worker's MDC holds once the decorated task has returned, recorded by an outer decorator.
        LinkedBlockingQueue<String> afterwards = new LinkedBlockingQueue<>();
        MdcTaskDecorator mdc = new MdcTaskDecorator();
        ForageTaskDecorator observed = task -> {
            Runnable decorated = mdc.decorate(task);
            return () -> {
                decorated.run();
                afterwards.add(String.valueOf(MDC.getCopyOfContextMap()));
            };
        };
        ForagePool pool = ForagePool.builder().threads(1).name("mdc").taskDecorator(observed).build();
        try (ForageExecutorService executor = ForageExecutorService.owning(pool)) {
            MDC.put("requestId", "r-17");
            String inTask = executor.submit(() -> MDC.get("requestId")).get(30, TimeUnit.SECONDS);
            assertEquals("r-17", inTask);
            assertEquals("{}", afterwards.poll(30, TimeUnit.SECONDS).replace("null", "{}"),
                    "the worker's MDC after the task");

            MDC.clear();
            String withoutContext = executor.submit(() -> String.valueOf(MDC.get("requestId")))
                    .get(30, TimeUnit.SECONDS);
            assertEquals("null", withoutContext, "a task submitted without an MDC sees none on the same worker");
        }
    }

    @Test
    void theMdcFollowsAFuturesChainAcrossAsyncStages() throws Exception {
        // snippet: docs/integrations.md, MDC pool
        ForagePool pool = ForagePool.builder().threads(2).name("mdc-chain")
                .taskDecorator(new MdcTaskDecorator())
                .build();
        MDC.put("requestId", "r-18");
        ForageFuture<String> chain = ForageFutures.supplyAsync(() -> MDC.get("requestId"), pool)
                .thenApplyAsync(first -> first + "/" + MDC.get("requestId"))
                .thenComposeAsync(two -> ForageFutures.supplyAsync(() -> two + "/" + MDC.get("requestId"), pool));
        // end snippet
        try (pool) {
            MDC.clear();
            assertEquals("r-18/r-18/r-18", chain.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void withoutTheDecoratorTheMdcStaysOnTheSubmittingThread() throws Exception {
        try (ForageExecutorService executor =
                     ForageExecutorService.owning(ForagePool.builder().threads(1).name("no-mdc").build())) {
            MDC.put("requestId", "r-19");
            Map<String, String> inTask = executor.submit(MDC::getCopyOfContextMap).get(30, TimeUnit.SECONDS);
            assertTrue(inTask == null || inTask.isEmpty(), "no MDC crossed: " + inTask);
            assertEquals("r-19", MDC.get("requestId"), "the submitter keeps its own");
        }
    }

    @Test
    void scheduledAndPeriodicTasksCarryTheMdcOfTheirFirstSubmission() throws Exception {
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(1)
                .name("mdc-timers").taskDecorator(new MdcTaskDecorator()).build())) {
            MDC.put("requestId", "r-20");
            LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
            executor.schedule(() -> seen.add("once " + MDC.get("requestId")), 1, TimeUnit.MILLISECONDS);
            var periodic = executor.scheduleAtFixedRate(() -> seen.add("every " + MDC.get("requestId")),
                    0, 2, TimeUnit.MILLISECONDS);
            MDC.clear();
            int every = 0;
            boolean once = false;
            while (every < 3 || !once) {
                String s = seen.poll(30, TimeUnit.SECONDS);
                assertTrue(s != null && s.endsWith(" r-20"), "seen: " + s);
                if (s.startsWith("once")) {
                    once = true;
                } else {
                    every++;
                }
            }
            periodic.cancel(false);
            assertNull(MDC.get("requestId"));
        }
    }
}
