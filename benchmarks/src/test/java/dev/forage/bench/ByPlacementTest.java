package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-placement comparison ({@link ByPlacement}): each operation in the band of the round trips on both sides
 * of it, the report's medians and ratios per band, and one real run in a fresh JVM whose every timed operation is
 * accounted for in the report.
 */
class ByPlacementTest {
    private static final ByPlacement.Side A = new ByPlacement.Side("before", "a.jar", "forage-jec", true);
    private static final ByPlacement.Side B = new ByPlacement.Side("after", "b.jar", "forage-jec", true);

    @Test
    void anOperationIsFastOrSlowOnlyWhenTheRoundTripsOnBothSidesAgree() {
        ByPlacement.JvmRun r = new ByPlacement.JvmRun(A, List.of(1.0, 2.0, 3.0, 4.0),
                new long[] {60, 70, 400, 420, 100});
        assertEquals(ByPlacement.Band.FAST, r.band(0, 150, 250));
        assertEquals(ByPlacement.Band.MIXED, r.band(1, 150, 250), "moved from fast to slow during it");
        assertEquals(ByPlacement.Band.SLOW, r.band(2, 150, 250));
        assertEquals(ByPlacement.Band.MIXED, r.band(3, 150, 250), "moved back");
        // Between the two thresholds an operation belongs to neither placement.
        assertEquals(ByPlacement.Band.MIXED, new ByPlacement.JvmRun(A, List.of(1.0), new long[] {200, 200})
                .band(0, 150, 250));
    }

    @Test
    void aRunNeedsOneRoundTripMoreThanItHasOperations() {
        assertThrows(IllegalArgumentException.class,
                () -> new ByPlacement.JvmRun(A, List.of(1.0, 2.0), new long[] {60, 70}));
    }

    @Test
    void theReportComparesSidesWithinEachBand() {
        List<ByPlacement.JvmRun> runs = List.of(
                new ByPlacement.JvmRun(A, List.of(300.0, 310.0, 700.0), new long[] {60, 60, 60, 400}),
                new ByPlacement.JvmRun(B, List.of(290.0, 600.0, 620.0), new long[] {60, 60, 400, 400}),
                new ByPlacement.JvmRun(A, List.of(720.0, 680.0), new long[] {400, 400, 400}));
        String report = ByPlacement.report(Scenarios.byId("launch-1m"), runs, List.of(A, B), 150, 250);
        // A: fast 300 and 310 in one JVM; slow 720 and 680 in another; 700 moved between placements.
        assertTrue(report.contains("| forage-jec @ before | fast (< 150 ns) | 2 | 305 (300–310) | 1 | 305–305 |"),
                report);
        assertTrue(report.contains("| forage-jec @ before | slow (> 250 ns) | 2 | 700 (680–720) | 1 | 700–700 |"),
                report);
        assertTrue(report.contains("| forage-jec @ before | mixed | 1 | 700 (700–700) | 1 | 700–700 |"), report);
        assertTrue(report.contains("| forage-jec @ after | fast (< 150 ns) | 1 | 290 (290–290) | 1 | 290–290 |"),
                report);
        assertTrue(report.contains("| forage-jec @ after | slow (> 250 ns) | 1 | 620 (620–620) | 1 | 620–620 |"),
                report);
        // The ratio is of the band's medians: 290 / 305 and 620 / 700.
        assertTrue(report.contains("- fast (< 150 ns), against forage-jec @ before: forage-jec @ after ×0.951"),
                report);
        assertTrue(report.contains("- slow (> 250 ns), against forage-jec @ before: forage-jec @ after ×0.886"),
                report);
        assertTrue(report.contains("- mixed, against forage-jec @ before: forage-jec @ after ×0.857"), report);
    }

    @Test
    void badOptionsAreRefusedWithWhatIsAllowed() throws Exception {
        assertRefused("--scenario is required", "--jvms", "2");
        assertRefused("only throughput scenarios", "--scenario", "wakeup-outside");
        assertRefused("label=class path", "--scenario", "fib-join", "--builds", "/tmp/a.jar");
        assertRefused("does not exist", "--scenario", "fib-join", "--builds", "a=/no/such.jar");
        assertRefused("must not be below", "--scenario", "fib-join", "--fast-below", "300", "--slow-above", "200");
        assertRefused("cannot run scenario", "--scenario", "fib-join", "--subjects", "fixed");
        assertRefused("allowed, each with a value", "--scenario", "fib-join", "--forks", "2");
    }

    private static void assertRefused(String says, String... args) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ByPlacement.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, message);
        assertTrue(message.contains(says), message);
    }

    @Test
    void aRealRunAccountsForEveryTimedOperation(@TempDir File out) throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int[] status = new int[1];
        Guard.within(180, "ByPlacement", () -> status[0] = ByPlacement.run(new String[] {"--scenario", "fib-join",
                "--subjects", "forage-jec,forkjoin", "--jvms", "1", "--budget", "tiny", "--out", out.getPath()},
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8)));
        String report = stdout.toString(StandardCharsets.UTF_8);
        assertEquals(0, status[0], report + stderr.toString(StandardCharsets.UTF_8));
        for (String subject : List.of("forage-jec", "forkjoin")) {
            // Every timed operation lands in exactly one band: the bands' counts add up to the budget's.
            Matcher m = Pattern.compile("\\| " + subject + " \\| [^|]+ \\| (\\d+) \\|").matcher(report);
            int ops = 0;
            while (m.find()) {
                ops += Integer.parseInt(m.group(1));
            }
            assertEquals(Budget.TINY.iterations, ops, report);
            assertTrue(report.contains(subject + ", JVM 1 of 1: " + Budget.TINY.iterations + " operations, round trips "),
                    report);
        }
    }
}
