package dev.forage.bench;

import dev.forage.bench.scenario.Scenarios;
import dev.forage.bench.scenario.WakeupLatency;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The side-by-side comparison: every scenario against every subject that can run it, each measurement in a fresh
 * JVM, subjects alternating (A B C A B C ...) so that drift of the machine hits all alike, on each JDK of the run
 * (JDK 17 and JDK 25 when both are there), which alternate in the same rounds. Prints a markdown table per JDK with
 * medians, min and max and the ratio to the best anchor, judges the targets on each JDK and across them, draws the
 * charts, and optionally writes it all into docs/benchmarks.md.
 *
 * <pre>
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar --quick
 * java -jar benchmarks/target/benchmarks.jar --write-docs           # full run, updates docs/benchmarks.md
 * java -jar benchmarks/target/benchmarks.jar --quick --scenarios fib-join,wakeup-outside
 * java -jar benchmarks/target/benchmarks.jar --quick --jvms /usr/lib/jvm/java-17-openjdk-amd64,/opt/jdk-25
 * </pre>
 */
public final class Compare {
    /**
     * The JVM flags of every measuring JVM, besides the pool sizing flags. {@code AlwaysPreTouch} touches the
     * whole heap at start: without it, the kernel's first-touch faults on fresh heap pages fell in the timed part of
     * whichever JVM had not yet allocated through its heap in the warm-up, and a subject that allocates more per
     * operation (fork-join fib: 1.2 ms in some JVMs, 3.4 ms in others, of one build) read as slower in some forks.
     */
    static final List<String> CHILD_FLAGS = List.of("-Xms1g", "-Xmx1g", "-Xss1m", "-XX:+UseG1GC",
            "-XX:+AlwaysPreTouch", "-Djava.awt.headless=true");
    static final String RESULTS_BEGIN = "<!-- compare:results:begin -->";
    static final String RESULTS_END = "<!-- compare:results:end -->";
    static final String SCENARIOS_BEGIN = "<!-- compare:scenarios:begin -->";
    static final String SCENARIOS_END = "<!-- compare:scenarios:end -->";
    /** The run's whole report, beside the results page: the results file the docs' quoted numbers are checked against. */
    static final String RESULTS_FILE = "results/compare.md";
    static final String RESULTS_FILE_HEAD = "# Comparison run: the record\n\n"
            + "Written by the comparison runner (`--write-docs`) with docs/benchmarks.md; not edited by hand. The "
            + "numbers that README.md and the docs quote are checked against this file by `DocNumbersTest` "
            + "(benchmarks module).\n\n";

    private Compare() {
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

    /** Runs the comparison; returns the exit status (1 if any measurement failed). */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        return run(args, out, err, Interference.procfs());
    }

    /** As {@link #run(String[], PrintStream, PrintStream)}, with interference read from {@code meter} (null: unmeasured). */
    static int run(String[] args, PrintStream out, PrintStream err, Interference.Meter meter) throws Exception {
        Options o = Options.parse(args);
        if (o.help) {
            out.println(Options.USAGE);
            return 0;
        }
        if (o.chartsFrom != null) {
            Charts.fromDocs(o.chartsFrom, o.charts, out);
            return 0;
        }
        if (o.list) {
            out.println("scenarios:");
            for (Scenario s : o.scenarios) {
                out.println("  " + s.id() + "  " + s.title() + " (needs " + s.needs() + ")");
            }
            out.println("subjects:");
            for (Subject s : o.subjects) {
                out.println("  " + s.id() + "  " + s.label() + " " + s.capabilities());
            }
            return 0;
        }
        File outDir = o.out != null ? o.out : defaultOutDir();
        File logs = new File(outDir, "logs");
        if (!logs.isDirectory() && !logs.mkdirs()) {
            throw new IOException("cannot create " + logs);
        }
        File docs = null;
        if (o.writeDocs) {
            docs = o.docs != null ? o.docs : defaultDocs(outDir);
            checkMarkers(docs);
        }

        Jdk.Choice jdks = o.isDemo() && o.jvms == null
                ? new Jdk.Choice(List.of(Jdk.current()), Jdk.current().label() + " only: the quick demo measures on the"
                        + " JDK that runs it; --all adds a JDK 25 when one is found")
                : Jdk.choose(o.jvms, o.budget, Jdk.current(), o.jvms == null && !o.budget.isTiny()
                        ? Jdk.findSecond(System.getenv(), Path.of("/"), Path.of(System.getProperty("user.home")))
                        : null);
        List<Planned> plan = plan(o, jdks.jdks());
        if (plan.isEmpty()) {
            throw new IllegalArgumentException("nothing to run: no selected subject can run the selected scenarios");
        }
        Interference.Policy policy = meter == null ? Interference.Policy.unmeasured()
                : new Interference.Policy(true, o.maxInterferenceCores, o.reruns);
        if (!policy.measured()) {
            err.println("interference unmeasured: no /proc/stat here, so the runs cannot tell whether other processes"
                    + " took CPU from them; the verdicts assume a quiet machine");
        }
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        double loadBefore = loadAverage();
        // Per profile, per JDK: each JDK's numbers are a table of their own, judged on their own.
        Map<Budget, Map<Jdk, RunData>> byProfile = new LinkedHashMap<>();
        for (Budget b : o.profiles()) {
            Map<Jdk, RunData> perJdk = new LinkedHashMap<>();
            for (Jdk j : jdks.jdks()) {
                perJdk.put(j, new RunData());
            }
            byProfile.put(b, perJdk);
        }
        Progress progress = new Progress(err, plan.size(), jdks.several());
        int measured = 0;
        int failed = 0;
        for (Planned p : plan) {
            progress.show(p);
            RunData d = byProfile.get(p.budget).get(p.jdk);
            int before = d.failureCount();
            measure(o, p, logs, d, meter, policy, progress);
            measured++;
            failed += d.failureCount() - before;
            if (measured == 3 && failed == 3) {
                // Something is wrong with the setup (class path, JVM flags), not with one scheduler.
                throw new IllegalStateException("the first 3 measurements all failed; the first: "
                        + byProfile.get(plan.get(0).budget).get(plan.get(0).jdk).failure(plan.get(0).scenario.id(),
                                plan.get(0).subject.id()));
            }
        }
        progress.done();

        List<RunData> all = new ArrayList<>();
        for (Map<Jdk, RunData> perJdk : byProfile.values()) {
            all.addAll(perJdk.values());
        }
        Interference.Summary busy = Interference.summarize(all);
        List<Report.Profile> profiles = new ArrayList<>();
        for (Map.Entry<Budget, Map<Jdk, RunData>> e : byProfile.entrySet()) {
            for (Map.Entry<Jdk, RunData> j : e.getValue().entrySet()) {
                List<Targets.Verdict> verdicts = Targets.evaluate(j.getValue(), o.scenarios, o.subjects);
                if (busy.tooBusy()) {
                    // Past a quarter of the cells disturbed, the clean ones ran beside the same load, just under the
                    // threshold: no goal is judged, rather than report the machine's load as Forage's losses.
                    verdicts = Targets.unreliable(verdicts, "the machine was too busy (see the first line)");
                }
                if (o.isDemo() && e.getKey() == Budget.QUICK) {
                    verdicts = Targets.demo(verdicts, e.getKey());
                }
                profiles.add(new Report.Profile(e.getKey().name, jdks.several() ? Integer.toString(j.getKey().feature)
                        : "", j.getValue(), verdicts));
            }
        }
        Report.Header header = new Report.Header(
                "java -jar benchmarks/target/benchmarks.jar " + String.join(" ", args),
                started,
                profilesText(o, jdks.several()),
                Runtime.getRuntime().availableProcessors() + " cores available, " + System.getProperty("os.name")
                        + " " + System.getProperty("os.arch") + ", load average " + Stats.format(loadBefore)
                        + " at the start and " + Stats.format(loadAverage()) + " at the end of the run",
                jvmText(jdks, byProfile) + ", flags " + String.join(" ", CHILD_FLAGS)
                        + (o.jvmArgs.isEmpty() ? "" : " " + String.join(" ", o.jvmArgs)),
                policy);
        // The charts are drawn from the report as printed, as --charts-from draws them from a saved one.
        List<String> charts = drawCharts(Report.markdown(profiles, o.scenarios, o.subjects, header, List.of()), outDir,
                err);
        String md = Report.markdown(profiles, o.scenarios, o.subjects, header, charts);
        out.println();
        out.println(md);
        File results = new File(outDir, "results.md");
        Files.writeString(results.toPath(), md, StandardCharsets.UTF_8);
        out.println("written: " + results);
        if (busy.tooBusy()) {
            // Said again after the long table, where the eye lands when the run ends.
            out.println(Report.tooBusyLine(busy, policy));
        }
        if (docs != null) {
            writeDocs(docs, profiles, o, header, outDir, charts);
            out.println("written: " + docs);
        }
        return failed == 0 ? 0 : 1;
    }

    /**
     * The header's account of the JDKs: each one's version as its measuring JVMs reported it (the child's
     * {@code java.runtime.version}), else as the JDK gave it, and, with one JDK only, why there is no other.
     */
    static String jvmText(Jdk.Choice jdks, Map<Budget, Map<Jdk, RunData>> byProfile) {
        List<String> parts = new ArrayList<>();
        for (Jdk j : jdks.jdks()) {
            String reported = null;
            for (Map<Jdk, RunData> perJdk : byProfile.values()) {
                RunData d = perJdk.get(j);
                if (reported == null && d != null) {
                    reported = d.anyInfo("jvm");
                }
            }
            String v = reported != null ? reported : j.version != null ? j.version : "?";
            parts.add(jdks.several() ? j.label() + " (" + v + ")" : v);
        }
        if (jdks.several()) {
            return String.join(" and ", parts) + ", every row measured on each, in the same rounds";
        }
        return parts.get(0) + (jdks.note().isEmpty() ? "" : " (" + jdks.note() + ")");
    }

    /** As {@link #profilesText(Options, boolean)} for a run on one JDK. */
    static String profilesText(Options o) {
        return profilesText(o, false);
    }

    /** The header's account of the profiles: forks, warm-up, timed operations or windows, workers. */
    static String profilesText(Options o, boolean severalJdks) {
        List<String> parts = new ArrayList<>();
        for (Budget b : o.profiles()) {
            String warmup = b == Budget.SHORT
                    ? b.minWarmupIterations + " untimed operations, no wait for the compiler"
                    : "warm-up until the compiler is quiet, " + b.warmupNanos / 1_000_000_000.0 + " to "
                            + b.maxWarmupNanos / 1_000_000_000.0 + " s";
            parts.add(b.name + " mode: " + o.forks() + " fresh JVM(s) per (scenario, subject"
                    + (severalJdks ? ", JDK" : "") + "), " + warmup + ", up to "
                    + b.iterations + " timed operations or " + b.windows + " windows per JVM"
                    + (b.wakeupCompileSamples > 0
                            ? " (wake-up windows after " + String.format(Locale.ROOT, "%,d", b.wakeupCompileSamples)
                                    + " unrecorded wake-ups " + WakeupLatency.COMPILE_GAP_NANOS / 1000 + " µs apart)"
                            : ""));
        }
        return String.join("; ", parts) + "; " + o.threads + " workers per pool (8 in the wide-pool rows)";
    }

    /**
     * The OS's one-minute load average (NaN where unknown): other processes competing for the cores distort
     * every number, so the header records it.
     */
    static double loadAverage() {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? Double.NaN : load;
    }

    /** One (scenario, subject, fork) measurement on one JDK. */
    static final class Planned {
        final Scenario scenario;
        final Subject subject;
        final int fork;
        final int forks;
        final int threads;
        final Budget budget;
        final Jdk jdk;
        /** Whether the run has other JDKs: the logs and the progress line then name this one. */
        final boolean severalJdks;

        Planned(Scenario scenario, Subject subject, int fork, int forks, int threads, Budget budget, Jdk jdk,
                boolean severalJdks) {
            this.scenario = scenario;
            this.subject = subject;
            this.fork = fork;
            this.forks = forks;
            this.threads = threads;
            this.budget = budget;
            this.jdk = jdk;
            this.severalJdks = severalJdks;
        }
    }

    /** The plan on this runner's JDK alone. */
    static List<Planned> plan(Options o) {
        return plan(o, List.of(Jdk.current()));
    }

    /**
     * Scenario by scenario; within one, forks in rounds, each round every JDK, within it every profile and within
     * that every subject once: A B C A B C, so drift of the machine hits all subjects, both profiles and both JDKs
     * alike (a machine that slows down halfway would otherwise show as a difference between the JDKs).
     */
    static List<Planned> plan(Options o, List<Jdk> jdks) {
        List<Planned> plan = new ArrayList<>();
        for (Scenario sc : o.scenarios) {
            for (int f = 1; f <= o.forks(); f++) {
                for (Jdk j : jdks) {
                    for (Budget b : o.profiles()) {
                        for (Subject s : o.subjects) {
                            if (s.capabilities().contains(sc.needs())) {
                                plan.add(new Planned(sc, s, f, o.forks(), sc.threads(o.threads), b, j,
                                        jdks.size() > 1));
                            }
                        }
                    }
                }
            }
        }
        return plan;
    }

    static List<String> childCommand(Options o, Planned p) {
        return childCommand(p.jdk.java, o.jvmArgs, absoluteClassPath(), p.scenario.id(), p.subject.id(), p.threads,
                p.budget);
    }

    /**
     * A measuring JVM ({@link Child}) of {@code java} with the runner's flags, sized for {@code threads} workers,
     * then {@code jvmArgs}, running one scenario on one subject from {@code classPath}; also {@link ByPlacement}'s.
     */
    static List<String> childCommand(String java, List<String> jvmArgs, String classPath, String scenario,
            String subject, int threads, Budget budget) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(CHILD_FLAGS);
        cmd.addAll(List.of(Subject.sizingFlags(threads)));
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(Child.class.getName());
        cmd.add(scenario);
        cmd.add(subject);
        cmd.add(Integer.toString(threads));
        cmd.add(budget.name);
        return cmd;
    }

    /** This JVM's class path with absolute entries: the measuring JVMs run in the log directory. */
    static String absoluteClassPath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(new File(e).getAbsolutePath());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * Measures one planned run, again while other processes took more CPU during it than the policy allows, up to
     * its reruns; keeps the last attempt's results and records its interference.
     */
    private static void measure(Options o, Planned p, File logs, RunData data, Interference.Meter meter,
            Interference.Policy policy, Progress progress) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            Interference.Snapshot before = meter == null ? null : meter.snapshot();
            Attempt a = attempt(o, p, logs);
            Interference.Snapshot after = meter == null ? null : meter.snapshot();
            Interference.Reading reading = before == null || after == null ? null
                    : Interference.between(before, after);
            if (a.failure != null) {
                // A failure is the subject's or the setup's, not the machine's load: rerunning would hide it.
                data.fail(p.scenario.id(), p.subject.id(), a.failure);
                return;
            }
            boolean disturbed = policy.disturbs(reading);
            if (disturbed && attempt <= policy.reruns()) {
                progress.note("other processes used " + reading.percentOfCore() + " of a core during it (limit "
                        + policy.limitText() + "): measuring again, attempt " + (attempt + 1) + " of "
                        + (policy.reruns() + 1));
                continue;
            }
            if (disturbed) {
                progress.note("other processes used " + reading.percentOfCore() + " of a core during it, still above "
                        + policy.limitText() + " after " + attempt + " attempt(s): its cell is marked ~");
            }
            for (ResultLine r : a.lines) {
                data.add(r);
            }
            data.interference(p.scenario.id(), p.subject.id(), new Interference.Run(p.fork, reading, attempt, disturbed));
            return;
        }
    }

    /** One measuring JVM's outcome: its result lines, or why it failed. */
    private static final class Attempt {
        final List<ResultLine> lines;
        final String failure;

        Attempt(List<ResultLine> lines, String failure) {
            this.lines = lines;
            this.failure = failure;
        }
    }

    /** Runs one measuring JVM to its end. A rerun overwrites the logs of the attempt before it. */
    private static Attempt attempt(Options o, Planned p, File logs) throws IOException, InterruptedException {
        String base = p.scenario.id() + "." + p.subject.id() + "." + p.fork
                + (p.budget == o.budget ? "" : "." + p.budget.name) + (p.severalJdks ? ".jdk" + p.jdk.feature : "");
        File stdout = new File(logs, base + ".out");
        File stderr = new File(logs, base + ".err");
        ProcessBuilder pb = new ProcessBuilder(childCommand(o, p))
                .directory(logs)
                .redirectOutput(stdout)
                .redirectError(stderr);
        Process proc = pb.start();
        long timeoutSeconds = p.budget == Budget.FULL ? 600 : 180;
        if (!proc.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            proc.destroyForcibly();
            proc.waitFor();
            return new Attempt(List.of(), "no result within " + timeoutSeconds + " s (log: " + stderr + ")");
        }
        List<ResultLine> lines = new ArrayList<>();
        for (String line : Files.readAllLines(stdout.toPath(), StandardCharsets.UTF_8)) {
            ResultLine r = ResultLine.parse(line);
            if (r != null) {
                lines.add(r);
            }
        }
        if (proc.exitValue() != 0 || lines.isEmpty()) {
            return new Attempt(List.of(), "exit status " + proc.exitValue() + ": " + lastLine(stderr) + " (log: "
                    + stderr + ")");
        }
        return new Attempt(lines, null);
    }

    private static String lastLine(File f) throws IOException {
        List<String> lines = Files.readAllLines(f.toPath(), StandardCharsets.UTF_8);
        for (String l : lines) {
            if (!l.startsWith("\t") && !l.isBlank()) {
                return l.trim(); // the exception's first line says most
            }
        }
        return "no output";
    }

    /** Draws the charts of a report into the output directory; returns their file names. */
    private static List<String> drawCharts(String report, File outDir, PrintStream err) {
        List<String> charts = new ArrayList<>();
        try {
            for (Charts.Group g : Charts.compare(CompareRecord.parse(report))) {
                Charts.write(g, new File(outDir, g.file()));
                charts.add(g.file());
            }
        } catch (IOException | RuntimeException | Error e) {
            // A JRE without fonts cannot draw text; the table is the result, the charts are a convenience.
            err.println("warning: could not draw the charts (" + e + "); the tables are complete");
        }
        return charts;
    }

    private static void writeDocs(File docs, List<Report.Profile> profiles, Options o, Report.Header header,
            File outDir, List<String> charts) throws IOException {
        File dir = docs.getAbsoluteFile().getParentFile();
        List<String> docCharts = new ArrayList<>();
        for (String c : charts) {
            String name = Charts.DOCS_PREFIX + c;
            Files.copy(new File(outDir, c).toPath(), new File(dir, name).toPath(), StandardCopyOption.REPLACE_EXISTING);
            docCharts.add(name);
        }
        // The whole report (goals, run details) is the run's record, in the results file; the page shows the
        // table and the charts and links to it. Quotes of its numbers elsewhere are checked against that file.
        File resultsFile = new File(dir, RESULTS_FILE);
        Files.createDirectories(resultsFile.getParentFile().toPath());
        Files.writeString(resultsFile.toPath(), RESULTS_FILE_HEAD
                + Report.markdown(profiles, o.scenarios, o.subjects, header, List.of()), StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder(Report.summary(profiles, o.scenarios, o.subjects, header));
        md.append(Report.jdks(profiles).size() > 1
                ? "\nThe goals of each row, judged on each JDK and met only when met on every one, and each fork's "
                        + "warm-up and pool counters: ["
                : "\nThe goals of each row, judged on this run, and each fork's warm-up and pool counters: [")
                .append(RESULTS_FILE).append("](").append(RESULTS_FILE).append(").\n");
        for (String c : docCharts) {
            md.append("\n![").append(c).append("](").append(c).append(")\n");
        }
        String text = Files.readString(docs.toPath(), StandardCharsets.UTF_8);
        text = replaceBetween(text, RESULTS_BEGIN, RESULTS_END, md.toString());
        // Every scenario, not only this run's: the list documents what the runner can measure.
        text = replaceBetween(text, SCENARIOS_BEGIN, SCENARIOS_END, Report.scenarioList(Scenarios.ALL));
        Files.writeString(docs.toPath(), text, StandardCharsets.UTF_8);
    }

    /** Replaces what lies between two marker lines (markers kept). */
    static String replaceBetween(String text, String begin, String end, String body) {
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        if (b < 0 || e < b) {
            throw new IllegalArgumentException("the results page lacks the markers " + begin + " ... " + end);
        }
        return text.substring(0, b + begin.length()) + "\n" + body + (body.endsWith("\n") ? "" : "\n")
                + text.substring(e);
    }

    private static void checkMarkers(File docs) throws IOException {
        if (!docs.isFile()) {
            throw new IllegalArgumentException("--write-docs: " + docs + " does not exist; pass --docs FILE");
        }
        String text = Files.readString(docs.toPath(), StandardCharsets.UTF_8);
        replaceBetween(text, RESULTS_BEGIN, RESULTS_END, "");
        replaceBetween(text, SCENARIOS_BEGIN, SCENARIOS_END, "");
    }

    /** benchmarks/target/compare, found from where this class was loaded (the jar or target/classes). */
    static File defaultOutDir() {
        try {
            File src = new File(Compare.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            File target = src.getParentFile();
            if (target != null && target.getName().equals("target")) {
                return new File(target, "compare");
            }
        } catch (URISyntaxException | SecurityException | NullPointerException ignored) {
            // fall back to the working directory
        }
        return new File("target", "compare");
    }

    /** docs/benchmarks.md of the checkout that holds the output directory. */
    static File defaultDocs(File outDir) {
        for (File d = outDir.getAbsoluteFile(); d != null; d = d.getParentFile()) {
            if (new File(d, "benchmarks/pom.xml").isFile()) {
                return new File(d, "docs/benchmarks.md");
            }
        }
        throw new IllegalArgumentException("--write-docs: cannot find the checkout's docs/ from " + outDir
                + "; pass --docs FILE");
    }

    /** The progress line on stderr: rewritten in place on a terminal, one line per run otherwise. */
    static final class Progress {
        private final PrintStream err;
        private final int total;
        private final long start = System.nanoTime();
        private final boolean terminal = System.console() != null;
        private final boolean severalJdks;
        private int done;

        Progress(PrintStream err, int total, boolean severalJdks) {
            this.err = err;
            this.total = total;
            this.severalJdks = severalJdks;
        }

        void show(Planned p) {
            long elapsed = System.nanoTime() - start;
            String eta = done == 0 ? "?" : clock(elapsed / done * (total - done));
            String line = String.format(Locale.ROOT, "[%3d/%d] %s elapsed, ~%s left | %s · %s%s · fork %d/%d",
                    done + 1, total, clock(elapsed), eta, p.scenario.id(), p.subject.label(),
                    severalJdks ? " · " + p.jdk.label() : "", p.fork, p.forks)
                    + (p.budget == Budget.SHORT ? " (short)" : "");
            if (terminal) {
                err.print("\r" + line + "\033[K");
            } else {
                err.println(line);
            }
            err.flush();
            done++;
        }

        /** A line about the run just shown, under its progress line (which a terminal keeps, then). */
        void note(String text) {
            String line = "    " + text;
            err.println(terminal ? "\n" + line : line);
            err.flush();
        }

        void done() {
            String line = "done: " + total + " measurements in " + clock(System.nanoTime() - start);
            err.println(terminal ? "\r" + line + "\033[K" : line);
        }

        private static String clock(long nanos) {
            long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
            return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
        }
    }
}
