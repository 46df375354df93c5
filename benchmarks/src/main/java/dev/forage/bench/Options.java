package dev.forage.bench;

import dev.forage.bench.scenario.Scenarios;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The command line of {@link Compare}. Unknown or malformed options fail with a message naming what is allowed. */
final class Options {
    static final String USAGE = String.join("\n",
            "usage: java -jar benchmarks/target/benchmarks.jar [options]",
            "  --quick              the demo, about a minute of measuring: Forage, ForkJoinPool, Dispatchers.Default",
            "                       and the fixed pool on five scenarios (compute, low load, idle, wake-up), one",
            "                       fresh JVM each, on this JVM's JDK alone",
            "  --all                with --quick: every scenario and subject of the default run, on every JDK found",
            "                       (one fresh JVM per (scenario, subject, JDK))",
            "  --full               the default: five fresh JVMs per (scenario, subject), longer warm-up, every JDK",
            "  --short              also the short profile beside it: 3 warm-up operations, no wait for the compiler",
            "  --scenarios a,b      only these scenarios (see --list)",
            "  --subjects a,b       only these subjects (see --list)",
            "  --strategies         also every other sleep strategy of Forage (Rayon pre-RFC-5, EMPER, spin, search cap)",
            "  --threads N          workers per pool (default: available processors); wide-pool scenarios use 8",
            "  --forks N            fresh JVMs per (scenario, subject), overriding the mode's",
            "  --jvms A,B           measure on each of these JDKs (java executables or JDK homes), in the same rounds;",
            "                       default (but in the demo): this JVM's JDK and a JDK 25 when one is found",
            "                       (FORAGE_JDK25, a JDK home, or the usual install folders)",
            "  --jvm PATH           measure on this one java executable or JDK home only",
            "  --jvm-args \"...\"     extra flags for the measuring JVMs",
            "  --max-interference P a run during which other processes used more than P % of one core (default 10)",
            "                       is measured again; if still above, its cell is marked ~ and no goal reads it",
            "  --reruns N           how many times a disturbed run is measured again (default 2; 0: never)",
            "  --out DIR            where results.md, the charts and the logs go (default: benchmarks/target/compare)",
            "  --write-docs         also write the table and charts into docs/benchmarks.md (between its markers)",
            "                       and the whole report into results/compare.md beside it",
            "  --docs FILE          the results page to write (default: docs/benchmarks.md of this checkout)",
            "  --charts-from DIR    measure nothing: draw the results page's charts again from the results files in",
            "                       the docs folder DIR (results/compare.md, results/http-io.tsv, the native table)",
            "  --charts a,b         with --charts-from: only these charts (compare, io, native)",
            "  --list               list scenarios and subjects, then exit",
            "  --help               this text");

    Budget budget = Budget.FULL;
    /** The short profile runs too, beside {@link #budget}, with the same forks. */
    boolean alsoShort;
    List<Scenario> scenarios = new ArrayList<>(Scenarios.ALL);
    List<Subject> subjects = new ArrayList<>(Subjects.DEFAULT);
    int threads = Runtime.getRuntime().availableProcessors();
    int forks = -1;
    /** The JDKs given on the command line (java executables or homes); null: found as {@link Jdk#choose} says. */
    List<String> jvms;
    List<String> jvmArgs = new ArrayList<>();
    /** Others' CPU above which a run is disturbed, in cores (Interference). */
    double maxInterferenceCores = Interference.DEFAULT_MAX_CORES;
    int reruns = Interference.DEFAULT_RERUNS;
    File out;
    boolean writeDocs;
    File docs;
    boolean list;
    boolean help;
    /** With {@link Budget#QUICK}: today's whole quick run instead of the demo. */
    boolean all;
    /** The docs folder to draw the charts from, measuring nothing; null: measure. */
    File chartsFrom;
    /** Which charts {@link #chartsFrom} draws; empty: all. */
    List<String> charts = new ArrayList<>();
    private boolean scenariosGiven;
    private boolean subjectsGiven;

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick":
                    o.budget = Budget.QUICK;
                    break;
                case "--full":
                    o.budget = Budget.FULL;
                    break;
                case "--short":
                    o.alsoShort = true;
                    break;
                case "--tiny":
                    o.budget = Budget.TINY;
                    break;
                case "--all":
                    o.all = true;
                    break;
                case "--charts-from":
                    o.chartsFrom = new File(value(args, ++i, a));
                    break;
                case "--charts":
                    for (String c : value(args, ++i, a).split(",")) {
                        if (!List.of("compare", "io", "native").contains(c.trim())) {
                            throw new IllegalArgumentException("unknown chart '" + c + "'; allowed: compare, io, native");
                        }
                        o.charts.add(c.trim());
                    }
                    break;
                case "--scenarios": {
                    o.scenariosGiven = true;
                    o.scenarios = new ArrayList<>();
                    for (String id : value(args, ++i, a).split(",")) {
                        o.scenarios.add(Scenarios.byId(id.trim()));
                    }
                    break;
                }
                case "--subjects": {
                    o.subjectsGiven = true;
                    List<Subject> chosen = new ArrayList<>();
                    for (String id : value(args, ++i, a).split(",")) {
                        chosen.add(Subjects.byId(id.trim()));
                    }
                    // Keep the canonical order, so alternation and colours do not depend on the command line.
                    o.subjects = new ArrayList<>(Subjects.ALL);
                    o.subjects.retainAll(chosen);
                    break;
                }
                case "--strategies":
                    o.subjectsGiven = true;
                    o.subjects = new ArrayList<>(Subjects.ALL);
                    break;
                case "--threads":
                    o.threads = positive(value(args, ++i, a), a);
                    break;
                case "--forks":
                    o.forks = positive(value(args, ++i, a), a);
                    break;
                case "--jvm":
                    o.jvms = List.of(value(args, ++i, a));
                    break;
                case "--jvms": {
                    o.jvms = new ArrayList<>();
                    for (String p : value(args, ++i, a).split(",")) {
                        if (!p.isBlank()) {
                            o.jvms.add(p.trim());
                        }
                    }
                    if (o.jvms.isEmpty()) {
                        throw new IllegalArgumentException(a + " needs at least one java executable or JDK home");
                    }
                    break;
                }
                case "--jvm-args":
                    o.jvmArgs.addAll(Arrays.asList(value(args, ++i, a).trim().split("\\s+")));
                    break;
                case "--max-interference":
                    o.maxInterferenceCores = percent(value(args, ++i, a), a) / 100;
                    break;
                case "--reruns":
                    o.reruns = nonNegative(value(args, ++i, a), a);
                    break;
                case "--out":
                    o.out = new File(value(args, ++i, a));
                    break;
                case "--write-docs":
                    o.writeDocs = true;
                    break;
                case "--docs":
                    o.docs = new File(value(args, ++i, a));
                    break;
                case "--list":
                    o.list = true;
                    break;
                case "--help":
                case "-h":
                    o.help = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
        }
        if (o.isDemo()) {
            // What the command line did not pick, the demo picks: its scenarios and subjects (its one JDK: Compare).
            if (!o.scenariosGiven) {
                o.scenarios = new ArrayList<>(Scenarios.DEMO);
            }
            if (!o.subjectsGiven) {
                o.subjects = new ArrayList<>(Subjects.DEMO);
            }
        }
        return o;
    }

    /**
     * The README's demo: the quick budget without {@code --all}. It measures on the runner's JDK alone (unless
     * {@code --jvms} names others) and leaves the goals it cannot judge in about a minute unjudged.
     */
    boolean isDemo() {
        return budget == Budget.QUICK && !all;
    }

    int forks() {
        return forks > 0 ? forks : budget.forks;
    }

    /** The profiles of this run, the main one first: {@link #budget}, then the short one if asked for. */
    List<Budget> profiles() {
        List<Budget> p = new ArrayList<>();
        p.add(budget);
        if (alsoShort && budget != Budget.SHORT) {
            p.add(Budget.SHORT);
        }
        return p;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static int nonNegative(String v, String option) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message
        }
        throw new IllegalArgumentException(option + " needs an integer of 0 or more, was '" + v + "'");
    }

    private static double percent(String v, String option) {
        try {
            double p = Double.parseDouble(v);
            if (p >= 0 && Double.isFinite(p)) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message
        }
        throw new IllegalArgumentException(option + " needs a percentage of one core, 0 or more, was '" + v + "'");
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
