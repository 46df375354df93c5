package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
    /**
     * A two-JDK record of known samples, as the runner prints it: two compute rows, one low-load row, one wake-up
     * scenario with two ratio metrics (p50, p99), and the short profile beside the full one.
     */
    private static CompareRecord record() {
        List<Subject> subjects = List.of(Subjects.byId("forage-jec"), Subjects.byId("forkjoin"),
                Subjects.byId("fixed"));
        List<Scenario> scenarios = List.of(Scenarios.byId("submit-1m"), Scenarios.byId("chain-exec-200k"),
                Scenarios.byId("lowload-1ms"), Scenarios.byId("wakeup-outside"));
        List<Report.Profile> profiles = new ArrayList<>();
        for (String jdk : List.of("17", "25")) {
            for (String profile : List.of("full", "short")) {
                RunData d = new RunData();
                double scale = jdk.equals("17") ? 1 : 2;
                for (String id : List.of("submit-1m", "chain-exec-200k")) {
                    d.add(line(id, "forage-jec", "time", 5 * scale));
                    d.add(line(id, "forkjoin", "time", 10));
                    d.add(line(id, "fixed", "time", 40));
                }
                d.add(line("lowload-1ms", "forage-jec", "cpu", 1.5));
                d.add(line("lowload-1ms", "forkjoin", "cpu", 1.2));
                d.add(line("lowload-1ms", "fixed", "cpu", 1.25));
                for (String m : List.of("p50", "p99")) {
                    d.add(line("wakeup-outside", "forage-jec", m, 30));
                    d.add(line("wakeup-outside", "forkjoin", m, 60));
                    d.add(line("wakeup-outside", "fixed", m, 90));
                }
                profiles.add(new Report.Profile(profile, jdk, d, Targets.evaluate(d, scenarios, subjects)));
            }
        }
        Report.Header header = new Report.Header("cmd", "date", "budget", "machine", "jvm");
        return CompareRecord.parse(Report.markdown(profiles, scenarios, subjects, header, List.of()));
    }

    private static ResultLine line(String scenario, String subject, String metric, double value) {
        return ResultLine.result(scenario, subject, 2, metric, List.of(value));
    }

    @Test
    void aGroupOfNRowsOnTwoJdksHasNCategoriesAndTwoBarsEach() {
        List<Charts.Group> groups = Charts.compare(record());
        assertEquals(List.of(Charts.COMPUTE, Charts.WAKEUP, Charts.LOWLOAD),
                groups.stream().map(Charts.Group::file).toList());
        Charts.Group compute = groups.get(0);
        DefaultCategoryDataset d = Charts.dataset(compute);
        assertEquals(List.of("submit-1m", "chain-exec-200k"), d.getColumnKeys(), "one category per row");
        assertEquals(List.of("JDK 17", "JDK 25"), d.getRowKeys(), "one series per JDK");
        // The main (first) profile's ratios to the best anchor, per JDK: 5/10 on 17, 10/10 on 25.
        assertEquals(0.5, d.getValue("JDK 17", "submit-1m").doubleValue(), 1e-9);
        assertEquals(1.0, d.getValue("JDK 25", "chain-exec-200k").doubleValue(), 1e-9);
        assertEquals(List.of("wakeup-outside p50", "wakeup-outside p99"), groups.get(1).rows());
        assertEquals(1.25, Charts.dataset(groups.get(2)).getValue("JDK 17", "lowload-1ms").doubleValue(), 1e-9,
                "low load: 1.5 against the best anchor's 1.2");
    }

    /**
     * On a busy machine every cell may be marked ~: its bar is still drawn, labelled ~ as in the table, while the
     * record still refuses to let a doc quote it.
     */
    @Test
    void aDisturbedCellKeepsItsBarAndItsMarkButCannotBeQuoted() {
        CompareRecord r = CompareRecord.parse("| scenario | metric | Forage (JEC) | ForkJoinPool |\n"
                + "| --- | --- | --- | --- |\n"
                + "| fork-join fib(30), cutoff 12 | time per op, ms | ~**1.83** (1.83–1.83) ×1.62 | 1.13 (1.13–1.13) ×1.00 |\n");
        Charts.Group g = Charts.compare(r).get(0);
        assertEquals(1.62, Charts.dataset(g).getValue("this run", "fib-join").doubleValue(), 1e-9);
        assertEquals(java.util.Set.of("fib-join this run"), g.disturbed);
        assertEquals("1.13", r.value("fib-join", "", "time", "forkjoin", "median"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> r.value("fib-join", "", "time", "forage-jec", "median"));
        assertTrue(e.getMessage().contains("no cell"), e.getMessage());
    }

    @Test
    void aRatioOutsideTheLogScaleIsClampedButKeepsItsLabel() {
        Charts.Group g = Charts.nativeTable("| scenario | metric | Forage | `Dispatchers.Default` | fixed "
                + "| Forage / best anchor | goal | verdict |\n| --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n"
                + "| `idle` idle pool CPU | cpu (µs/s) | 0 (0–0) | 894 (757–1494) | 858 (710–1327) | 0 (fixed) | ≤ 1 | PASS |\n"
                + "| `yield` yield loops (8 × 1000) | time (ms) | 0.741 (0.578–1.00) | 2.43 (2.06–3.00) | 2.50 (1.90–2.73) "
                + "| 0.305 (default) | ≤ 1 | PASS |\n"
                + "| `launch-1m` 10^6 launches | time (ms) | 1 (1–1) | failed | – | n/a | ≤ 0.8 | n/a |\n");
        assertEquals(List.of("idle cpu", "yield time"), g.rows(), "a row without a ratio has no bar");
        DefaultCategoryDataset d = Charts.dataset(g);
        assertEquals(Charts.FLOOR, d.getValue("linuxX64", "idle cpu").doubleValue(), 1e-12);
        assertEquals(0.305, d.getValue("linuxX64", "yield time").doubleValue(), 1e-12);
    }

    @Test
    void theIoGroupInvertsRequestsPerSecondSoThatLowerIsBetterInEveryRow() {
        IoRecord io = IoRecord.parse(String.join("\n",
                "jdk\t17.0.15 2025-04-15",
                "columns\tround backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps mix_p99_us",
                "1\tforage-io\t50000\t200\t1000\t1800\t100\t190\t3000",
                "1\tnetty-epoll\t40000\t100\t2000\t1800\t200\t190\t3000",
                "1\tnetty-nio\t80000\t400\t4000\t1800\t300\t190\t6000"));
        Charts.Group g = Charts.io(io);
        DefaultCategoryDataset d = Charts.dataset(g);
        assertEquals(5, d.getColumnCount());
        assertEquals(List.of("JDK 17"), d.getRowKeys());
        assertEquals(80000.0 / 50000, d.getValue(0, 0).doubleValue(), 1e-9, "requests/s: best Netty / Forage");
        assertEquals(2.0, d.getValue(0, 1).doubleValue(), 1e-9, "p50: Forage / best Netty (epoll's 100)");
    }

    @Test
    void aRecordWithWindowsAddsTheWindowByWindowRatioAsASecondBar() {
        StringBuilder tsv = new StringBuilder(String.join("\n",
                "jdk\t17.0.15 2025-04-15",
                "columns\tround backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps mix_p99_us",
                "1\tforage-io\t50000\t200\t1000\t1800\t100\t190\t3000",
                "1\tnetty-epoll\t40000\t100\t2000\t1800\t200\t190\t3000",
                "1\tnetty-nio\t80000\t400\t4000\t1800\t300\t190\t6000"));
        String[] columns = {"sat_rps", "mod_p50_us", "mod_p99_us", "mix_p99_us", "low_cpu_us_per_req"};
        for (String c : columns) {
            for (int k = 0; k < 6; k++) {
                tsv.append("\nwindow\t1\tnetty-epoll\t").append(c).append('\t').append(k).append("\t100");
                tsv.append("\nwindow\t1\tnetty-nio\t").append(c).append('\t').append(k).append("\t100");
                tsv.append("\nwindow\t1\tforage-io\t").append(c).append('\t').append(k).append("\t80");
            }
        }
        DefaultCategoryDataset d = Charts.dataset(Charts.io(IoRecord.parse(tsv.toString())));
        assertEquals(List.of("JDK 17, medians of the rounds", "JDK 17, window by window"), d.getRowKeys());
        assertEquals(100.0 / 80, d.getValue(1, 0).doubleValue(), 1e-9, "requests/s window by window, inverted");
        assertEquals(0.8, d.getValue(1, 4).doubleValue(), 1e-9, "CPU window by window");
    }

    @Test
    void aChartRendersHeadlessToAPngOfTheSizeItsRowsNeed(@TempDir Path dir) throws IOException {
        Charts.Group compute = Charts.compare(record()).get(0);
        File png = dir.resolve("compute.png").toFile();
        Charts.write(compute, png);
        BufferedImage img = ImageIO.read(png);
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(Charts.height(compute), img.getHeight());
        assertEquals(Charts.FRAME_HEIGHT + 2 * (2 * Charts.BAR_HEIGHT + 10), img.getHeight(), "2 rows of 2 bars");
    }

    @Test
    void chartsFromSavedResultsAreDrawnBesideThemWithoutMeasuring(@TempDir Path dir) throws Exception {
        Path docs = dir.resolve("docs");
        Files.createDirectories(docs.resolve("results"));
        Report.Header header = new Report.Header("cmd", "date", "budget", "machine", "jvm");
        RunData d = new RunData();
        d.add(line("idle", "forage-jec", "cpu", 0));
        d.add(line("idle", "forkjoin", "cpu", 120));
        List<Scenario> scenarios = List.of(Scenarios.byId("idle"));
        List<Subject> subjects = List.of(Subjects.byId("forage-jec"), Subjects.byId("forkjoin"));
        // One profile: the table has no profile column, as the demo's.
        Files.writeString(docs.resolve(Compare.RESULTS_FILE), Report.markdown(List.of(new Report.Profile("quick", d,
                Targets.evaluate(d, scenarios, subjects))), scenarios, subjects, header, List.of()),
                StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int status = Compare.run(new String[] {"--charts-from", docs.toString()},
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8), System.err, null);
        assertEquals(0, status);
        assertTrue(docs.resolve("benchmarks-lowload.png").toFile().isFile(), out.toString(StandardCharsets.UTF_8));
        assertFalse(docs.resolve("benchmarks-io.png").toFile().exists(), "no IO record, no IO chart");
        assertFalse(docs.resolve("benchmarks-compute.png").toFile().exists(), "no compute row, no compute chart");
    }
}
