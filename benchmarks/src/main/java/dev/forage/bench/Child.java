package dev.forage.bench;

import dev.forage.ForagePool;
import dev.forage.PoolStatistics;
import dev.forage.bench.scenario.Scenarios;

/**
 * The measuring side: runs one scenario against one subject in this (fresh) JVM and prints the results as
 * {@link ResultLine}s on stdout. {@link Compare} launches it; run it by hand to debug one measurement:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.Child fib-join forkjoin 2 quick
 * </pre>
 * Exit status 0 on success; on failure the stack trace goes to stderr and the status is 1.
 */
public final class Child {
    private Child() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: Child <scenario> <subject> <threads> <quick|full|tiny>");
            System.exit(2);
        }
        try {
            Scenario scenario = Scenarios.byId(args[0]);
            Subject subject = Subjects.byId(args[1]);
            int threads = Integer.parseInt(args[2]);
            Budget budget = Budget.byName(args[3]);
            // The machine's placement of its cores before and after (CoreRoundTrip): it can move in between.
            long roundTripBefore = CoreRoundTrip.measureNanos();
            Results results = run(scenario, subject, threads, budget);
            results.info(CoreRoundTrip.INFO_KEY, roundTripBefore + "/" + CoreRoundTrip.measureNanos());
            int actual = Integer.parseInt(results.info().get("threads"));
            if (actual != threads) {
                throw new IllegalStateException(subject.id() + " ran with " + actual + " workers instead of " + threads
                        + "; a shared scheduler is sized by JVM flags: " + String.join(" ", Subject.sizingFlags(threads)));
            }
            results.info("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
            results.print(System.out, scenario.id(), subject.id(), threads);
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }

    /** Runs one measurement in the calling JVM (also used by the smoke test). */
    public static Results run(Scenario scenario, Subject subject, int threads, Budget budget) throws Exception {
        if (!subject.capabilities().contains(scenario.needs())) {
            throw new IllegalArgumentException("subject " + subject.id() + " cannot run scenario " + scenario.id()
                    + " (it needs " + scenario.needs() + "; the subject has " + subject.capabilities() + ")");
        }
        Results results = new Results();
        try (Running running = subject.open(threads)) {
            ForagePool pool = running.foragePool();
            PoolStatistics before = null;
            PoolStatistics[] atTiming = new PoolStatistics[2];
            if (pool != null) {
                before = pool.statistics();
                results.onTimingStart(() -> atTiming[0] = pool.statistics());
                results.onTimingEnd(() -> atTiming[1] = pool.statistics());
            }
            scenario.run(running, budget, results);
            results.info("threads", running.threads());
            if (pool != null) {
                // Forage's own counters: why a number is what it is. Over the whole scenario, and, for a
                // scenario with a timed part, over that part alone (a warm-up may hold most of the steals).
                PoolStatistics after = pool.statistics();
                results.info("forageStats", statsText(before, after));
                if (atTiming[0] != null) {
                    // Every timed part that starts also ends, before any untimed pass after it.
                    results.info("forageStatsTimed", statsText(atTiming[0], atTiming[1]));
                }
            }
        }
        return results;
    }

    /** The difference of two snapshots of Forage's counters, as the run details show it. */
    static String statsText(PoolStatistics before, PoolStatistics after) {
        return "jobs " + (after.jobsRun() - before.jobsRun())
                + ", steals " + (after.steals() - before.steals())
                + ", sleeps " + (after.sleeps() - before.sleeps())
                + ", wake-ups " + (after.wakeups() - before.wakeups())
                + " (" + (after.wakeupsWithoutWork() - before.wakeupsWithoutWork()) + " found no work)"
                + ", naps " + (after.naps() - before.naps());
    }
}
