package dev.forage.samples.futures;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

// A hang fails the test (JUnit's watchdog interrupts it and reports where it stood); no step waits on time.
@Timeout(120)
class OrderPipelineTest {

    private static List<String> runMain() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(bytes, true, "UTF-8"));
        try {
            OrderPipeline.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String output = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        original.print(output);
        return Arrays.asList(output.split("\\R"));
    }

    @Test
    void theProgramPrintsEachStepsOutcome() throws Exception {
        List<String> lines = runMain();

        assertEquals(5, lines.size(), "one line per step and the total: " + lines);
        // 3499 + 2450 + 899 + 899 + 1275: every price made it through the fan-in, each computed on the pool.
        assertEquals("fan-out: 5 items priced in parallel, 5 of them on the pool's workers; subtotal 9022 cents",
                lines.get(0));
        assertEquals("failing stage: recovered from IllegalArgumentException: no price for 'gift-card' in the"
                + " catalogue", lines.get(1));
        assertEquals("timeout: the carrier's quote failed with TimeoutException after 100 ms; shipping at the"
                + " flat rate, 499 cents", lines.get(2));
        Matcher cancellation = Pattern.compile("cancellation: audit cancelled=true, its task stopped after (\\d+)"
                + " batches, dependent failed with CancellationException").matcher(lines.get(3));
        assertTrue(cancellation.matches(), lines.get(3));
        assertEquals("total: 9521 cents (items 9022 + shipping 499)", lines.get(4));
    }

    @Test
    void theCancelledAuditReallyStopsAndTheOwnedPoolShutsDown() throws Exception {
        ForagePool pool = ForagePool.builder().threads(2).name("orders-test").build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ForageExecutorService executor = ForageExecutorService.owning(pool)) {
            new OrderPipeline(pool, new PrintStream(bytes, true, "UTF-8")).cancellation();
        }
        // close() waited for the workers: had the audit ignored its cancellation, close() would never return.
        assertTrue(pool.isTerminated(), "the owned pool has terminated after close()");
        assertTrue(bytes.toString("UTF-8").startsWith("cancellation: audit cancelled=true"), bytes.toString("UTF-8"));
    }
}
