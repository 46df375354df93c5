package dev.forage.bench.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.CompareRecord;
import dev.forage.bench.IoRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every measured number that README.md and the user docs quote is checked against the results files the
 * benchmarks write (docs/results/): a new run that moves a number fails this test until the quote follows, and
 * the generated blocks are rewritten with {@code -Dforage.docs.update=true}:
 *
 * <pre>
 * mvn -B -ntp -pl benchmarks -am test -Dtest=DocNumbersTest -Dforage.docs.update=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class DocNumbersTest {
    /** The pages that quote results; docs/benchmarks.md's own tables are the runner's. */
    static final List<String> PAGES = List.of("README.md", "docs/faq.md", "docs/observability.md", "docs/io.md",
            "docs/benchmarks.md", "samples/http-io/README.md");

    static Path root() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("benchmarks/pom.xml")) && Files.isRegularFile(d.resolve("README.md"))) {
                return d;
            }
        }
        throw new IllegalStateException("cannot find the checkout's root from " + Path.of("").toAbsolutePath());
    }

    static DocNumbers numbers(Path root) {
        return new DocNumbers(
                DocNumbers.read("comparison", root.resolve("docs/results/compare.md"), CompareRecord::parse),
                DocNumbers.read("IO", root.resolve("docs/results/http-io.tsv"), IoRecord::parse),
                DocNumbers.read("blocking", root.resolve("docs/results/blocking.md"), BlockingRecord::parse));
    }

    @Test
    void everyQuotedNumberMatchesItsResultsFile() throws IOException {
        Path root = root();
        DocNumbers numbers = numbers(root);
        boolean update = Boolean.getBoolean("forage.docs.update");
        List<String> problems = new ArrayList<>();
        int quotes = 0;
        for (String page : PAGES) {
            Path p = root.resolve(page);
            String text = Files.readString(p);
            if (update) {
                String updated = numbers.update(text);
                if (!updated.equals(text)) {
                    Files.writeString(p, updated);
                    text = updated;
                }
            }
            quotes += count(text);
            problems.addAll(numbers.problems(page, text));
        }
        assertEquals(List.of(), problems, "stale or unchecked numbers (" + problems.size() + ")");
        assertTrue(quotes >= 20, "the pages quote " + quotes + " checked numbers; the README alone quotes more:"
                + " did the link syntax change?");
    }

    private static int count(String text) {
        int n = 0;
        java.util.regex.Matcher m = DocNumbers.LINK.matcher(text);
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void aStaleQuoteALooseRatioAndAStaleBlockAreEachReported() {
        DocNumbers numbers = numbers(root());
        String right = numbers.value("compare: fib-join full time forage-jec median");
        String page = "fib in [" + right + " ms](x \"compare: fib-join full time forage-jec median\"), "
                + "fib in [9.99 ms](x \"compare: fib-join full time forage-jec median\"), "
                + "and a loose ×1.50.\n<!-- results:io:begin -->\nold table\n<!-- results:io:end -->\n";
        List<String> problems = numbers.problems("test.md", page);
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("generated block io"), problems.get(0));
        assertTrue(problems.get(1).contains("9.99 ms") && problems.get(1).contains(right), problems.get(1));
        assertTrue(problems.get(2).contains("×1.50"), problems.get(2));
        String fixed = numbers.update("fib in [" + right + " ms](x \"compare: fib-join full time forage-jec median\")."
                + "\n<!-- results:io:begin -->\nold table\n<!-- results:io:end -->\n");
        assertEquals(List.of(), numbers.problems("test.md", fixed));
    }

    @Test
    void aKeyTheRecordsCannotAnswerIsReportedWithWhatIsAllowed() {
        List<String> problems = numbers(root()).problems("test.md",
                "[1](x \"compare: fib-join full time nobody median\") [2](x \"io: forage-io latency median\")");
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("no cell for fib-join full time nobody"), problems.get(0));
        assertTrue(problems.get(1).contains("allowed: sat_rps"), problems.get(1));
    }

    /** The reader understands what the runner writes: a record made by Report from known samples reads back. */
    @Test
    void theComparisonRecordReadsBackWhatTheRunnerWrites() {
        dev.forage.bench.RunData data = new dev.forage.bench.RunData();
        data.add(dev.forage.bench.ResultLine.result("fib-join", "forage-jec", 2, "time", List.of(2.0, 3.0, 4.0)));
        data.add(dev.forage.bench.ResultLine.result("fib-join", "forage-jec", 2, "time", List.of(5.0, 6.0, 7.0)));
        data.add(dev.forage.bench.ResultLine.result("fib-join", "forkjoin", 2, "time", List.of(8.0)));
        List<dev.forage.bench.Subject> subjects = List.of(dev.forage.bench.Subjects.byId("forage-jec"),
                dev.forage.bench.Subjects.byId("forkjoin"));
        List<dev.forage.bench.Scenario> scenarios = List.of(dev.forage.bench.scenario.Scenarios.byId("fib-join"));
        String md = dev.forage.bench.Report.summary(List.of(
                        new dev.forage.bench.Report.Profile("full", data, List.of()),
                        new dev.forage.bench.Report.Profile("short", data, List.of())),
                scenarios, subjects, new dev.forage.bench.Report.Header("cmd", "date", "budget", "machine", "jvm"));
        CompareRecord r = CompareRecord.parse(md);
        assertEquals("4.50", r.value("fib-join", "full", "time", "forage-jec", "median"));
        assertEquals("3.00", r.value("fib-join", "short", "time", "forage-jec", "min"));
        assertEquals("6.00", r.value("fib-join", "full", "time", "forage-jec", "max"));
        assertEquals("0.563", r.value("fib-join", "full", "time", "forage-jec", "ratio"));
        assertEquals("0.563", r.value("fib-join", "full", "time", "forage-jec", "/forkjoin"));
    }

    /**
     * A run on two JDKs writes a table per JDK: a quote without @JDK reads the first (JDK 17's), as the quotes of
     * a one-JDK record did, and {@code full@25} reads JDK 25's.
     */
    @Test
    void aTwoJdkRecordReadsTheFirstJdksTableByDefaultAndAnotherByItsName() {
        List<dev.forage.bench.Subject> subjects = List.of(dev.forage.bench.Subjects.byId("forage-jec"),
                dev.forage.bench.Subjects.byId("forkjoin"));
        List<dev.forage.bench.Scenario> scenarios = List.of(dev.forage.bench.scenario.Scenarios.byId("fib-join"));
        List<dev.forage.bench.Report.Profile> profiles = new ArrayList<>();
        for (String jdk : List.of("17", "25")) {
            for (String profile : List.of("full", "short")) {
                dev.forage.bench.RunData data = new dev.forage.bench.RunData();
                double forage = jdk.equals("17") ? 2.0 : 3.0;
                data.add(dev.forage.bench.ResultLine.result("fib-join", "forage-jec", 2, "time", List.of(forage)));
                data.add(dev.forage.bench.ResultLine.result("fib-join", "forkjoin", 2, "time", List.of(4.0)));
                profiles.add(new dev.forage.bench.Report.Profile(profile, jdk, data,
                        dev.forage.bench.Targets.evaluate(data, scenarios, subjects)));
            }
        }
        String md = dev.forage.bench.Report.markdown(profiles, scenarios, subjects,
                new dev.forage.bench.Report.Header("cmd", "date", "budget", "machine", "jvm"), List.of());
        CompareRecord r = CompareRecord.parse(md);
        assertEquals("2.00", r.value("fib-join", "full", "time", "forage-jec", "median"));
        assertEquals("0.500", r.value("fib-join", "short", "time", "forage-jec", "ratio"));
        assertEquals("3.00", r.value("fib-join", "full@25", "time", "forage-jec", "median"));
        assertEquals("0.750", r.value("fib-join", "short@25", "time", "forage-jec", "/forkjoin"));
        assertEquals("2.00", r.value("fib-join", "full@17", "time", "forage-jec", "median"));
    }
}
