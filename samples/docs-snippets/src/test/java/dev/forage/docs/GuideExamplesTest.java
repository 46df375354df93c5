package dev.forage.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.testing.Watchdog;
import guide.Database;
import guide.JavaPage;
import guide.LifecyclePage;
import guide.Report;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The guides' opening programs run and print what their code computes, and the blocks whose comments state a
 * result give it ({@link DocsCodeBlocksTest} checks that the pages show these files as they are).
 */
@Watchdog.Budget(seconds = 60)
class GuideExamplesTest {

    @Test
    void theJavaGuidesProgramRuns() throws Throwable {
        // 6 * 7, the scheduled task's value, the words of "to be or not to be" and its 18 bytes.
        assertEquals(List.of("42 later 6 18"), output("JavaGuide"));
    }

    @Test
    void theCoroutinesGuidesProgramRuns() throws Throwable {
        // The lengths of alpha, beta, gamma; the file's 18 bytes; 1 + 2 + ... + 1000.
        assertEquals(List.of("14", "18", "500500"), output("CoroutinesGuideKt"));
    }

    @Test
    void theJavaGuidesResizeReturnsWhatItsCommentsSay() {
        // docs/java.md: setParallelism(8) on a pool of 4 returns 4, and setting it back returns 8.
        assertArrayEquals(new int[] {4, 8}, JavaPage.resize());
    }

    @Test
    void theJavaGuidesBlockingCallsRunOnThePool() throws Exception {
        Path path = Files.createTempFile("forage", ".txt");
        Files.write(path, "a\nb\nc".getBytes(StandardCharsets.UTF_8));
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(1).build())) {
            assertEquals(3, JavaPage.blockingInsideATask(executor, path).get().rows());
            Database twoRows = sql -> Arrays.asList(sql, sql);
            Object[] made = JavaPage.blockingExecutor(executor.pool(), twoRows, "select", path);
            assertEquals(2, ((ForageFuture<?>) made[0]).thenApply(r -> ((Report) r).rows()).join());
            assertEquals(5, ((CompletableFuture<?>) made[1]).thenApply(raw -> ((byte[]) raw).length).join());
        } finally {
            Files.delete(path);
        }
    }

    @Test
    void theLifecyclePagesResizeLeavesTwoWorkers() {
        try (ForagePool pool = LifecyclePage.resize()) {
            assertEquals(2, pool.parallelism());
        }
    }

    /** What the program printed, line by line. Its class is in the unnamed package, as a reader's first file is. */
    private static List<String> output(String mainClass) throws Throwable {
        Method main = Class.forName(mainClass).getMethod("main", String[].class);
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, "UTF-8"));
        try {
            main.invoke(null, (Object) new String[0]);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            System.setOut(original);
        }
        String printed = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        original.print(printed);
        return Arrays.asList(printed.trim().split("\\R"));
    }
}
