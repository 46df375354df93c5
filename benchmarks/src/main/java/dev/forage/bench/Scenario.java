package dev.forage.bench;

import java.util.List;

/**
 * One measurement of the comparison. A scenario runs inside a fresh JVM ({@link Child}) against one started
 * subject and adds its samples to {@link Results}. Every metric is "lower is better".
 */
public interface Scenario {
    /** Short id for the command line ({@code --scenarios}) and result lines, e.g. {@code fib-join}. */
    String id();

    /** A one-line title for tables. */
    String title();

    /** What is measured and how, in markdown, for docs/benchmarks.md. */
    String description();

    List<Metric> metrics();

    /** What a subject must support to run this scenario. */
    Subject.Capability needs();

    /** Worker count for this scenario, given the run's base count (the wide-pool scenarios use 8). */
    default int threads(int base) {
        return base;
    }

    /** The group the scenario belongs to in the table and the targets. */
    Group group();

    void run(Running subject, Budget budget, Results out) throws Exception;

    /** Scenario groups: how the targets read them. */
    enum Group {
        THROUGHPUT, LOW_LOAD, IDLE, WAKEUP
    }
}
