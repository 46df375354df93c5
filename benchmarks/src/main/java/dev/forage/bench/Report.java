package dev.forage.bench;

import dev.forage.bench.scenario.LaunchLoop;
import dev.forage.bench.scenario.LowLoadCpu;
import dev.forage.bench.scenario.WakeupLatency;
import dev.forage.bench.scenario.YieldTurns;
import java.util.ArrayList;
import java.util.List;

/** The markdown of a run: header, results table, the goals against the anchors, details. Numbers come only from {@link RunData}. */
public final class Report {
    private Report() {
    }

    /** Where and how the run was made, for the header. */
    public static final class Header {
        final String command;
        final String date;
        final String budget;
        final String machine;
        final String jvm;
        /** How the run dealt with other processes' CPU; null: not said (a report made outside the runner). */
        final Interference.Policy interference;

        public Header(String command, String date, String budget, String machine, String jvm) {
            this(command, date, budget, machine, jvm, null);
        }

        public Header(String command, String date, String budget, String machine, String jvm,
                Interference.Policy interference) {
            this.command = command;
            this.date = date;
            this.budget = budget;
            this.machine = machine;
            this.jvm = jvm;
            this.interference = interference;
        }
    }

    /** One profile's results (full, quick or short) on one JDK, and its verdicts. */
    public static final class Profile {
        final String name;
        /** The JDK's feature version (17, 25) in a run on several JDKs; empty in a run on one. */
        final String jdk;
        final RunData data;
        final List<Targets.Verdict> verdicts;

        public Profile(String name, RunData data, List<Targets.Verdict> verdicts) {
            this(name, "", data, verdicts);
        }

        public Profile(String name, String jdk, RunData data, List<Targets.Verdict> verdicts) {
            this.name = name;
            this.jdk = jdk;
            this.data = data;
            this.verdicts = verdicts;
        }
    }

    /** The JDKs of a run's profiles, in order of first appearance (one empty name in a run on one JDK). */
    static List<String> jdks(List<Profile> profiles) {
        List<String> out = new ArrayList<>();
        for (Profile p : profiles) {
            if (!out.contains(p.jdk)) {
                out.add(p.jdk);
            }
        }
        return out;
    }

    /** The profiles measured on one JDK. */
    private static List<Profile> onJdk(List<Profile> profiles, String jdk) {
        List<Profile> out = new ArrayList<>();
        for (Profile p : profiles) {
            if (p.jdk.equals(jdk)) {
                out.add(p);
            }
        }
        return out;
    }

    /** The heading above a JDK's results table; the record's reader (DocNumbersTest) finds the tables by it. */
    public static String jdkHeading(String jdk) {
        return "**JDK " + jdk + "**";
    }

    /** A run of one profile. */
    public static String markdown(RunData data, List<Scenario> scenarios, List<Subject> subjects, Header header,
            List<Targets.Verdict> verdicts, List<String> charts) {
        return markdown(List.of(new Profile("", data, verdicts)), scenarios, subjects, header, charts);
    }

    /**
     * A run of one or more profiles: one results table whose rows carry the profile when there are several, the
     * goals of each profile, each profile's details. The charts are the first profile's.
     */
    public static String markdown(List<Profile> profiles, List<Scenario> scenarios, List<Subject> subjects,
            Header header, List<String> charts) {
        StringBuilder sb = new StringBuilder(summary(profiles, scenarios, subjects, header));

        boolean anyVerdict = false;
        for (Profile p : profiles) {
            anyVerdict |= !p.verdicts.isEmpty();
        }
        if (anyVerdict) {
            sb.append("\n**Against the anchors**\n\n");
            boolean severalJdks = jdks(profiles).size() > 1;
            List<String> anchors = new ArrayList<>();
            for (Subject s : subjects) {
                if (!s.isForage()) {
                    anchors.add(s.label());
                }
            }
            sb.append("Forage's goals against ").append(anchors.isEmpty() ? "the anchors" : anchors.size() == 1
                    ? anchors.get(0) : String.join(", ", anchors.subList(0, anchors.size() - 1)) + " and "
                            + anchors.get(anchors.size() - 1))
                    .append(", judged on the medians of this run. Each row: Forage's median, the reference's, their "
                            + "ratio (lower is better), the ratio of Forage's slowest fork (its highest per-fork median "
                            + "against the reference's median) and the limit the ratio must stay within; the best "
                            + "anchor is whichever of those pools did best in that row. PASS: Forage met the goal in "
                            + "this run; MISS: it did not; n/a: this run cannot tell; unreliable: other processes took "
                            + "CPU from a run the goal reads (~ in the table), so this run cannot tell either; "
                            + Targets.NOT_JUDGED + ": a minute of measuring cannot tell (the note says why).");
            if (severalJdks) {
                sb.append(" Each JDK's goal is judged on its own table, in the columns headed by the JDK (ratio: "
                        + "Forage's slowest fork's in brackets). A goal is met only when it is met on every JDK (met "
                        + "on both); met on 17 only: it missed on the other; a JDK whose verdict is n/a or unreliable "
                        + "is named with it.");
            }
            sb.append("\n\n");
            sb.append(targetsTable(profiles));
        }
        for (Profile p : profiles) {
            String details = details(p.data, scenarios, subjects);
            if (!details.isEmpty()) {
                sb.append("\n**Run details").append(label(profiles, p, " (", " profile)", ")")).append("**\n\n")
                        .append(details);
            }
        }
        if (header.interference != null && header.interference.measured()) {
            String runs = interferenceDetails(profiles, scenarios, subjects);
            if (!runs.isEmpty()) {
                sb.append("\n**Interference**\n\nThe CPU other processes used during each run, in per cent of one "
                        + "core, fork by fork; ~: still above " + header.interference.limitText() + " after its "
                        + "reruns.\n\n").append(runs);
            }
        }
        for (Profile p : profiles) {
            RunData data = p.data;
            if (data.failureCount() > 0) {
                sb.append("\n**Failed runs").append(label(profiles, p, " (", " profile)", ")")).append("**\n\n");
                for (Scenario sc : scenarios) {
                    for (Subject s : subjects) {
                        String why = data.failure(sc.id(), s.id());
                        if (why != null) {
                            sb.append("- ").append(sc.id()).append(" / ").append(s.id()).append(": ").append(why)
                                    .append('\n');
                        }
                    }
                }
            }
        }
        if (!charts.isEmpty()) {
            sb.append('\n');
            for (String c : charts) {
                sb.append("![").append(c).append("](").append(c).append(")\n\n");
            }
        }
        return sb.toString();
    }

    /**
     * The header (command, date, machine, JVM) and the results table, without the goals and the run details: the
     * part of a run that docs/benchmarks.md shows; {@link #markdown} adds the rest for the run's results file.
     */
    public static String summary(List<Profile> profiles, List<Scenario> scenarios, List<Subject> subjects,
            Header header) {
        StringBuilder sb = new StringBuilder();
        Interference.Policy policy = header.interference;
        List<RunData> all = new ArrayList<>();
        for (Profile p : profiles) {
            all.add(p.data);
        }
        Interference.Summary busy = Interference.summarize(all);
        if (policy != null && busy.tooBusy()) {
            // First, before any number: a reader of this run must not take the machine's load for the schedulers'.
            sb.append(tooBusyLine(busy, policy)).append("\n\n");
        }
        sb.append("Command: `").append(header.command).append("`  \n");
        sb.append("Date: ").append(header.date).append("; ").append(header.budget).append("  \n");
        sb.append("Machine: ").append(header.machine).append("; JVM: ").append(header.jvm);
        if (policy != null) {
            sb.append("  \n").append(interferenceLine(busy, policy));
        }
        sb.append("\n\n");

        sb.append("Each cell: the median over every measured iteration of every fork, (in brackets) the spread "
                + "across forks: the lowest and the highest of the per-fork medians, and ×: the ratio of the median "
                + "to the best anchor's (the best non-Forage subject) of the row. Lower is better everywhere. "
                + "–: the subject cannot run the scenario.");
        if (busy.disturbedCells() > 0 && policy != null) {
            sb.append(" ~: other processes used more than ").append(policy.limitText())
                    .append(" during one of the cell's runs, measured ").append(policy.reruns() + 1)
                    .append(" times at most: its numbers are not the subject's alone, and no goal is judged on it.");
        }
        List<String> jdks = jdks(profiles);
        if (profiles.size() > jdks.size()) {
            sb.append(" Each row is measured in every profile of the header, in the same rounds of fresh JVMs.");
        }
        if (jdks.size() > 1) {
            // One table per JDK: a reader picks a scheduler on the JDK they run, and reads that table alone.
            sb.append(" One table per JDK, measured in the same rounds (each round runs every subject on every JDK); "
                    + "the best anchor and × are those of the same JDK's row.");
        }
        sb.append("\n\n");
        if (jdks.size() > 1) {
            for (String jdk : jdks) {
                sb.append(jdkHeading(jdk)).append("\n\n").append(resultsTable(onJdk(profiles, jdk), scenarios, subjects))
                        .append('\n');
            }
            sb.setLength(sb.length() - 1);
        } else {
            sb.append(resultsTable(profiles, scenarios, subjects));
        }
        return sb.toString();
    }

    /**
     * The line that opens the report of a run whose cells were too often disturbed: the verdicts would report the
     * machine's load as Forage's losses, so none is given.
     */
    public static String tooBusyLine(Interference.Summary busy, Interference.Policy policy) {
        return "**The machine was too busy for these results to mean anything.** Other processes used more than "
                + policy.limitText() + " during the runs of " + busy.disturbedCells() + " of " + busy.cells()
                + " cells (~), each measured up to " + (policy.reruns() + 1) + " times (at the worst "
                + Stats.format(busy.maxCores() * 100) + " % of a core): the table's numbers measure that load as much "
                + "as the schedulers, and no goal is judged (unreliable). Run it again when the machine is quiet.";
    }

    /** The header's account of interference: how much others used, the threshold, what was rerun and marked. */
    static String interferenceLine(Interference.Summary busy, Interference.Policy policy) {
        if (!policy.measured()) {
            return "Interference: unmeasured (no /proc/stat on this system): whether other processes took CPU "
                    + "from the runs is unknown, and the verdicts assume they did not";
        }
        if (busy.runs() == 0) {
            return "Interference: no run measured";
        }
        return "Interference (CPU of other processes during each run): median " + Stats.format(busy.medianCores() * 100)
                + " %, at most " + Stats.format(busy.maxCores() * 100) + " % of one core; threshold "
                + policy.limitText() + ", " + policy.reruns() + " rerun(s) at most; " + busy.rerunRuns() + " of "
                + busy.runs() + " runs measured again, " + busy.disturbedCells() + " of " + busy.cells()
                + " cells still above it (~)";
    }

    /** Per scenario, each subject's runs: others' CPU fork by fork, the attempts it took, ~ where it stayed above. */
    static String interferenceDetails(List<Profile> profiles, List<Scenario> scenarios, List<Subject> subjects) {
        StringBuilder sb = new StringBuilder();
        for (Scenario sc : scenarios) {
            for (Profile p : profiles) {
                List<String> parts = new ArrayList<>();
                for (Subject s : subjects) {
                    List<Interference.Run> runs = p.data.interference(sc.id(), s.id());
                    if (!runs.isEmpty()) {
                        List<String> texts = new ArrayList<>();
                        for (Interference.Run r : runs) {
                            texts.add(r.text());
                        }
                        parts.add(s.label() + " " + String.join(" / ", texts));
                    }
                }
                if (!parts.isEmpty()) {
                    sb.append("- ").append(sc.id()).append(label(profiles, p, " (", ")", ")")).append(": ")
                            .append(String.join("; ", parts)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * What tells the profile apart from the run's others: its name between {@code before} and {@code afterName}
     * when the run has several profiles, its JDK when it has several JDKs (then closed by {@code afterJdk}), else
     * nothing.
     */
    private static String label(List<Profile> profiles, Profile p, String before, String afterName, String afterJdk) {
        boolean severalNames = false;
        for (Profile q : profiles) {
            severalNames |= !q.name.equals(p.name);
        }
        boolean severalJdks = jdks(profiles).size() > 1;
        if (severalNames && severalJdks) {
            return before + p.name + afterName.replace(")", "") + ", JDK " + p.jdk + afterJdk;
        }
        if (severalNames) {
            return before + p.name + afterName;
        }
        return severalJdks ? before + "JDK " + p.jdk + afterJdk : "";
    }

    /** The results table of a run of one profile. */
    static String resultsTable(RunData data, List<Scenario> scenarios, List<Subject> subjects) {
        return resultsTable(List.of(new Profile("", data, List.of())), scenarios, subjects);
    }

    /** Rows per scenario and metric, and, when the run has several profiles, per profile (a column of its own). */
    static String resultsTable(List<Profile> profiles, List<Scenario> scenarios, List<Subject> subjects) {
        boolean several = profiles.size() > 1;
        StringBuilder sb = new StringBuilder(several ? "| scenario | profile | metric |" : "| scenario | metric |");
        StringBuilder rule = new StringBuilder(several ? "| --- | --- | --- |" : "| --- | --- |");
        for (Subject s : subjects) {
            sb.append(' ').append(s.label()).append(" |");
            rule.append(" --- |");
        }
        sb.append('\n').append(rule).append('\n');
        for (Scenario sc : scenarios) {
            for (Metric m : sc.metrics()) {
                for (Profile p : profiles) {
                    RunData data = p.data;
                    sb.append("| ").append(sc.title()).append(" | ");
                    if (several) {
                        sb.append(p.name).append(" | ");
                    }
                    sb.append(m.label()).append(", ").append(m.unit()).append(" |");
                    Subject best = data.bestAnchor(sc.id(), m.id(), subjects);
                    double bestMedian = best == null ? Double.NaN : data.stats(sc.id(), best.id(), m.id()).median;
                    for (Subject s : subjects) {
                        sb.append(' ').append(cell(data, sc, m, s, bestMedian)).append(" |");
                    }
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static String cell(RunData data, Scenario sc, Metric m, Subject s, double bestMedian) {
        if (!s.capabilities().contains(sc.needs())) {
            return "–";
        }
        String failure = data.failure(sc.id(), s.id());
        if (failure != null) {
            return "failed";
        }
        Stats st = data.stats(sc.id(), s.id(), m.id());
        if (st == null) {
            return "not run";
        }
        Stats forks = data.forkSpread(sc.id(), s.id(), m.id());
        // ~ first, where the eye starts reading the cell: these numbers are partly other processes'.
        String text = (data.disturbed(sc.id(), s.id()) ? "~" : "")
                + (s.isForage() ? "**" + Stats.format(st.median) + "**" : Stats.format(st.median))
                + " (" + Stats.format(forks.min) + "–" + Stats.format(forks.max) + ")";
        double ratio = Stats.ratio(st.median, bestMedian);
        if (!Double.isNaN(ratio)) {
            text += " ×" + Stats.format(ratio);
        }
        return text;
    }

    static String targetsTable(List<Profile> profiles) {
        if (jdks(profiles).size() > 1) {
            return acrossJdksTable(profiles);
        }
        boolean several = profiles.size() > 1;
        StringBuilder sb = new StringBuilder(several ? "| goal | profile |" : "| goal |")
                .append(" Forage | reference | ratio | slowest fork | limit | result |\n");
        sb.append(several ? "| --- | --- |" : "| --- |").append(" --- | --- | --- | --- | --- | --- |\n");
        for (Profile p : profiles) {
            for (Targets.Verdict v : p.verdicts) {
                String result = !v.decided()
                        ? v.verdict + ": " + v.note : "**" + v.verdict + "**";
                sb.append("| ").append(v.target).append(" | ");
                if (several) {
                    sb.append(p.name).append(" | ");
                }
                sb.append(v.forage).append(" | ").append(v.reference)
                        .append(" | ").append(Double.isNaN(v.ratio) ? "" : Stats.format(v.ratio)).append(" | ")
                        .append(Double.isNaN(v.slowestForkRatio) ? "" : Stats.format(v.slowestForkRatio))
                        .append(" | ").append(v.limit).append(" | ").append(result).append(" |\n");
            }
        }
        return sb.toString();
    }

    /**
     * The goals of a run on several JDKs: per goal (and profile), each JDK's Forage, reference, ratio and verdict
     * side by side, then the verdict across them, met only when met on every JDK.
     */
    static String acrossJdksTable(List<Profile> profiles) {
        List<String> jdks = jdks(profiles);
        List<String> names = new ArrayList<>();
        for (Profile p : profiles) {
            if (!names.contains(p.name)) {
                names.add(p.name);
            }
        }
        boolean severalNames = names.size() > 1;
        StringBuilder sb = new StringBuilder(severalNames ? "| goal | profile | limit |" : "| goal | limit |");
        StringBuilder rule = new StringBuilder(severalNames ? "| --- | --- | --- |" : "| --- | --- |");
        for (String j : jdks) {
            sb.append(" JDK ").append(j).append(": Forage | reference | ratio | result |");
            rule.append(" --- | --- | --- | --- |");
        }
        sb.append(jdks.size() == 2 ? " on both |" : " on all |").append('\n').append(rule).append(" --- |\n");
        for (String name : names) {
            List<Profile> row = new ArrayList<>();
            for (String j : jdks) {
                for (Profile p : profiles) {
                    if (p.name.equals(name) && p.jdk.equals(j)) {
                        row.add(p);
                    }
                }
            }
            if (row.size() != jdks.size()) {
                throw new IllegalArgumentException("profile " + name + " lacks a JDK: " + row.size() + " of " + jdks.size());
            }
            int goals = row.get(0).verdicts.size();
            for (int i = 0; i < goals; i++) {
                List<Targets.Verdict> vs = new ArrayList<>();
                for (Profile p : row) {
                    vs.add(p.verdicts.get(i));
                }
                Targets.Across a = Targets.across(jdks, vs);
                Targets.Verdict first = vs.get(0);
                sb.append("| ").append(first.target).append(" | ");
                if (severalNames) {
                    sb.append(name).append(" | ");
                }
                // An n/a verdict carries no limit: the first JDK's verdict that has one gives it (the same on each).
                String limit = "";
                for (Targets.Verdict v : vs) {
                    limit = limit.isEmpty() ? v.limit : limit;
                }
                sb.append(limit).append(" |");
                for (Targets.Verdict v : vs) {
                    String ratio = Double.isNaN(v.ratio) ? "" : Stats.format(v.ratio)
                            + (Double.isNaN(v.slowestForkRatio) ? "" : " (" + Stats.format(v.slowestForkRatio) + ")");
                    sb.append(' ').append(v.forage).append(" | ").append(v.reference).append(" | ").append(ratio)
                            .append(" | ").append(result(v)).append(" |");
                }
                boolean decided = vs.stream().allMatch(v -> v.verdict.equals("PASS") || v.verdict.equals("MISS"));
                sb.append(' ').append(decided ? "**" + a.text + "**" : a.text).append(" |\n");
            }
        }
        return sb.toString();
    }

    private static String result(Targets.Verdict v) {
        return !v.decided() ? v.verdict + ": " + v.note
                : "**" + v.verdict + "**";
    }

    /**
     * Per-subject facts that qualify the numbers: task length, late submissions, stranded and millisecond
     * wake-ups, what {@code yield()} did, where a launch loop's time went.
     */
    static String details(RunData data, List<Scenario> scenarios, List<Subject> subjects) {
        StringBuilder sb = new StringBuilder();
        for (Scenario sc : scenarios) {
            List<String> parts = new ArrayList<>();
            for (Subject s : subjects) {
                List<String> task = data.info(sc.id(), s.id(), "taskCpuMicros");
                List<String> late = data.info(sc.id(), s.id(), "lateSubmissions");
                List<String> stranded = data.info(sc.id(), s.id(), "strandedInside");
                List<String> threads = data.info(sc.id(), s.id(), "poolThreads");
                List<String> forage = data.info(sc.id(), s.id(), "forageStats");
                List<String> forageTimed = data.info(sc.id(), s.id(), "forageStatsTimed");
                List<String> warmup = data.info(sc.id(), s.id(), "warmupMillis");
                List<String> warmupJit = data.info(sc.id(), s.id(), "warmupJitMillis");
                List<String> settled = data.info(sc.id(), s.id(), "warmupSettled");
                List<String> timedJit = data.info(sc.id(), s.id(), "measuredJitMillis");
                List<String> turns = data.info(sc.id(), s.id(), YieldTurns.INFO_KEY);
                List<String> launchLoop = data.info(sc.id(), s.id(), LaunchLoop.INFO_KEY);
                List<String> longWakeups = data.info(sc.id(), s.id(), WakeupLatency.OVER_ONE_MILLI_KEY);
                List<String> afterReturn = data.info(sc.id(), s.id(), WakeupLatency.START_AFTER_RETURN_KEY);
                List<String> beforeReturn = data.info(sc.id(), s.id(), WakeupLatency.STARTED_BEFORE_RETURN_KEY);
                List<String> idleCycles = data.info(sc.id(), s.id(), LowLoadCpu.IDLE_CYCLE_KEY);
                List<String> roundTrips = data.info(sc.id(), s.id(), CoreRoundTrip.INFO_KEY);
                List<String> bits = new ArrayList<>();
                if (!warmup.isEmpty()) {
                    bits.add(warmupText(warmup, warmupJit, settled, timedJit));
                }
                if (!task.isEmpty()) {
                    bits.add("task " + String.join("/", task) + " µs CPU");
                }
                if (!late.isEmpty() && !late.stream().allMatch("0"::equals)) {
                    bits.add("late submissions " + String.join("/", late));
                }
                if (!stranded.isEmpty() && !stranded.stream().allMatch("0"::equals)) {
                    bits.add("no other worker woke within 5 ms: " + String.join("/", stranded) + " samples");
                }
                if (!threads.isEmpty()) {
                    bits.add(String.join("/", threads) + " threads");
                }
                if (!turns.isEmpty()) {
                    // Whether yield() let the other coroutines run (1) or resumed the same one again (more).
                    bits.add("turns in a row after yield() (median) " + String.join("/", turns));
                }
                if (!launchLoop.isEmpty()) {
                    // How long the launching coroutine's loop took of the operation, and the children that ran
                    // beside it: what decides this row (docs/benchmarks.md, "Where Forage trails").
                    bits.add("launch loop (untimed, median of 3) " + String.join(" / ", launchLoop)
                            + " of the children run during it");
                }
                if (!idleCycles.isEmpty()) {
                    // The CPU a worker spends between two tasks: the pool's own path plus one park, and whether
                    // the excess is in every cycle or in a few (docs/benchmarks.md, "Where Forage trails").
                    bits.add("idle cycle CPU (untimed pass) " + String.join(" / ", idleCycles));
                }
                if (!afterReturn.isEmpty()) {
                    // Where the latency lies: before execute returned (the submitter's path and its unpark), or
                    // after (the woken worker's path to the job) (docs/benchmarks.md, "Where Forage trails").
                    bits.add("job start after execute returned (p50) " + String.join(" / ", afterReturn) + " µs");
                }
                if (!beforeReturn.isEmpty()) {
                    // Whether the woken worker preempted the submitter (the job started inside execute) or waited
                    // for it to park: the scheduler's choice, which sets where the median falls.
                    bits.add("jobs started before execute returned " + String.join(" / ", beforeReturn) + " %");
                }
                if (!roundTrips.isEmpty()) {
                    // Which placement of the two cores each fork had: rows of lines moving between workers follow
                    // it (CoreRoundTrip).
                    bits.add("core round trip before/after " + String.join(" · ", roundTrips) + " ns");
                }
                if (!longWakeups.isEmpty()) {
                    bits.add("wake-ups of 1 ms or more " + String.join(" / ", longWakeups));
                }
                if (!forageTimed.isEmpty()) {
                    // The timed part is what the table's numbers measured; the warm-up's counts would drown it.
                    bits.add("pool statistics while timed: " + String.join(" / ", forageTimed));
                } else if (!forage.isEmpty()) {
                    bits.add("pool statistics: " + String.join(" / ", forage));
                }
                if (!bits.isEmpty()) {
                    parts.add(s.label() + ": " + String.join(", ", bits));
                }
            }
            if (!parts.isEmpty()) {
                sb.append("- ").append(sc.id()).append(": ").append(String.join("; ", parts)).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The warm-up of a throughput scenario per fork: its length, the compiler's CPU in it, forks whose compiler
     * never went quiet (the warm-up hit its cap), and compiler CPU while timed, if any.
     */
    static String warmupText(List<String> millis, List<String> jitMillis, List<String> settled,
            List<String> timedJit) {
        List<String> seconds = new ArrayList<>();
        for (String m : millis) {
            seconds.add(Stats.format(Long.parseLong(m) / 1000.0));
        }
        StringBuilder sb = new StringBuilder("warm-up ").append(String.join("/", seconds)).append(" s");
        if (!jitMillis.isEmpty()) {
            List<String> jit = new ArrayList<>();
            for (String m : jitMillis) {
                jit.add(Stats.format(Long.parseLong(m) / 1000.0));
            }
            sb.append(" (compiler CPU ").append(String.join("/", jit)).append(" s)");
        }
        long capped = settled.stream().filter("false"::equals).count();
        if (capped > 0) {
            sb.append(", compiler still busy at the cap in ").append(capped).append(" fork(s)");
        }
        if (!timedJit.isEmpty() && !timedJit.stream().allMatch("0"::equals)) {
            sb.append(", compiler CPU while timed ").append(String.join("/", timedJit)).append(" ms");
        }
        return sb.toString();
    }

    /** The generated list of scenarios with what each measures and how. */
    public static String scenarioList(List<Scenario> scenarios) {
        StringBuilder sb = new StringBuilder();
        for (Scenario sc : scenarios) {
            sb.append("- **`").append(sc.id()).append("`** (").append(sc.title()).append("): ")
                    .append(sc.description()).append('\n');
        }
        return sb.toString();
    }
}
