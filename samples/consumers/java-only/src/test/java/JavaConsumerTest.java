import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

/** Runs the README's Java quick starts as a Java-only user would, and checks what they print. */
class JavaConsumerTest {

    @Test
    void kotlinIsNotOnTheClasspath() {
        // dispatcher-jvm declares Kotlin as optional: a Java user who depends on the facade gets none of it.
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlin.Unit"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlinx.coroutines.CoroutineDispatcher"));
    }

    @Test
    void forkJoinQuickStartPrintsFib30AndTheStatistics() throws Exception {
        String out = runMain(() -> Fib.main(new String[0]));
        assertTrue(out.startsWith("832040 "), out);
        assertTrue(out.contains("jobs"), "statistics printed: " + out);
    }

    @Test
    void futuresQuickStartPrintsBothResults() throws Exception {
        assertEquals("42 6", runMain(() -> Futures.main(new String[0])).trim());
    }

    private interface Program {
        void run() throws Exception;
    }

    private static synchronized String runMain(Program program) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, "UTF-8"));
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(60), program::run);
        } finally {
            System.setOut(original);
        }
        String out = new String(captured.toByteArray(), StandardCharsets.UTF_8);
        original.print(out);
        return out;
    }
}
