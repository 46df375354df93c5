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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The core reaches its extensions only through their seams ({@code docs/architecture.md}): its files never name
 * a runner, the monitor, IO's implementations, the blocking executor or the assembly that builds them; and with
 * the runners, they never name the IO worker's parker or reactor, never test a parker's type or the runner's, and
 * never name a comparison sleep protocol. Checked on the source, comments included (a file should
 * read whole without the classes its seam hides), so that a shortcut back to the concrete class fails here rather
 * than in a review.
 */
class EngineSeamsTest {
    /** Where the package's main sources are: its own root, and the comparison baselines' root once they have one. */
    private static final List<Path> SOURCE_ROOTS =
            List.of(Paths.get("src", "main", "java"), Paths.get("src", "main", "baselines"));
    private static final Path PACKAGE = Paths.get("dev", "forage");
    /**
     * The core: the registry, the worker, the seams it reaches its extensions through, the sleep protocol, the
     * queues, the latches and the job types. It must read whole without the classes its seams hide.
     */
    private static final List<String> CORE = List.of("Registry", "Worker", "Runner", "PoolIo", "PoolWatch",
            "PendingJobs", "Sleep", "IdleState", "IdleContext", "JecSleep", "JecCounters", "Parker", "ThreadParker",
            "PoolTimers", "Lifecycle", "Injector", "WorkDeque",
            "CoreLatch", "SpinLatch", "CountLatch", "LockLatch", "StackJob", "Join", "ScopeRun", "WaitedJob");
    /** The threads' side: it may name the runners it is, never IO's insides or a mode it is not told. */
    private static final List<String> RUNNERS = List.of("ThreadedRunner", "ThreadedShutdown", "CallerRunner",
            "Compensation", "Retirement", "Resize", "BlockingExecutor");
    private static final List<String> ENGINE = concat(CORE, RUNNERS.toArray(new String[0]));

    /** One rule: what a matching line does, and the files it holds for. */
    private record Rule(String does, Pattern pattern, List<String> files) {
    }

    /**
     * A concrete IO class by name, or a type test or cast on a parker. Registry may name the two {@link PoolIo}
     * implementations: it picks one when it builds the pool, as it picks the runner.
     */
    private static final Rule IO = new Rule("names the IO worker's parker or reactor, or tests a parker's type",
            Pattern.compile("\\b(SelectorParker|IoReactor|IoChannel)\\b"
                    + "|instanceof\\s+\\w*Parker\\b|\\(\\s*\\w*Parker\\s*\\)\\s*\\w"),
            ENGINE);

    /**
     * A type test or cast of the runner: a branch on the mode in shared code, where {@link Runner}'s methods are
     * the one place a mode differs.
     */
    private static final Rule RUNNER_MODE = new Rule("tests the runner's type",
            Pattern.compile("instanceof\\s+(ThreadedRunner|CallerRunner)\\b"
                    + "|\\(\\s*(ThreadedRunner|CallerRunner)\\s*\\)\\s*[\\w(]"),
            ENGINE);

    /**
     * A comparison sleep protocol by name. The baselines are measured against, never run by default: the engine,
     * the protocol's interface and the production protocol must build and read without them.
     */
    private static final Rule BASELINES = new Rule("names a comparison sleep protocol",
            Pattern.compile("\\b(SleepyWorkerSleep|SleepyWorkerWord|EmperSleep|EmperSleepers|HintPipe|SearchCapSleep"
                    + "|SpinForWork|SharedLockSleepState)\\b"),
            ENGINE);

    /**
     * An extension by name: the runners, the monitor, IO's implementations, the blocking executor, the assembly
     * that builds them. The core reaches each through its seam ({@link Runner}, {@link PoolWatch}, {@link PoolIo},
     * {@link PendingJobs}); a name here, even in a comment, would send its reader out of the core.
     */
    private static final Rule EXTENSIONS = new Rule("names an extension the core reaches only through its seam",
            Pattern.compile("\\b(ThreadedRunner|CallerRunner|ThreadedShutdown|Compensation|Resize|Retirement"
                    + "|ThreadHooks|ExtraMain|Monitor|MonitorGate|BlockedJobs|SelectorIo|NoIo|IoReactor"
                    + "|SelectorParker|BlockingExecutor|PoolParts)\\b"),
            CORE);

    @Test
    void theEngineReachesIoOnlyThroughPoolIo() throws IOException {
        assertEquals(List.of(), findings(IO, read(IO.files())), "the engine names what the IO seam hides");
    }

    @Test
    void theEngineNeverTestsTheRunnersType() throws IOException {
        assertEquals(List.of(), findings(RUNNER_MODE, read(RUNNER_MODE.files())), "the engine branches on the mode");
    }

    @Test
    void theCoreNamesNoExtension() throws IOException {
        assertEquals(List.of(), findings(EXTENSIONS, read(EXTENSIONS.files())), "the core names an extension");
    }

    @Test
    void theExtensionRuleSeesAnExtensionName() {
        assertSees(EXTENSIONS, List.of("final Monitor monitor;", "runner = new ThreadedRunner(this, n);",
                "/** Stand-ins ({@link Compensation}) own no channels. */", "((SelectorIo) io).reactor(0);"),
                List.of("final PoolWatch monitor;", "monitor.jobsPosted();", "Runner runner = parts.runner(this, 0);",
                        "final boolean monitored;", "PoolIo io = parts.io(name, n, tuning, handler);"));
    }

    @Test
    void theEngineAndTheProductionProtocolNeverNameABaseline() throws IOException {
        assertEquals(List.of(), findings(BASELINES, read(BASELINES.files())), "a comparison protocol leaks out");
    }

    // Each rule must match the shapes it forbids, or the tests above could pass on anything, and must let a line
    // through that only looks alike, or the rule would forbid what the code needs.

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

    /** Every line of {@code files} (each file's lines by name) that {@code rule} matches. */
    private static List<String> findings(Rule rule, Map<String, List<String>> files) {
        List<String> found = new ArrayList<>();
        files.forEach((name, lines) -> {
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).trim();
                if (rule.pattern().matcher(line).find()) {
                    found.add(name + ".java:" + (i + 1) + " " + rule.does() + ": " + line);
                }
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
