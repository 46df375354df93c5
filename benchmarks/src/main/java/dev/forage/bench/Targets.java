package dev.forage.bench;

import dev.forage.bench.scenario.LowLoadCpu;
import java.util.ArrayList;
import java.util.List;

/**
 * Forage's goals against the anchors (ForkJoinPool, the common pool, Dispatchers.Default, a fixed pool), judged on
 * one run's medians: each is "Forage's median / a reference median ≤ a limit", except the idle goal, which is
 * "Forage's idle CPU = 0". Only the primary Forage subject (the pool's default configuration) is judged; the
 * goals themselves are listed in docs/benchmarks.md, "Targets".
 */
public final class Targets {
    /** The subject id the 8-worker low-load target compares against (Rayon's pre-RFC-5 sleep protocol). */
    public static final String PRE_RFC5_SUBJECT = "forage-rayon-pre-rfc5";
    /** How the targets table names that subject, run or not. */
    static final String PRE_RFC5_NAME = "Rayon's pre-RFC-5 protocol";

    private Targets() {
    }

    /** What a goal is judged when a run it reads was disturbed by other processes ({@link Interference}). */
    public static final String UNRELIABLE = "unreliable";
    /** What the demo calls a goal it cannot judge in its minute of measuring ({@link #demo}). */
    public static final String NOT_JUDGED = "not judged in the quick demo";

    /**
     * One judged target. {@code verdict} is PASS, MISS, n/a (not measurable in this run, see note) or
     * {@link #UNRELIABLE} (other processes took CPU from a run it reads, see note).
     */
    public static final class Verdict {
        public final String target;
        public final String forage;
        public final String reference;
        public final double ratio;
        public final String limit;
        public final String verdict;
        public final String note;
        /**
         * Forage's slowest fork against the reference: its highest per-fork median over the reference's median
         * (NaN where there is no ratio). A goal met "in every fork" keeps this within the limit too.
         */
        public final double slowestForkRatio;

        Verdict(String target, String forage, String reference, double ratio, String limit, String verdict,
                String note) {
            this(target, forage, reference, ratio, Double.NaN, limit, verdict, note);
        }

        Verdict(String target, String forage, String reference, double ratio, double slowestForkRatio,
                String limit, String verdict, String note) {
            this.slowestForkRatio = slowestForkRatio;
            this.target = target;
            this.forage = forage;
            this.reference = reference;
            this.ratio = ratio;
            this.limit = limit;
            this.verdict = verdict;
            this.note = note;
        }

        /** PASS or MISS: the run judged the goal (not n/a, unreliable or not judged). */
        public boolean decided() {
            return verdict.equals("PASS") || verdict.equals("MISS");
        }
    }

    public static List<Verdict> evaluate(RunData data, List<Scenario> scenarios, List<Subject> subjects) {
        Subject forage = null;
        for (Subject s : subjects) {
            if (s.isForage()) {
                forage = s;
                break;
            }
        }
        List<Verdict> out = new ArrayList<>();
        if (forage == null) {
            return out;
        }
        for (Scenario sc : scenarios) {
            switch (sc.group()) {
                case THROUGHPUT: {
                    double limit = sc.id().equals("launch-1m") || sc.id().equals("fib-async") ? 0.8 : 1.0;
                    out.add(versusBest(data, sc, "time", forage, subjects, limit));
                    break;
                }
                case LOW_LOAD: {
                    out.add(versusBest(data, sc, "cpu", forage, subjects, 1.0));
                    if (sc instanceof LowLoadCpu && ((LowLoadCpu) sc).fixedThreads() == 8) {
                        out.add(versusSubject(data, sc, "cpu", forage, subjects, PRE_RFC5_SUBJECT, 0.5));
                    }
                    break;
                }
                case IDLE:
                    out.add(idle(data, sc, forage, subjects));
                    break;
                case WAKEUP:
                    if (sc.id().equals("wakeup-outside") || sc.id().equals("wakeup-periodic")) {
                        out.add(versusSubject(data, sc, "p50", forage, subjects, "forkjoin", 1.0));
                        out.add(versusBest(data, sc, "p99", forage, subjects, 1.2));
                    } else {
                        out.add(versusBest(data, sc, "p50", forage, subjects, 1.0));
                    }
                    break;
                default:
                    throw new AssertionError(sc.group());
            }
        }
        return out;
    }

    private static String name(Scenario sc, String metric) {
        return sc.id() + (sc.metrics().size() > 1 ? " " + metric : "");
    }

    private static Verdict versusBest(RunData data, Scenario sc, String metric, Subject forage,
            List<Subject> subjects, double limit) {
        String target = name(sc, metric) + ": ≤ " + limit(limit) + " best anchor";
        Subject best = data.bestAnchor(sc.id(), metric, subjects);
        if (best == null) {
            return notMeasurable(target, "no anchor measured");
        }
        // Every anchor measured in the row takes part in picking the best: a disturbed one might have been it.
        List<Subject> read = new ArrayList<>();
        read.add(forage);
        for (Subject s : subjects) {
            if (!s.isForage() && data.stats(sc.id(), s.id(), metric) != null) {
                read.add(s);
            }
        }
        return disturbance(data, sc, read, judge(data, sc, metric, forage, best, target, limit));
    }

    private static Verdict versusSubject(RunData data, Scenario sc, String metric, Subject forage,
            List<Subject> subjects, String referenceId, double limit) {
        Subject ref = null;
        for (Subject s : subjects) {
            if (s.id().equals(referenceId)) {
                ref = s;
            }
        }
        String target = name(sc, metric) + ": ≤ " + limit(limit) + " "
                + (referenceId.equals(PRE_RFC5_SUBJECT) ? PRE_RFC5_NAME : ref != null ? ref.label() : referenceId);
        if (ref == null) {
            return notMeasurable(target, referenceId.equals(PRE_RFC5_SUBJECT)
                    ? PRE_RFC5_NAME + " was not run (add --strategies; docs/benchmarks.md, \"Sleep strategies side by side\")"
                    : referenceId + " was not run");
        }
        if (data.stats(sc.id(), ref.id(), metric) == null) {
            return notMeasurable(target, referenceId + " has no result" + failureNote(data, sc, ref));
        }
        return disturbance(data, sc, List.of(forage, ref), judge(data, sc, metric, forage, ref, target, limit));
    }

    private static Verdict judge(RunData data, Scenario sc, String metric, Subject forage, Subject ref,
            String target, double limit) {
        Stats f = data.stats(sc.id(), forage.id(), metric);
        Stats r = data.stats(sc.id(), ref.id(), metric);
        if (f == null) {
            return notMeasurable(target, forageMissing(data, sc, forage));
        }
        double ratio = Stats.ratio(f.median, r.median);
        String verdict;
        if (Double.isNaN(ratio)) {
            verdict = f.median == 0 ? "PASS" : "MISS"; // reference is 0: only 0 is as good
        } else {
            verdict = ratio <= limit ? "PASS" : "MISS";
        }
        String unit = unit(sc, metric);
        Stats forks = data.forkSpread(sc.id(), forage.id(), metric);
        double slowest = forks == null ? Double.NaN : Stats.ratio(forks.max, r.median);
        return new Verdict(target, Stats.format(f.median) + unit, ref.label() + " " + Stats.format(r.median) + unit,
                ratio, slowest, "≤ " + plain(limit), verdict, "");
    }

    private static Verdict idle(RunData data, Scenario sc, Subject forage, List<Subject> subjects) {
        String target = "idle: Forage's threads use no CPU once asleep";
        Stats f = data.stats(sc.id(), forage.id(), "cpu");
        if (f == null) {
            return notMeasurable(target, forageMissing(data, sc, forage));
        }
        Subject best = data.bestAnchor(sc.id(), "cpu", subjects);
        String ref = best == null ? "" : best.label() + " " + Stats.format(data.stats(sc.id(), best.id(), "cpu").median)
                + " µs/s";
        return disturbance(data, sc, List.of(forage), new Verdict(target, Stats.format(f.median) + " µs/s (max "
                + Stats.format(f.max) + ")", ref, Double.NaN, "= 0", f.median == 0 ? "PASS" : "MISS", ""));
    }

    /**
     * The verdict, or {@link #UNRELIABLE} when a cell it reads stayed disturbed: other processes' CPU would be
     * judged as the subject's (a MISS) or would have slowed the reference (a PASS).
     */
    private static Verdict disturbance(RunData data, Scenario sc, List<Subject> read, Verdict v) {
        if (v.verdict.equals("n/a")) {
            return v;
        }
        List<String> disturbed = new ArrayList<>();
        for (Subject s : read) {
            if (data.disturbed(sc.id(), s.id())) {
                disturbed.add(s.label());
            }
        }
        if (disturbed.isEmpty()) {
            return v;
        }
        return unreliable(v, "other processes took CPU from " + String.join(", ", disturbed) + " (~ in the table)");
    }

    /**
     * One goal judged on every JDK of a run. A user runs one JDK, so a goal Forage meets on one and misses on the
     * other is not met: {@link #met} only when every JDK's verdict is PASS.
     */
    public static final class Across {
        /** The JDKs' names (17, 25), in the order of {@link #verdicts}. */
        public final List<String> jdks;
        public final List<Verdict> verdicts;
        public final boolean met;
        /** As the report prints it: met on both, met on 17 only, missed on both, met on 17, unreliable on 25, .... */
        public final String text;

        Across(List<String> jdks, List<Verdict> verdicts, boolean met, String text) {
            this.jdks = jdks;
            this.verdicts = verdicts;
            this.met = met;
            this.text = text;
        }
    }

    /** The goal of the same row judged on each JDK ({@code verdicts.get(i)} on {@code jdks.get(i)}), taken together. */
    public static Across across(List<String> jdks, List<Verdict> verdicts) {
        if (jdks.size() != verdicts.size() || jdks.isEmpty()) {
            throw new IllegalArgumentException(jdks.size() + " JDKs for " + verdicts.size() + " verdicts");
        }
        String target = verdicts.get(0).target;
        for (Verdict v : verdicts) {
            if (!v.target.equals(target)) {
                // The lists come from one scenario list and one subject list per JDK; a mismatch is a bug.
                throw new IllegalArgumentException("verdicts of different goals: " + target + " and " + v.target);
            }
        }
        boolean met = true;
        boolean decided = true; // every JDK's verdict is PASS or MISS
        List<String> passed = new ArrayList<>();
        java.util.Map<String, List<String>> byWord = new java.util.LinkedHashMap<>();
        for (int i = 0; i < verdicts.size(); i++) {
            String v = verdicts.get(i).verdict;
            met &= v.equals("PASS");
            decided &= v.equals("PASS") || v.equals("MISS");
            if (v.equals("PASS")) {
                passed.add(jdks.get(i));
            }
            byWord.computeIfAbsent(word(v), w -> new ArrayList<>()).add(jdks.get(i));
        }
        String all = jdks.size() == 2 ? "both" : "all " + jdks.size();
        String text;
        if (byWord.size() == 1) {
            text = byWord.keySet().iterator().next() + " on " + all;
        } else if (decided) {
            text = "met on " + String.join(" and ", passed) + " only";
        } else {
            List<String> parts = new ArrayList<>();
            for (java.util.Map.Entry<String, List<String>> e : byWord.entrySet()) {
                parts.add(e.getKey() + " on " + String.join(" and ", e.getValue()));
            }
            text = String.join(", ", parts);
        }
        return new Across(List.copyOf(jdks), List.copyOf(verdicts), met, text);
    }

    private static String word(String verdict) {
        switch (verdict) {
            case "PASS":
                return "met";
            case "MISS":
                return "missed";
            default:
                return verdict; // n/a, unreliable, not judged in the quick demo
        }
    }

    /** Every PASS and MISS among the verdicts as {@link #UNRELIABLE}, with the reason; the others stay. */
    public static List<Verdict> unreliable(List<Verdict> verdicts, String note) {
        List<Verdict> out = new ArrayList<>();
        for (Verdict v : verdicts) {
            out.add(v.decided() ? unreliable(v, note) : v);
        }
        return out;
    }

    /**
     * The verdicts of the demo (the quick budget, one JVM per cell): a p99 goal is {@link #NOT_JUDGED}. Its
     * percentile rests on the slowest hundredth of one JVM's samples, a handful, where one page fault or timer
     * slip decides it; the full run judges it on the samples of five JVMs. Every other goal reads medians, which a
     * minute of samples carries.
     */
    public static List<Verdict> demo(List<Verdict> verdicts, Budget budget) {
        long samples = (long) budget.windows * budget.wakeupsPerWindow;
        List<Verdict> out = new ArrayList<>();
        for (Verdict v : verdicts) {
            if (v.target.contains(" p99:") && !v.verdict.equals("n/a")) {
                out.add(new Verdict(v.target, v.forage, v.reference, v.ratio, v.slowestForkRatio, v.limit, NOT_JUDGED,
                        "a p99 of " + samples + " samples from one JVM is its " + samples / 100 + " slowest; --full "
                                + "judges it on five JVMs"));
            } else {
                out.add(v);
            }
        }
        return out;
    }

    private static Verdict unreliable(Verdict v, String note) {
        return new Verdict(v.target, v.forage, v.reference, v.ratio, v.slowestForkRatio, v.limit, UNRELIABLE, note);
    }

    private static String forageMissing(RunData data, Scenario sc, Subject forage) {
        if (!forage.capabilities().contains(sc.needs())) {
            return forage.label() + " cannot run it in this build (no " + sc.needs() + " support)";
        }
        return forage.label() + " has no result" + failureNote(data, sc, forage);
    }

    private static String failureNote(RunData data, Scenario sc, Subject s) {
        String why = data.failure(sc.id(), s.id());
        return why == null ? " (not run)" : " (failed: " + why + ")";
    }

    private static Verdict notMeasurable(String target, String note) {
        return new Verdict(target, "", "", Double.NaN, "", "n/a", note);
    }

    private static String unit(Scenario sc, String metric) {
        for (Metric m : sc.metrics()) {
            if (m.id().equals(metric)) {
                return m.unit().equals("×") ? "" : " " + m.unit();
            }
        }
        return "";
    }

    private static String limit(double limit) {
        return plain(limit) + " ×";
    }

    private static String plain(double limit) {
        return java.math.BigDecimal.valueOf(limit).stripTrailingZeros().toPlainString();
    }
}
