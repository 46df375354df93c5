package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.LaunchLoop;
import dev.forage.bench.scenario.LowLoadCpu;
import dev.forage.bench.scenario.Scenarios;
import dev.forage.bench.scenario.WakeupLatency;
import dev.forage.bench.scenario.YieldTurns;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every scenario, with tiny sizes, against every subject that can run it, in this JVM; then one real run of the
 * runner with fresh JVMs. These check that each measurement completes and reports sane numbers, not how fast
 * anything is.
 */
class SmokeTest {
    @TestFactory
    Stream<DynamicTest> everyScenarioRunsOnEverySubjectThatCanRunIt() {
        return Scenarios.ALL.stream().flatMap(sc -> Subjects.ALL.stream()
                .filter(s -> s.capabilities().contains(sc.needs()))
                .map(s -> DynamicTest.dynamicTest(sc.id() + " on " + s.id(), () -> Guard.within(60, sc.id(), () -> {
                    Results r = Child.run(sc, s, sc.threads(2), Budget.TINY);
                    for (Metric m : sc.metrics()) {
                        List<Double> v = r.samples().get(m.id());
                        assertNotNull(v, "no " + m.id() + " from " + sc.id() + " on " + s.id());
                        int expected = sc.group() == Scenario.Group.THROUGHPUT ? Budget.TINY.iterations
                                : Budget.TINY.windows;
                        assertEquals(expected, v.size(), m.id() + " samples");
                        for (double x : v) {
                            assertTrue(Double.isFinite(x) && x >= 0, m.id() + " = " + x);
                            if (sc.group() == Scenario.Group.THROUGHPUT || sc.group() == Scenario.Group.LOW_LOAD) {
                                // An operation takes time; a loaded pool burns at least the tasks' CPU, give or
                                // take the clock's accounting.
                                assertTrue(x > 0, m.id() + " = " + x);
                            }
                        }
                    }
                    if (s.isForage()) {
                        long all = jobs(r.info().get("forageStats"));
                        String timed = r.info().get("forageStatsTimed");
                        if (sc.group() == Scenario.Group.THROUGHPUT) {
                            // The warm-up ran at least one operation, so the timed part saw fewer jobs than the run.
                            assertNotNull(timed, "no statistics of the timed part for " + sc.id());
                            long t = jobs(timed);
                            assertTrue(t > 0 && t < all, "timed jobs " + t + ", all jobs " + all);
                        } else if (sc.group() == Scenario.Group.LOW_LOAD) {
                            // Exactly the timed windows' tasks: not the warm-up's, not the idle-cycle pass's.
                            assertNotNull(timed, "no statistics of the timed windows for " + sc.id());
                            long perWindow = Long.parseLong(r.info().get("tasksPerWindow"));
                            assertEquals(Budget.TINY.windows * perWindow, jobs(timed), "timed jobs; all: " + all);
                        } else {
                            assertNull(timed, sc.id() + " has no warm-up/timed split");
                        }
                    }
                    if (sc.id().equals("yield")) {
                        String turns = r.info().get(YieldTurns.INFO_KEY);
                        assertNotNull(turns, "the yield row's fairness count is missing");
                        assertTrue(Integer.parseInt(turns) >= 1, "turns " + turns);
                    }
                    if (sc.id().equals("launch-1m")) {
                        String split = r.info().get(LaunchLoop.INFO_KEY);
                        assertNotNull(split, "the launch row's loop split is missing");
                        assertTrue(split.matches("\\d+ of \\d+ ms, \\d+ %"), split);
                        if (s.isForage()) {
                            // The three untimed operations after the timed part (10,000 children each) must not
                            // count as timed: the timed part ran two operations of 10,000 children.
                            long t = jobs(r.info().get("forageStatsTimed"));
                            assertTrue(t >= 2 * 10_000L && t < 3 * 10_000L, "timed jobs " + t);
                        }
                    }
                    if (sc.group() == Scenario.Group.LOW_LOAD) {
                        String cycles = r.info().get(LowLoadCpu.IDLE_CYCLE_KEY);
                        assertNotNull(cycles, "the low-load rows' idle-cycle split is missing");
                        Matcher m = Pattern.compile("p50 ([\\d.]+), p90 ([\\d.]+), mean ([\\d.]+) µs "
                                + "\\(task ([\\d.]+) µs, (\\d+) cycles; outside them (-?[\\d.]+) µs per task\\)")
                                .matcher(cycles);
                        assertTrue(m.matches(), sc.id() + " on " + s.id() + ": " + cycles);
                        assertTrue(Double.parseDouble(m.group(1)) <= Double.parseDouble(m.group(2)), cycles);
                        // A thread's first task in the pass has no cycle before it; every other task has one.
                        long perWindow = Long.parseLong(r.info().get("tasksPerWindow"));
                        long n = Long.parseLong(m.group(5));
                        assertTrue(n >= 1 && n < perWindow, cycles);
                        // The task is calibrated to about 20 µs of wall time on an idle CPU.
                        assertTrue(Double.parseDouble(m.group(4)) > 1, cycles);
                    }
                    if (sc.group() == Scenario.Group.WAKEUP) {
                        long samples = (long) Budget.TINY.windows * Budget.TINY.wakeupsPerWindow;
                        assertTrue(r.histograms().get("latency").getTotalCount() == samples);
                        if (sc instanceof WakeupLatency) { // the periodic row has its own "late > 1 ms" metric
                            String slow = r.info().get(WakeupLatency.OVER_ONE_MILLI_KEY);
                            assertNotNull(slow, "the wake-up rows' millisecond count is missing");
                            assertTrue(slow.matches("\\d+ of " + samples), slow);
                        }
                        for (int i = 0; i < Budget.TINY.windows; i++) {
                            assertTrue(r.samples().get("p50").get(i) <= r.samples().get("p99").get(i));
                        }
                    }
                }))));
    }

    /** The job count of Forage's statistics text ({@code "jobs 123, steals ..."}). */
    private static long jobs(String stats) {
        assertNotNull(stats, "no pool statistics");
        assertTrue(stats.startsWith("jobs "), stats);
        return Long.parseLong(stats.substring(5, stats.indexOf(',')));
    }

    @Test
    void theRunnerMeasuresInFreshJvmsAndWritesTableAndCharts(@TempDir File out) throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int[] status = new int[1];
        Guard.within(300, "Compare", () -> status[0] = Compare.run(new String[] {"--tiny", "--scenarios",
                "fib-join,lowload-1ms,wakeup-outside", "--subjects", "forage-jec,forkjoin", "--forks", "2",
                // Measured once each: on a shared machine reruns would triple the time, and this checks that the
                // runs complete, not that they were undisturbed (BusyMachineTest checks the reruns).
                "--reruns", "0", "--out", out.getPath()},
                new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8)));
        String err = stderr.toString(StandardCharsets.UTF_8);
        assertEquals(0, status[0], "runner failed:\n" + err + stdout.toString(StandardCharsets.UTF_8));
        assertTrue(err.contains("[ 12/12]"), "progress lines:\n" + err);
        String md = Files.readString(new File(out, "results.md").toPath());
        assertTrue(md.contains("| scenario | metric | Forage (JEC) | ForkJoinPool |"), md);
        for (String row : new String[] {"fork-join fib(30)", "low load: 20 µs task every 1 ms", "wake-up latency from outside"}) {
            assertTrue(md.lines().anyMatch(l -> l.startsWith("| " + row) && !l.contains("failed")
                    && !l.contains("not run")), row + " row in:\n" + md);
        }
        assertTrue(md.contains("**Against the anchors**"), md);
        for (String png : new String[] {Charts.COMPUTE, Charts.LOWLOAD, Charts.WAKEUP}) {
            BufferedImage img = ImageIO.read(new File(out, png));
            assertNotNull(img, png);
            assertEquals(Charts.WIDTH, img.getWidth(), png);
            assertTrue(img.getHeight() > Charts.FRAME_HEIGHT, png + " " + img.getWidth() + "x" + img.getHeight());
            assertTrue(md.contains("![" + png + "](" + png + ")"), "the report shows " + png + ":\n" + md);
        }
    }
}
