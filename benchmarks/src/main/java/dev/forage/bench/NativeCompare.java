package dev.forage.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Kotlin/Native (linuxX64) comparison: Forage's dispatcher against kotlinx's {@code Dispatchers.Default} and
 * {@code newFixedThreadPoolContext(N)}, measured by the native program of benchmarks/native, one fresh process per
 * (scenario, subject, round), subjects alternating within each round (A B C A B C ...) so that drift of the machine
 * hits all alike. The program prints {@link ResultLine}s; this runner takes per cell the median over every sample of
 * every round, the spread across rounds, and the ratio of Forage's median to the best anchor's, and judges it
 * against the same goals as the JVM runner ({@link Targets}).
 *
 * <pre>
 * mvn -B -ntp -q install -pl dispatcher/targets/linuxx64 -DskipTests &amp;&amp; mvn -B -ntp -q verify -pl benchmarks/native
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.NativeCompare --short
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.NativeCompare --write-docs
 * </pre>
 */
public final class NativeCompare {
    static final String RESULTS_BEGIN = "<!-- compare:native-results:begin -->";
    static final String RESULTS_END = "<!-- compare:native-results:end -->";
    /** The program's subject ids, Forage first; the others are the anchors. */
    static final List<String> SUBJECTS = List.of("forage", "default", "fixed");
    static final String FORAGE = "forage";
    static final Map<String, String> LABELS = Map.of("forage", "Forage", "default", "`Dispatchers.Default`",
            "fixed", "`newFixedThreadPoolContext(N)`");

    static final String USAGE = String.join("\n",
            "usage: java -cp benchmarks/target/benchmarks.jar dev.forage.bench.NativeCompare [options]",
            "  --kexe PATH          the native program (default: benchmarks/native/target/kotlin/bench.kexe)",
            "  --short              3 rounds of the program's short budget (default: 5 rounds, full budget)",
            "  --rounds N           fresh processes per (scenario, subject), overriding the mode's",
            "  --threads N          workers per pool (default 2; Dispatchers.Default is sized by kotlinx)",
            "  --scenarios a,b      only these scenarios (default: all)",
            "  --subjects a,b       only these subjects (forage, default, fixed)",
            "  --out DIR            where results.md and the logs go (default: benchmarks/target/native-compare)",
            "  --write-docs         also write the table into docs/benchmarks.md (between its native-results markers)",
            "  --docs FILE          the results page to write (default: docs/benchmarks.md of this checkout)",
            "  --help               this text");

    /** One row of the table: a scenario's metric and the goal Forage's ratio to the best anchor must meet. */
    record Row(String scenario, String title, String metric, String unit, double limit) {
        String key() {
            return scenario + " " + metric;
        }
    }

    /** The program's scenarios (benchmarks/native, Scenarios.kt), with the JVM runner's goals. */
    static final List<Row> ROWS = List.of(
            new Row("fib-join", "fork-join fib(30), cutoff 12", "time", "ms", 1.0),
            new Row("fib-async", "coroutine fib(30), cutoff 12", "time", "ms", 0.8),
            new Row("launch-1m", "10^6 launches from inside", "time", "ms", 0.8),
            new Row("submit-1m", "10^6 dispatches from outside", "time", "ms", 1.0),
            new Row("pingpong-200k", "Channel ping-pong 200k", "time", "ms", 1.0),
            new Row("chain-200k", "chained launch 200k", "time", "ms", 1.0),
            new Row("yield", "yield loops (8 × 1000)", "time", "ms", 1.0),
            new Row("lowload-1ms", "low load: 20 µs task every 1 ms", "cpu", "× useful CPU", 1.0),
            new Row("lowload-100us", "low load: 20 µs task every 100 µs", "cpu", "× useful CPU", 1.0),
            new Row("idle", "idle pool CPU", "cpu", "µs/s", 1.0),
            new Row("wakeup-outside", "wake-up latency from outside", "p50", "µs", 1.0),
            new Row("wakeup-outside", "wake-up latency from outside", "p99", "µs", 1.2));

    private NativeCompare() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args, System.out, System.err);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            status = 2;
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    static final class Options {
        File kexe;
        boolean shortBudget;
        int rounds = -1;
        int threads = 2;
        List<String> scenarios = new ArrayList<>();
        List<String> subjects = new ArrayList<>(SUBJECTS);
        File out;
        boolean writeDocs;
        File docs;
        boolean help;

        int rounds() {
            return rounds > 0 ? rounds : shortBudget ? 3 : 5;
        }

        static Options parse(String[] args) {
            Options o = new Options();
            for (String r : scenarioIds()) {
                o.scenarios.add(r);
            }
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--kexe" -> o.kexe = new File(value(args, ++i, a));
                    case "--short" -> o.shortBudget = true;
                    case "--full" -> o.shortBudget = false;
                    case "--rounds" -> o.rounds = positive(value(args, ++i, a), a);
                    case "--threads" -> o.threads = positive(value(args, ++i, a), a);
                    case "--scenarios" -> o.scenarios = pick(value(args, ++i, a), scenarioIds(), a);
                    case "--subjects" -> o.subjects = pick(value(args, ++i, a), SUBJECTS, a);
                    case "--out" -> o.out = new File(value(args, ++i, a));
                    case "--write-docs" -> o.writeDocs = true;
                    case "--docs" -> o.docs = new File(value(args, ++i, a));
                    case "--help", "-h" -> o.help = true;
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
                }
            }
            if (!o.subjects.contains(FORAGE)) {
                throw new IllegalArgumentException("--subjects must include forage: the table is Forage against the anchors");
            }
            return o;
        }

        /** The chosen ids in the canonical order, so that alternation does not depend on the command line. */
        private static List<String> pick(String list, List<String> known, String option) {
            List<String> chosen = Arrays.stream(list.split(",")).map(String::trim).toList();
            for (String c : chosen) {
                if (!known.contains(c)) {
                    throw new IllegalArgumentException(option + ": unknown id '" + c + "'; known: " + String.join(", ", known));
                }
            }
            List<String> out = new ArrayList<>(known);
            out.retainAll(chosen);
            return out;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length || args[i].startsWith("--")) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            return args[i];
        }

        private static int positive(String v, String option) {
            try {
                int n = Integer.parseInt(v);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // falls through to the message
            }
            throw new IllegalArgumentException(option + " needs a positive integer, was '" + v + "'");
        }
    }

    static List<String> scenarioIds() {
        List<String> ids = new ArrayList<>();
        for (Row r : ROWS) {
            if (!ids.contains(r.scenario())) {
                ids.add(r.scenario());
            }
        }
        return ids;
    }

    /** Every round's values per "scenario metric" and subject, the failures, and Forage's pool counters. */
    static final class Data {
        final Map<String, Map<String, List<List<Double>>>> rounds = new LinkedHashMap<>();
        final Map<String, String> failures = new LinkedHashMap<>();
        final Map<String, String> info = new LinkedHashMap<>();

        void add(ResultLine r) {
            if (r.type == ResultLine.Type.RESULT) {
                rounds.computeIfAbsent(r.scenario + " " + r.key, k -> new LinkedHashMap<>())
                        .computeIfAbsent(r.subject, k -> new ArrayList<>()).add(r.values);
            } else if (r.type == ResultLine.Type.INFO) {
                info.put(r.scenario + " " + r.subject + " " + r.key, r.value);
            }
        }

        /**
         * The median over every sample of every round, the lowest and highest round's median, and the two modes
         * when the rounds fall into two (see {@link Cell#fastMode}).
         */
        Cell cell(String rowKey, String subject) {
            List<List<Double>> rs = rounds.getOrDefault(rowKey, Map.of()).get(subject);
            if (rs == null || rs.isEmpty()) {
                return null;
            }
            List<Double> all = new ArrayList<>();
            List<Double> medians = new ArrayList<>();
            for (List<Double> r : rs) {
                all.addAll(r);
                medians.add(Stats.of(r).median);
            }
            Stats spread = Stats.of(medians);
            // The widest gap of at least MODE_GAP between consecutive round medians splits the rounds in two.
            List<Double> sorted = new ArrayList<>(medians);
            sorted.sort(null);
            int split = 0;
            double widest = MODE_GAP;
            for (int i = 1; i < sorted.size(); i++) {
                double gap = sorted.get(i - 1) > 0 ? sorted.get(i) / sorted.get(i - 1) : 0;
                if (gap >= widest) {
                    widest = gap;
                    split = i;
                }
            }
            int n = sorted.size();
            return new Cell(Stats.of(all).median, spread.min, spread.max, n,
                    split == 0 ? Double.NaN : Stats.of(sorted.subList(0, split)).median, split,
                    split == 0 ? Double.NaN : Stats.of(sorted.subList(split, n)).median, split == 0 ? 0 : n - split);
        }
    }

    /**
     * Round medians this many times apart or more split a subject's rounds into two modes. kotlinx's native
     * {@code Dispatchers.Default} is bimodal on some rows (a chained launch in 150-250 ms in one process, 1.5-2 s
     * in the next), which a median over few rounds hides or lands on at random.
     */
    static final double MODE_GAP = 3.0;

    /**
     * One subject's result in one row: the median, the spread across rounds, and, when its rounds fall into two
     * modes ({@link #MODE_GAP}), each mode's median of round medians and its number of rounds (else NaN and 0).
     */
    record Cell(double median, double lowestRound, double highestRound, int rounds, double fastMode, int fastRounds,
                double slowMode, int slowRounds) {
        boolean bimodal() {
            return fastRounds > 0;
        }

        /**
         * What an anchor is judged by: its faster mode when it has two, so that Forage is compared with the
         * anchor at its best and not with whichever mode a short run happened to draw.
         */
        double judged() {
            return bimodal() ? fastMode : median;
        }

        /** Median, and the lowest and highest round's median in brackets; both modes when there are two. */
        String format() {
            if (bimodal()) {
                return "two modes: " + Stats.format(fastMode) + " (" + fastRounds + " of " + rounds + " rounds), "
                        + Stats.format(slowMode) + " (" + slowRounds + ")";
            }
            return Stats.format(median) + (rounds > 1
                    ? " (" + Stats.format(lowestRound) + "–" + Stats.format(highestRound) + ")" : "");
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options o = Options.parse(args);
        if (o.help) {
            out.println(USAGE);
            return 0;
        }
        File outDir = o.out != null ? o.out : new File(Compare.defaultOutDir().getParentFile(), "native-compare");
        File kexe = o.kexe != null ? o.kexe : defaultKexe(outDir);
        if (!kexe.canExecute()) {
            throw new IllegalArgumentException(kexe + " is not an executable: build it with"
                    + " mvn -B -ntp -q verify -pl benchmarks/native (after dispatcher/targets/linuxx64), or pass --kexe");
        }
        File logs = new File(outDir, "logs");
        if (!logs.isDirectory() && !logs.mkdirs()) {
            throw new IOException("cannot create " + logs);
        }
        File docs = null;
        if (o.writeDocs) {
            docs = o.docs != null ? o.docs : Compare.defaultDocs(outDir);
            if (!docs.isFile()) {
                throw new IllegalArgumentException("--write-docs: " + docs + " does not exist; pass --docs FILE");
            }
            Compare.replaceBetween(Files.readString(docs.toPath(), StandardCharsets.UTF_8), RESULTS_BEGIN, RESULTS_END, "");
        }
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        double loadBefore = Compare.loadAverage();
        Data data = new Data();
        List<Planned> plan = plan(o);
        int done = 0;
        int failed = 0;
        long t0 = System.nanoTime();
        for (Planned p : plan) {
            done++;
            err.printf("[%3d/%d] %d s | %s · %s · round %d/%d%n", done, plan.size(),
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), p.scenario(), p.subject(), p.round(),
                    o.rounds());
            if (!measure(o, kexe, p, logs, data)) {
                failed++;
            }
        }
        String header = header(o, args, started, loadBefore, kexe);
        String md = markdown(data, o, header);
        out.println();
        out.println(md);
        File results = new File(outDir, "results.md");
        Files.writeString(results.toPath(), md, StandardCharsets.UTF_8);
        out.println("written: " + results);
        File chart = drawChart(md, outDir, err);
        if (docs != null) {
            String text = Files.readString(docs.toPath(), StandardCharsets.UTF_8);
            Files.writeString(docs.toPath(), Compare.replaceBetween(text, RESULTS_BEGIN, RESULTS_END, md),
                    StandardCharsets.UTF_8);
            out.println("written: " + docs);
            if (chart != null) {
                File beside = new File(docs.getAbsoluteFile().getParentFile(), Charts.DOCS_PREFIX + Charts.NATIVE);
                Files.copy(chart.toPath(), beside.toPath(), StandardCopyOption.REPLACE_EXISTING);
                out.println("written: " + beside);
            }
        }
        return failed == 0 ? 0 : 1;
    }

    /** The chart of the table (Forage's ratio to the best anchor per row), or null when there is none to draw. */
    private static File drawChart(String md, File outDir, PrintStream err) {
        Charts.Group g = Charts.nativeTable(md);
        if (g.isEmpty()) {
            return null;
        }
        File png = new File(outDir, Charts.NATIVE);
        try {
            Charts.write(g, png);
            return png;
        } catch (IOException | RuntimeException | Error e) {
            // A JRE without fonts cannot draw text; the table is the result, the chart is a convenience.
            err.println("warning: could not draw the chart (" + e + "); the table is complete");
            return null;
        }
    }

    /** One process: a scenario on a subject, in one round. */
    record Planned(String scenario, String subject, int round) {
    }

    /** Scenario by scenario; within one, rounds, each round every subject once: A B C A B C. */
    static List<Planned> plan(Options o) {
        List<Planned> plan = new ArrayList<>();
        for (String sc : o.scenarios) {
            for (int round = 1; round <= o.rounds(); round++) {
                for (String subject : o.subjects) {
                    plan.add(new Planned(sc, subject, round));
                }
            }
        }
        return plan;
    }

    static List<String> command(Options o, File kexe, String scenario, String subject) {
        return List.of(kexe.getAbsolutePath(), "--subject", subject, "--scenario", scenario,
                "--threads", Integer.toString(o.threads), "--budget", o.shortBudget ? "short" : "full");
    }

    private static boolean measure(Options o, File kexe, Planned p, File logs, Data data)
            throws IOException, InterruptedException {
        String sc = p.scenario();
        String subject = p.subject();
        String base = sc + "." + subject + "." + p.round();
        File stdout = new File(logs, base + ".out");
        File stderr = new File(logs, base + ".err");
        Process proc = new ProcessBuilder(command(o, kexe, sc, subject))
                .directory(logs).redirectOutput(stdout).redirectError(stderr).start();
        long timeout = o.shortBudget ? 300 : 900;
        if (!proc.waitFor(timeout, TimeUnit.SECONDS)) {
            proc.destroyForcibly();
            proc.waitFor();
            data.failures.put(sc + " " + subject, "no result within " + timeout + " s (log: " + stderr + ")");
            return false;
        }
        List<ResultLine> lines = new ArrayList<>();
        for (String line : Files.readAllLines(stdout.toPath(), StandardCharsets.UTF_8)) {
            ResultLine r = ResultLine.parse(line);
            if (r != null) {
                lines.add(r);
            }
        }
        if (proc.exitValue() != 0 || lines.stream().noneMatch(l -> l.type == ResultLine.Type.RESULT)) {
            data.failures.put(sc + " " + subject, "exit status " + proc.exitValue() + " (log: " + stderr + ")");
            return false;
        }
        lines.forEach(data::add);
        return true;
    }

    private static File defaultKexe(File outDir) {
        for (File d = outDir.getAbsoluteFile(); d != null; d = d.getParentFile()) {
            if (new File(d, "benchmarks/native/pom.xml").isFile()) {
                return new File(d, "benchmarks/native/target/kotlin/bench.kexe");
            }
        }
        return new File("benchmarks/native/target/kotlin/bench.kexe");
    }

    private static String header(Options o, String[] args, String started, double loadBefore, File kexe) {
        return "Command: `java -cp benchmarks/target/benchmarks.jar dev.forage.bench.NativeCompare"
                + (args.length == 0 ? "" : " " + String.join(" ", args)) + "`; " + started + "; "
                + o.rounds() + (o.rounds() == 1 ? " round" : " rounds") + " of one fresh process per (scenario, subject), "
                + (o.shortBudget ? "short" : "full") + " budget; " + o.threads + " workers per pool (`Dispatchers.Default`: as many as kotlinx gives it, "
                + "the available processors and at least 2); " + Runtime.getRuntime().availableProcessors()
                + " cores available, " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                + ", load average " + Stats.format(loadBefore) + " at the start and "
                + Stats.format(Compare.loadAverage()) + " at the end; program " + kexe.getName() + ".";
    }

    /** The table, one row per (scenario, metric), and the run's facts under it. */
    static String markdown(Data data, Options o, String header) {
        StringBuilder sb = new StringBuilder();
        sb.append("| scenario | metric |");
        for (String s : o.subjects) {
            sb.append(' ').append(LABELS.get(s)).append(" |");
        }
        sb.append(" Forage / best anchor | goal | verdict |\n| --- | --- |");
        sb.append(" ---: |".repeat(o.subjects.size()));
        sb.append(" ---: | --- | --- |\n");
        for (Row r : ROWS) {
            if (!o.scenarios.contains(r.scenario())) {
                continue;
            }
            sb.append("| `").append(r.scenario()).append("` ").append(r.title()).append(" | ").append(r.metric())
                    .append(" (").append(r.unit()).append(") |");
            String best = null;
            double bestMedian = Double.NaN;
            for (String s : o.subjects) {
                Cell c = data.cell(r.key(), s);
                String failure = data.failures.get(r.scenario() + " " + s);
                sb.append(' ').append(c == null ? (failure == null ? "–" : "failed") : c.format()).append(" |");
                if (c != null && !s.equals(FORAGE) && (best == null || c.judged() < bestMedian)) {
                    best = s;
                    bestMedian = c.judged();
                }
            }
            Cell f = data.cell(r.key(), FORAGE);
            String goal = "≤ " + java.math.BigDecimal.valueOf(r.limit()).stripTrailingZeros().toPlainString();
            if (f == null || best == null) {
                sb.append(" | ").append(goal).append(" | n/a |\n");
                continue;
            }
            double ratio = Stats.ratio(f.median(), bestMedian);
            // An anchor at 0 (an idle pool that burns nothing) leaves no ratio: only 0 is as good.
            boolean pass = Double.isNaN(ratio) ? f.median() == 0 : ratio <= r.limit();
            sb.append(' ').append(Stats.format(ratio)).append(" (").append(best).append(") | ").append(goal)
                    .append(" | ").append(pass ? "PASS" : "MISS").append(" |\n");
        }
        sb.append('\n').append(header).append('\n');
        sb.append("\nA subject whose round medians fall into two groups at least ").append(Stats.format(MODE_GAP))
                .append(" times apart is shown with both modes (the median of each group's round medians), and an"
                        + " anchor with two modes is judged by its faster one.\n");
        List<String> notes = new ArrayList<>();
        for (String sc : o.scenarios) {
            String par = data.info.get(sc + " " + FORAGE + " parallelism");
            String pool = data.info.get(sc + " " + FORAGE + " pool");
            if (pool != null) {
                notes.add("`" + sc + "`: " + pool + (par == null ? "" : " (parallelism " + par + ")"));
            }
        }
        if (!notes.isEmpty()) {
            sb.append("\nForage's pool counters over the last round's run: ").append(String.join("; ", notes))
                    .append(".\n");
        }
        if (!data.failures.isEmpty()) {
            sb.append("\nFailed measurements:\n\n");
            data.failures.forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        }
        return sb.toString();
    }
}
