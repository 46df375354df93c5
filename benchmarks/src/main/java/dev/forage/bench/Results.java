package dev.forage.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one (scenario, subject) run in one JVM measured: samples per metric, optional latency histograms, and
 * informational key/values. {@link #print} writes them as {@link ResultLine}s for the parent process.
 */
public final class Results {
    private final Map<String, List<Double>> samples = new LinkedHashMap<>();
    private final Map<String, Histogram> histograms = new LinkedHashMap<>();
    private final Map<String, String> info = new LinkedHashMap<>();
    /** Run once when the timed part of a scenario starts ({@link #timingStarts}); may be null. */
    private Runnable onTimingStart;
    /** Run once when it ends ({@link #timingEnds}), before any untimed pass that adds to the run details. */
    private Runnable onTimingEnd;

    public void add(String metric, double value) {
        samples.computeIfAbsent(metric, k -> new ArrayList<>()).add(value);
    }

    /** Merges {@code h} into the histogram kept for {@code metric} (for the latency charts). */
    public void addHistogram(String name, Histogram h) {
        Histogram mine = histograms.get(name);
        if (mine == null) {
            histograms.put(name, h.copy());
        } else {
            mine.add(h);
        }
    }

    /**
     * Sets what runs when the timed part starts: the measuring JVM snapshots the pool's statistics there, so the
     * run details can tell what the pool did while timed from what the warm-up did (JIT-compiled code schedules
     * differently from interpreted code; a warm-up can hold most of a run's steals and sleeps).
     */
    void onTimingStart(Runnable hook) {
        this.onTimingStart = hook;
    }

    /**
     * Sets what runs when the timed part ends: the measuring JVM's second snapshot of the pool's statistics, so
     * that an untimed pass after it (the yield turns, the launch loop's split) does not count as timed.
     */
    void onTimingEnd(Runnable hook) {
        this.onTimingEnd = hook;
    }

    /**
     * Called right before the first timed operation ({@link Measure} does, and a scenario that times its own windows
     * calls it itself); runs the hook once.
     */
    public void timingStarts() {
        Runnable hook = onTimingStart;
        onTimingStart = null;
        if (hook != null) {
            hook.run();
        }
    }

    /** Called right after the last timed operation, as {@link #timingStarts} is; runs the hook once. */
    public void timingEnds() {
        Runnable hook = onTimingEnd;
        onTimingEnd = null;
        if (hook != null) {
            hook.run();
        }
    }

    public void info(String key, Object value) {
        info.put(key, String.valueOf(value));
    }

    public Map<String, List<Double>> samples() {
        return samples;
    }

    public Map<String, Histogram> histograms() {
        return histograms;
    }

    public Map<String, String> info() {
        return info;
    }

    void print(PrintStream out, String scenario, String subject, int threads) {
        for (Map.Entry<String, List<Double>> e : samples.entrySet()) {
            out.println(ResultLine.result(scenario, subject, threads, e.getKey(), e.getValue()).format());
        }
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            out.println(ResultLine.histogram(scenario, subject, threads, e.getKey(), e.getValue()).format());
        }
        for (Map.Entry<String, String> e : info.entrySet()) {
            out.println(ResultLine.info(scenario, subject, threads, e.getKey(), e.getValue()).format());
        }
        out.flush();
    }
}
