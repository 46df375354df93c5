package dev.forage.bench;

import dev.forage.bench.scenario.Scenarios;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A throughput scenario's operations, one by one, binned by the machine's placement during each: the comparison
 * behind a row that follows the core round trip (docs/comparison-runner.md, "The machine's placement").
 *
 * <p>The runner's table gives each subject the median of its forks, and a placement lasts longer than a fork, so
 * for such a row the table is a draw of placements. Here every measuring JVM (fresh, the runner's flags) measures
 * the round trip ({@link CoreRoundTrip}) before the first timed operation and after each, and an operation counts
 * as <em>fast</em> when the trips before and after it are both below {@code --fast-below} ns, <em>slow</em> when
 * both are above {@code --slow-above}, and <em>mixed</em> otherwise. The report compares sides within one band.
 * A side is a subject on a build: two subjects of this jar, or one subject on two builds ({@code --builds}), the
 * JVMs alternating side by side as the runner alternates subjects.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.ByPlacement --scenario launch-1m \
 *     --subjects forage-jec,default,forkjoin --jvms 10
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.ByPlacement --scenario launch-1m \
 *     --builds before=/tmp/before/benchmarks.jar,after=benchmarks/target/benchmarks.jar --jvms 20
 * </pre>
 * Options, each with a value: {@code --scenario} (one throughput scenario of the runner), {@code --subjects}
 * (runner ids, default forage-jec), {@code --builds} (label=class path, comma-separated; default this jar; every
 * build must contain this tool, whose property turns the per-operation round trips on), {@code --jvms} per side
 * (default 10), {@code --threads} (default 2), {@code --budget} (a runner budget: full, quick, short or tiny;
 * default full), {@code --jvm} (a java binary; default this one's), {@code --jvm-args} (more flags,
 * space-separated), {@code --fast-below} and {@code --slow-above} (ns; default 150 and 250), {@code --out} (the
 * measuring JVMs' logs; default target/by-placement).
 *
 * <p>What it changes: the round trips run between operations, 10 to 60 ms each with both cores spinning, so each
 * operation starts with the pool's workers asleep. For an operation of hundreds of milliseconds (launches,
 * fork-join) that is noise; for one shorter than a millisecond it adds a wake-up, and its times are not the
 * runner's.
 */
public final class ByPlacement {
    /** The system property that turns the round trip around each timed operation on ({@link Measure}). */
    static final String PROPERTY = "forage.bench.roundTripEachOp";
    /** The {@link Results} info key of those round trips: n + 1 values, in ns, for n timed operations. */
    static final String INFO_KEY = "opRoundTripsNanos";

    private static final List<String> OPTIONS = List.of("scenario", "subjects", "builds", "jvms", "threads",
            "budget", "jvm", "jvm-args", "fast-below", "slow-above", "out");

    private ByPlacement() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** The bands, in the report's order. */
    enum Band {
        FAST, SLOW, MIXED;

        String label(long fastBelow, long slowAbove) {
            switch (this) {
                case FAST:
                    return "fast (< " + fastBelow + " ns)";
                case SLOW:
                    return "slow (> " + slowAbove + " ns)";
                default:
                    return "mixed";
            }
        }
    }

    /** A subject on a build; its label in the report is the subject, with the build's label when there are several. */
    record Side(String build, String classPath, String subject, boolean severalBuilds) {
        String label() {
            return severalBuilds ? subject + " @ " + build : subject;
        }
    }

    /** One measuring JVM's timed operations and the round trips around them. */
    record JvmRun(Side side, List<Double> times, long[] trips) {
        JvmRun {
            if (trips.length != times.size() + 1) {
                throw new IllegalArgumentException(times.size() + " operations need " + (times.size() + 1)
                        + " round trips around them, got " + trips.length);
            }
        }

        /** The band of operation {@code i}: by the round trips just before and just after it. */
        Band band(int i, long fastBelow, long slowAbove) {
            long before = trips[i];
            long after = trips[i + 1];
            if (before < fastBelow && after < fastBelow) {
                return Band.FAST;
            }
            if (before > slowAbove && after > slowAbove) {
                return Band.SLOW;
            }
            return Band.MIXED;
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Map<String, String> opts;
        Scenario scenario;
        List<Side> sides;
        Budget budget;
        int jvms;
        int threads;
        long fastBelow;
        long slowAbove;
        try {
            opts = ToolOptions.parse(args, OPTIONS);
            if (!opts.containsKey("scenario")) {
                throw new IllegalArgumentException("--scenario is required: one throughput scenario, e.g. launch-1m");
            }
            scenario = Scenarios.byId(opts.get("scenario"));
            if (scenario.group() != Scenario.Group.THROUGHPUT) {
                throw new IllegalArgumentException("--scenario " + scenario.id() + " is a " + scenario.group()
                        + " scenario; only throughput scenarios time operations one by one");
            }
            sides = sides(opts.get("builds"), opts.getOrDefault("subjects", "forage-jec"));
            for (Side s : sides) {
                Subject subject = Subjects.byId(s.subject);
                if (!subject.capabilities().contains(scenario.needs())) {
                    throw new IllegalArgumentException("subject " + s.subject + " cannot run scenario " + scenario.id()
                            + " (it needs " + scenario.needs() + ")");
                }
            }
            budget = Budget.byName(opts.getOrDefault("budget", "full"));
            jvms = ToolOptions.positive(opts, "jvms", 10);
            threads = ToolOptions.positive(opts, "threads", 2);
            fastBelow = ToolOptions.positive(opts, "fast-below", 150);
            slowAbove = ToolOptions.positive(opts, "slow-above", 250);
            if (slowAbove < fastBelow) {
                throw new IllegalArgumentException("--slow-above (" + slowAbove + ") must not be below --fast-below ("
                        + fastBelow + ")");
            }
        } catch (IllegalArgumentException e) {
            err.println("ByPlacement: " + e.getMessage());
            return 2;
        }
        String java = opts.getOrDefault("jvm", ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("--jvm: this JVM's own binary is unknown; name one")));
        List<String> jvmArgs = opts.containsKey("jvm-args")
                ? Arrays.asList(opts.get("jvm-args").trim().split("\\s+")) : List.of();
        File logs = new File(opts.getOrDefault("out", "target/by-placement"));
        Files.createDirectories(logs.toPath());

        List<JvmRun> runs = new ArrayList<>();
        for (int round = 1; round <= jvms; round++) {
            for (Side side : sides) {
                JvmRun r = measure(java, jvmArgs, side, scenario, threads, budget, logs, round);
                runs.add(r);
                long min = Arrays.stream(r.trips).min().getAsLong();
                long max = Arrays.stream(r.trips).max().getAsLong();
                out.printf(Locale.ROOT, "%s, JVM %d of %d: %d operations, round trips %d to %d ns%n", side.label(),
                        round, jvms, r.times.size(), min, max);
            }
        }
        out.println();
        out.println(report(scenario, runs, sides, fastBelow, slowAbove));
        return 0;
    }

    /** Runs one measuring JVM to its end and reads its operations and round trips. */
    private static JvmRun measure(String java, List<String> jvmArgs, Side side, Scenario scenario, int threads,
            Budget budget, File logs, int round) throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(jvmArgs);
        flags.add("-D" + PROPERTY + "=true");
        List<String> cmd = Compare.childCommand(java, flags, side.classPath, scenario.id(), side.subject,
                scenario.threads(threads), budget);
        String base = scenario.id() + "." + side.subject + (side.severalBuilds ? "." + side.build : "") + "." + round;
        File stdout = new File(logs, base + ".out");
        File stderr = new File(logs, base + ".err");
        Process p = new ProcessBuilder(cmd).directory(logs).redirectOutput(stdout).redirectError(stderr).start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
            throw new IllegalStateException(side.label() + ": no result within 600 s (log: " + stderr + ")");
        }
        List<Double> times = null;
        String trips = null;
        for (String line : Files.readAllLines(stdout.toPath(), StandardCharsets.UTF_8)) {
            ResultLine r = ResultLine.parse(line);
            if (r == null) {
                continue;
            }
            if (r.type == ResultLine.Type.RESULT && r.key.equals("time")) {
                times = r.values;
            } else if (r.type == ResultLine.Type.INFO && r.key.equals(INFO_KEY)) {
                trips = r.value;
            }
        }
        if (p.exitValue() != 0 || times == null) {
            throw new IllegalStateException(side.label() + ": the measuring JVM exited with status " + p.exitValue()
                    + " and no times (log: " + stderr + ")");
        }
        if (trips == null) {
            throw new IllegalStateException(side.label() + ": no round trips around the operations; build "
                    + side.build + " predates this tool, or scenario " + scenario.id()
                    + " does not time its operations through Measure");
        }
        return new JvmRun(side, times, Arrays.stream(trips.split(",")).mapToLong(Long::parseLong).toArray());
    }

    /**
     * The report: per side and band, the operations, their median time with the 10th and 90th percentiles, and
     * the range of the per-JVM medians (two sides whose ranges do not overlap differ by more than a JVM's draw);
     * then each band's medians as ratios to the first side's.
     */
    static String report(Scenario scenario, List<JvmRun> runs, List<Side> sides, long fastBelow, long slowAbove) {
        Map<Side, Map<Band, List<Double>>> ops = new LinkedHashMap<>();
        Map<Side, Map<Band, List<Double>>> jvmMedians = new LinkedHashMap<>();
        for (Side s : sides) {
            ops.put(s, new EnumMap<>(Band.class));
            jvmMedians.put(s, new EnumMap<>(Band.class));
        }
        for (JvmRun r : runs) {
            Map<Band, List<Double>> own = new EnumMap<>(Band.class);
            for (int i = 0; i < r.times.size(); i++) {
                own.computeIfAbsent(r.band(i, fastBelow, slowAbove), b -> new ArrayList<>()).add(r.times.get(i));
            }
            for (Map.Entry<Band, List<Double>> e : own.entrySet()) {
                ops.get(r.side).computeIfAbsent(e.getKey(), b -> new ArrayList<>()).addAll(e.getValue());
                jvmMedians.get(r.side).computeIfAbsent(e.getKey(), b -> new ArrayList<>())
                        .add(Stats.of(e.getValue()).median);
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(scenario.title()).append(" (").append(scenario.id())
                .append("), time per operation, ms, by the core round trip around it\n\n");
        sb.append("| side | placement | operations | median (p10–p90) | JVMs | per-JVM medians |\n");
        sb.append("| --- | --- | ---: | ---: | ---: | ---: |\n");
        for (Side s : sides) {
            for (Band b : Band.values()) {
                List<Double> v = ops.get(s).get(b);
                if (v == null) {
                    continue;
                }
                Stats jvm = Stats.of(jvmMedians.get(s).get(b));
                sb.append("| ").append(s.label()).append(" | ").append(b.label(fastBelow, slowAbove)).append(" | ")
                        .append(v.size()).append(" | ").append(Stats.format(Stats.of(v).median)).append(" (")
                        .append(Stats.format(percentile(v, 0.1))).append("–").append(Stats.format(percentile(v, 0.9)))
                        .append(") | ").append(jvm.n).append(" | ").append(Stats.format(jvm.min)).append("–")
                        .append(Stats.format(jvm.max)).append(" |\n");
            }
        }
        if (sides.size() > 1) {
            sb.append('\n');
            Side first = sides.get(0);
            for (Band b : Band.values()) {
                List<Double> ref = ops.get(first).get(b);
                if (ref == null) {
                    continue;
                }
                List<String> ratios = new ArrayList<>();
                for (Side s : sides.subList(1, sides.size())) {
                    List<Double> v = ops.get(s).get(b);
                    if (v != null) {
                        ratios.add(s.label() + " ×" + Stats.format(Stats.of(v).median / Stats.of(ref).median));
                    }
                }
                if (!ratios.isEmpty()) {
                    sb.append("- ").append(b.label(fastBelow, slowAbove)).append(", against ").append(first.label())
                            .append(": ").append(String.join(", ", ratios)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** The nearest-rank percentile: the value at index {@code floor(p * n)} of the sorted sample. */
    static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size())));
    }

    /** The sides: every build (or this jar alone) with every subject, builds outermost. */
    static List<Side> sides(String builds, String subjects) {
        Map<String, String> byLabel = new LinkedHashMap<>();
        if (builds == null) {
            byLabel.put("this", Compare.absoluteClassPath());
        } else {
            for (String b : builds.split(",")) {
                int eq = b.indexOf('=');
                if (eq <= 0 || eq == b.length() - 1) {
                    throw new IllegalArgumentException("--builds takes label=class path pairs, comma-separated "
                            + "(before=/tmp/a.jar,after=benchmarks/target/benchmarks.jar); got " + b);
                }
                String path = b.substring(eq + 1);
                if (!new File(path).exists()) {
                    throw new IllegalArgumentException("--builds: " + path + " does not exist");
                }
                if (byLabel.put(b.substring(0, eq), new File(path).getAbsolutePath()) != null) {
                    throw new IllegalArgumentException("--builds: the label " + b.substring(0, eq) + " is used twice");
                }
            }
        }
        List<Side> sides = new ArrayList<>();
        for (Map.Entry<String, String> b : byLabel.entrySet()) {
            for (String s : subjects.split(",")) {
                Subjects.byId(s); // an unknown id fails here, with the list of known ones
                sides.add(new Side(b.getKey(), b.getValue(), s, byLabel.size() > 1));
            }
        }
        return sides;
    }
}
