package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shared engine reaches IO, the runner's modes and the sleep protocols only through their seams
 * ({@code docs/architecture.md}): the worker loop, the registry and the runners never name the IO worker's parker
 * or reactor, never test a parker's type or the runner's, and never name a comparison sleep protocol, and neither
 * do the protocol's interface and the production protocol. Checked on the source, comments included (a file should
 * read whole without the classes its seam hides), so that a shortcut back to the concrete class fails here rather
 * than in a review.
 */
class EngineSeamsTest {
    /** Where the package's main sources are: its own root, and the comparison baselines' root once they have one. */
    private static final List<Path> SOURCE_ROOTS =
            List.of(Paths.get("src", "main", "java"), Paths.get("src", "main", "baselines"));
    private static final Path PACKAGE = Paths.get("dev", "forage");
    /** The engine files that must stay blind to IO workers, to the runner's mode and to the baselines. */
    private static final List<String> ENGINE = List.of("Worker", "Registry", "ThreadedRunner", "ThreadedShutdown",
            "CallerRunner", "Runner", "Compensation", "Retirement", "PoolTimers", "BlockingExecutor", "Lifecycle");

    /** One rule: what a matching line does, the files it holds for, and its known exceptions. */
    private record Rule(String does, Pattern pattern, List<String> files, Map<String, List<String>> allowed) {
    }

    /**
     * A concrete IO class by name, or a type test or cast on a parker. Registry may name the two {@link PoolIo}
     * implementations: it picks one when it builds the pool, as it picks the runner.
     */
    private static final Rule IO = new Rule("names the IO worker's parker or reactor, or tests a parker's type",
            Pattern.compile("\\b(SelectorParker|IoReactor|IoChannel)\\b"
                    + "|instanceof\\s+\\w*Parker\\b|\\(\\s*\\w*Parker\\s*\\)\\s*\\w"),
            ENGINE, Map.of());

    /**
     * A type test or cast of the runner: a branch on the mode in shared code, where {@link Runner}'s methods are
     * the one place a mode differs.
     */
    private static final Rule RUNNER_MODE = new Rule("tests the runner's type",
            Pattern.compile("instanceof\\s+(ThreadedRunner|CallerRunner)\\b"
                    + "|\\(\\s*(ThreadedRunner|CallerRunner)\\s*\\)\\s*[\\w(]"),
            ENGINE,
            // The monitor reads compensation's count from the threaded runner, which the registry finds by a type
            // test when it builds the monitor.
            Map.of("Registry", List.of("this.monitor = new Monitor(this, runner instanceof ThreadedRunner"
                    + " ? (ThreadedRunner) runner : null);")));

    /**
     * A comparison sleep protocol by name. The baselines are measured against, never run by default: the engine,
     * the protocol's interface and the production protocol must build and read without them.
     */
    private static final Rule BASELINES = new Rule("names a comparison sleep protocol",
            Pattern.compile("\\b(SleepyWorkerSleep|SleepyWorkerWord|EmperSleep|EmperSleepers|HintPipe|SearchCapSleep"
                    + "|SpinForWork|SharedLockSleepState)\\b"),
            concat(ENGINE, "Sleep", "JecSleep"),
            // Sleep.of builds the protocol a SleepProtocol names, the baselines included.
            Map.of("Sleep", List.of(
                    "sleep = new SleepyWorkerSleep(tuning, parkers);",
                    "sleep = new EmperSleep(tuning, parkers, probe);",
                    "sleep = new SearchCapSleep(jec, tuning, parkers.length, coreWorkers);",
                    "return spin > 0 ? new SpinForWork(sleep, tuning, parkers.length, spin, probe) : sleep;")));

    @Test
    void theEngineReachesIoOnlyThroughPoolIo() throws IOException {
        assertEquals(List.of(), findings(IO, read(IO.files())), "the engine names what the IO seam hides");
    }

    @Test
    void theEngineNeverTestsTheRunnersType() throws IOException {
        assertEquals(List.of(), findings(RUNNER_MODE, read(RUNNER_MODE.files())), "the engine branches on the mode");
    }

    @Test
    void theEngineAndTheProductionProtocolNeverNameABaseline() throws IOException {
        assertEquals(List.of(), findings(BASELINES, read(BASELINES.files())), "a comparison protocol leaks out");
    }

    // Each rule must match the shapes it forbids, or the tests above could pass on anything, and must let a line
    // through that only looks alike, or the allow-lists would have to grow.

    @Test
    void theIoRuleSeesALeak() {
        assertSees(IO, List.of("SelectorParker io;", "if (parker instanceof SelectorParker)",
                "((SelectorParker) parker).poll()", "reactor = new IoReactor(n, 0, null)"),
                List.of("io.poll(w.index);", "Parker parker = parkers[i];", "PoolIo io = registry.io;"));
    }

    @Test
    void theRunnerRuleSeesATypeTest() {
        assertSees(RUNNER_MODE, List.of("if (runner instanceof CallerRunner) {",
                "ThreadedRunner threaded = (ThreadedRunner) runner;", "((CallerRunner) runner).runPending();",
                "return r instanceof ThreadedRunner && ((ThreadedRunner) r).threads() > 0;"),
                List.of("CallerRunner callers = new CallerRunner(this);", "runner.submit(w, job);",
                        "ThreadedRunner(Registry registry, int threads) {", "return (Runnable) job;"));
    }

    @Test
    void theBaselineRuleSeesABaselineName() {
        assertSees(BASELINES, List.of("sleep = new SleepyWorkerSleep(tuning, parkers);",
                "if (sleep instanceof SpinForWork) {", "/** As {@link EmperSleep} does. */",
                "private final HintPipe hints;"),
                List.of("sleep = new JecSleep(tuning, parkers, probe);", "case SPIN_FOR_WORK:",
                        "long spinForWorkNanos = settings.spinForWorkNanos;", "JecIdleState idle;"));
    }

    @Test
    void anAllowedLineAllowsOnlyItselfAndIsReportedOnceGone() {
        Map<String, List<String>> files = new TreeMap<>();
        files.put("Registry", List.of("this.monitor = new Monitor(this, runner instanceof ThreadedRunner ? "
                + "(ThreadedRunner) runner : null);", "    if (runner instanceof CallerRunner) {"));
        assertEquals(List.of("Registry.java:2 tests the runner's type: if (runner instanceof CallerRunner) {"),
                findings(RUNNER_MODE, files), "a second type test beside the allowed one");

        files.put("Registry", List.of("this.monitor = new Monitor(this, threadedRunner);"));
        List<String> gone = findings(RUNNER_MODE, files);
        assertEquals(1, gone.size(), gone.toString());
        assertTrue(gone.get(0).startsWith("Registry.java: allowed but no longer there"), gone.get(0));
    }

    /**
     * Every line of {@code files} (each file's lines by name) that {@code rule} matches and does not allow, and
     * every allowed line that is no longer there: its entry must go, so that the allowance cannot hide a new one.
     */
    private static List<String> findings(Rule rule, Map<String, List<String>> files) {
        List<String> found = new ArrayList<>();
        files.forEach((name, lines) -> {
            List<String> allowed = rule.allowed().getOrDefault(name, List.of());
            Set<String> seen = new LinkedHashSet<>();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).trim();
                if (!rule.pattern().matcher(line).find()) continue;
                if (allowed.contains(line)) seen.add(line);
                else found.add(name + ".java:" + (i + 1) + " " + rule.does() + ": " + line);
            }
            for (String line : allowed) {
                if (!seen.contains(line)) found.add(name + ".java: allowed but no longer there (remove it): " + line);
            }
        });
        return found;
    }

    private static void assertSees(Rule rule, List<String> broken, List<String> harmless) {
        for (String line : broken) assertTrue(rule.pattern().matcher(line).find(), "must match: " + line);
        for (String line : harmless) assertFalse(rule.pattern().matcher(line).find(), "must not match: " + line);
    }

    /** Each named file's lines, from whichever source root holds it. */
    private static Map<String, List<String>> read(List<String> names) throws IOException {
        Map<String, List<String>> files = new TreeMap<>();
        for (String name : names) {
            List<Path> found = new ArrayList<>();
            for (Path root : SOURCE_ROOTS) {
                Path file = root.resolve(PACKAGE).resolve(name + ".java");
                if (Files.isRegularFile(file)) found.add(file);
            }
            assertEquals(1, found.size(), name + ".java: in " + found.size() + " of " + SOURCE_ROOTS
                    + ", not exactly one: update this test's lists");
            files.put(name, Files.readAllLines(found.get(0), StandardCharsets.UTF_8));
        }
        return files;
    }

    private static List<String> concat(List<String> list, String... more) {
        List<String> all = new ArrayList<>(list);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }
}
