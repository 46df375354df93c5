package dev.forage.bench;

/** One number a scenario reports, e.g. time per operation in ms. Lower is better for every metric here. */
public final class Metric {
    private final String id;
    private final String unit;
    private final String label;

    public Metric(String id, String unit, String label) {
        this.id = id;
        this.unit = unit;
        this.label = label;
    }

    /** Short id used in result lines, e.g. {@code p99}. */
    public String id() {
        return id;
    }

    /** Unit shown in tables, e.g. {@code ms}. */
    public String unit() {
        return unit;
    }

    /** What it is, for tables, e.g. {@code time per op}. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return id;
    }
}
