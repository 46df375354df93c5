package dev.forage.interop;

import static dev.forage.testing.LongJobRecording.naming;
import static dev.forage.testing.LongJobRecording.pool;
import static dev.forage.testing.LongJobRecording.record;
import static dev.forage.testing.LongJobRecording.runLong;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * JFR's {@code dev.forage.LongJob} names the user's task behind the Java facade's jobs: a submitted callable, a
 * view's runnable, a future's supplier. Those jobs drop the user's object once it ran (so that it can be
 * collected), and the event still names its class. Each pool has a 20 ms threshold; each task runs 60 ms.
 */
@Watchdog.Budget(seconds = 120)
class LongJobNamesTest {
    private static int counter;

    private static String uniqueName(String what) {
        synchronized (LongJobNamesTest.class) {
            return "interop-long-job-" + what + "-" + (++counter);
        }
    }

    @Test
    void aSubmittedCallableIsNamedByItsClass() throws Exception {
        ForagePool pool = pool(uniqueName("submit"), 2);
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        Callable<String> task = () -> {
            runLong();
            return "done";
        };
        List<RecordedEvent> events = record(pool, () -> assertEquals("done", executor.submit(task).get()));
        assertEquals("dev.forage.interop.SubmittedTask", naming(events, task.getClass().getName())
                .getString("wrapperClass"));
    }

    @Test
    void invokeAnysTaskIsNamedByItsClassNotByTheTrackerAroundIt() throws Exception {
        ForagePool pool = pool(uniqueName("invoke-any"), 2);
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        Callable<String> task = () -> {
            runLong();
            return "first";
        };
        List<RecordedEvent> events = record(pool, () -> assertEquals("first",
                executor.invokeAny(java.util.Collections.singletonList(task))));
        naming(events, task.getClass().getName());
    }

    @Test
    void aViewsRunnableAndSubmittedRunnableAreNamedByTheirClasses() throws Exception {
        ForagePool pool = pool(uniqueName("view"), 2);
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        CountDownLatch ran = new CountDownLatch(1);
        Runnable executed = () -> {
            runLong();
            ran.countDown();
        };
        Runnable submitted = LongJobNamesTest::longStep;
        List<RecordedEvent> events = record(pool, () -> {
            view.execute(executed);
            view.submit(submitted).get();
            ran.await();
        });
        assertEquals("dev.forage.interop.Dispatch",
                naming(events, executed.getClass().getName()).getString("wrapperClass"));
        assertEquals("dev.forage.interop.Dispatch",
                naming(events, submitted.getClass().getName()).getString("wrapperClass"));
    }

    @Test
    void aFuturesSupplierAndActionAreNamedByTheirClasses() throws Exception {
        ForagePool pool = pool(uniqueName("futures"), 2);
        Supplier<String> supplier = () -> {
            runLong();
            return "value";
        };
        Runnable action = LongJobNamesTest::longStep;
        List<RecordedEvent> events = record(pool, () -> {
            assertEquals("value", ForageFutures.supplyAsync(supplier, pool).get());
            ForageFutures.runAsync(action, pool).get();
        });
        assertEquals("dev.forage.interop.AsyncSupply",
                naming(events, supplier.getClass().getName()).getString("wrapperClass"));
        assertEquals("dev.forage.interop.AsyncSupply",
                naming(events, action.getClass().getName()).getString("wrapperClass"));
    }

    private static void longStep() {
        runLong();
    }
}
