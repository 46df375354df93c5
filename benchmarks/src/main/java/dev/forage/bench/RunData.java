package dev.forage.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Everything the runner collected from its child JVMs, keyed by scenario, subject and metric. */
public final class RunData {
    private final Map<String, List<Double>> samples = new LinkedHashMap<>();
    /** Per key, the median of each fork's samples: one RESULT line is one fork's. */
    private final Map<String, List<Double>> forkMedians = new LinkedHashMap<>();
    private final Map<String, Histogram> histograms = new LinkedHashMap<>();
    private final Map<String, List<String>> info = new LinkedHashMap<>();
    private final Map<String, String> failures = new LinkedHashMap<>();
    /** Per (scenario, subject), what other processes used during each of its runs, in the order they ran. */
    private final Map<String, List<Interference.Run>> interference = new LinkedHashMap<>();

    private static String key(String scenario, String subject, String metric) {
        return scenario + '\u0000' + subject + '\u0000' + metric;
    }

    public void add(ResultLine line) {
        String k = key(line.scenario, line.subject, line.key);
        switch (line.type) {
            case RESULT:
                samples.computeIfAbsent(k, x -> new ArrayList<>()).addAll(line.values);
                forkMedians.computeIfAbsent(k, x -> new ArrayList<>()).add(Stats.of(line.values).median);
                break;
            case HIST: {
                Histogram h = line.decodeHistogram();
                Histogram mine = histograms.get(k);
                if (mine == null) {
                    histograms.put(k, h);
                } else {
                    mine.add(h);
                }
                break;
            }
            case INFO:
                info.computeIfAbsent(k, x -> new ArrayList<>()).add(line.value);
                break;
            default:
                throw new AssertionError(line.type);
        }
    }

    public void fail(String scenario, String subject, String why) {
        failures.put(key(scenario, subject, ""), why);
    }

    /** Why the (scenario, subject) run failed, or null. */
    public String failure(String scenario, String subject) {
        return failures.get(key(scenario, subject, ""));
    }

    /** Records one run's interference (one fork of the cell, after its reruns). */
    public void interference(String scenario, String subject, Interference.Run run) {
        interference.computeIfAbsent(key(scenario, subject, ""), x -> new ArrayList<>()).add(run);
    }

    /** The interference of every run of the (scenario, subject), in order (empty if none was recorded). */
    public List<Interference.Run> interference(String scenario, String subject) {
        return interference.getOrDefault(key(scenario, subject, ""), List.of());
    }

    /** Every cell's runs, one list per (scenario, subject) that recorded any. */
    public java.util.Collection<List<Interference.Run>> interferenceByCell() {
        return interference.values();
    }

    /**
     * Whether any run of the (scenario, subject) stayed disturbed after its reruns: its numbers are not the
     * subject's alone.
     */
    public boolean disturbed(String scenario, String subject) {
        for (Interference.Run r : interference(scenario, subject)) {
            if (r.disturbed()) {
                return true;
            }
        }
        return false;
    }

    public int failureCount() {
        return failures.size();
    }

    /** The summary of a metric, or null when nothing was measured. */
    public Stats stats(String scenario, String subject, String metric) {
        List<Double> v = samples.get(key(scenario, subject, metric));
        return v == null || v.isEmpty() ? null : Stats.of(v);
    }

    /**
     * The spread across forks: min and max (and median) of the per-fork medians, or null when nothing was
     * measured. A row whose forks fall into two compiled shapes shows it here, where the pooled median hides it.
     */
    public Stats forkSpread(String scenario, String subject, String metric) {
        List<Double> v = forkMedians.get(key(scenario, subject, metric));
        return v == null || v.isEmpty() ? null : Stats.of(v);
    }

    /** The merged histogram of every fork, or null. */
    public Histogram histogram(String scenario, String subject, String name) {
        return histograms.get(key(scenario, subject, name));
    }

    /** Informational values from every fork, in order (empty if none). */
    public List<String> info(String scenario, String subject, String k) {
        return info.getOrDefault(key(scenario, subject, k), List.of());
    }

    /** The first informational value of that key from any (scenario, subject), or null. */
    public String anyInfo(String k) {
        for (Map.Entry<String, List<String>> e : info.entrySet()) {
            if (e.getKey().endsWith('\u0000' + k) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    /**
     * The anchor (non-Forage subject) with the lowest median for this metric, or null when no anchor was
     * measured.
     */
    public Subject bestAnchor(String scenario, String metric, List<Subject> subjects) {
        Subject best = null;
        double bestMedian = Double.POSITIVE_INFINITY;
        for (Subject s : subjects) {
            if (s.isForage()) {
                continue;
            }
            Stats st = stats(scenario, s.id(), metric);
            if (st != null && st.median < bestMedian) {
                best = s;
                bestMedian = st.median;
            }
        }
        return best;
    }
}
