package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shared engine reaches IO and the runner's modes only through their seams ({@code docs/architecture.md}):
 * the worker loop, the registry and the runners never name the IO worker's parker or reactor, never test a
 * parker's type, and never branch on a mode flag. Checked on the source, so that a shortcut back to the concrete
 * class fails here rather than in a review.
 */
class EngineSeamsTest {
    private static final Path SOURCES = Paths.get("src", "main", "java", "dev", "forage");
    /** The engine files that must stay blind to IO workers and to the runner's mode. */
    private static final String[] ENGINE = {"Worker", "Registry", "ThreadedRunner", "ThreadedShutdown",
        "CallerRunner", "Runner", "Compensation", "Retirement", "PoolTimers", "BlockingExecutor", "Lifecycle"};
    /**
     * A concrete IO class by name, a type test or cast on a parker, or a mode flag. Registry may name the two
     * {@link PoolIo} implementations: it picks one when it builds the pool, as it picks the runner.
     */
    private static final Pattern LEAK = Pattern.compile("\\b(SelectorParker|IoReactor|IoChannel)\\b"
            + "|instanceof\\s+\\w*Parker\\b|\\(\\s*\\w*Parker\\s*\\)\\s*\\w"
            + "|\\binSubmissionOrder\\b|\\brunsJobsInSubmissionOrder\\b");

    @Test
    void theEngineReachesIoAndTheRunnersModeOnlyThroughTheirSeams() throws IOException {
        List<String> leaks = new ArrayList<>();
        for (String name : ENGINE) {
            leaks.addAll(leaks(name));
        }
        assertEquals(new ArrayList<String>(), leaks, "the engine names what its seams hide");
    }

    @Test
    void theCheckSeesALeak() {
        // The pattern must match the shapes it forbids, or the test above could pass on anything.
        for (String leak : new String[] {"SelectorParker io;", "if (parker instanceof SelectorParker)",
            "((SelectorParker) parker).poll()", "w.inSubmissionOrder", "reactor = new IoReactor(n, 0, null)"}) {
            assertTrue(LEAK.matcher(leak).find(), leak);
        }
    }

    private static List<String> leaks(String name) throws IOException {
        Path file = SOURCES.resolve(name + ".java");
        assertTrue(Files.isRegularFile(file), file.toAbsolutePath() + " is missing: update ENGINE");
        List<String> found = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LEAK.matcher(lines.get(i));
            if (m.find()) {
                found.add(name + ".java:" + (i + 1) + ": " + lines.get(i).trim());
            }
        }
        return found;
    }
}
