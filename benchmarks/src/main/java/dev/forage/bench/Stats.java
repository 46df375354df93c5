package dev.forage.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Median, min and max of a sample, and how results are printed. */
public final class Stats {
    public final double median;
    public final double min;
    public final double max;
    public final int n;

    private Stats(double median, double min, double max, int n) {
        this.median = median;
        this.min = min;
        this.max = max;
        this.n = n;
    }

    /** @throws IllegalArgumentException for an empty sample or a NaN value */
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values: a summary needs at least one sample");
        }
        List<Double> sorted = new ArrayList<>(values);
        for (double v : sorted) {
            if (Double.isNaN(v)) {
                throw new IllegalArgumentException("NaN in sample " + values);
            }
        }
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
    }

    /**
     * {@code value / reference}, or NaN when the reference is 0 (an idle pool that burns nothing has no ratio).
     */
    public static double ratio(double value, double reference) {
        if (reference == 0) {
            return Double.NaN;
        }
        return value / reference;
    }

    /** Three significant digits, no exponent: 1234 → "1234", 1.234 → "1.23", 0.01234 → "0.0123". */
    public static String format(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : Math.min(6, 2 - (int) Math.floor(Math.log10(a)));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    @Override
    public String toString() {
        return format(median) + " (" + format(min) + "–" + format(max) + ", n=" + n + ")";
    }
}
