package dev.forage.bench.scenario;

import dev.forage.bench.Budget;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Wake-up latency: the time from {@code execute} to the first instruction of the job, with idle gaps so that
 * the workers are asleep when the job arrives. From outside: a foreign thread submits. From inside: a job on one
 * worker submits and then keeps its worker busy, so another, sleeping, worker has to wake up and take it.
 */
public final class WakeupLatency implements Scenario {
    /** Gap between wake-ups: long enough for every subject's workers to be parked. */
    public static final long GAP_NANOS = TimeUnit.MICROSECONDS.toNanos(1000);
    /**
     * Gap between the unrecorded wake-ups of {@link Budget#wakeupCompileSamples}: still long enough for the
     * workers to park (a Forage pool of 2 counted one sleep per sample at a 100 µs gap), short enough that
     * 10,000 of them take about 3 s.
     */
    public static final long COMPILE_GAP_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /**
     * The inside trigger first works (spins) for a random time below this, then submits. Without it the submit
     * came a fixed few microseconds after the trigger's worker woke, which on this 2-vCPU machine is also a few
     * microseconds after the measuring thread parked on the other CPU, and the latency then depended on that
     * phase more than on the pool: at a 0 µs delay a fixed pool woke its second thread in 6.6 µs (p50) and
     * Forage and ForkJoinPool in about 25 µs; at 100 µs Forage in 5.2 µs and the fixed pool in 30.5 µs
     * (docs/benchmarks.md, "`wakeup-inside` averages over the phase of the wake-up"). A uniform delay
     * averages over the phase.
     */
    public static final long INSIDE_MAX_WORK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** A wake-up this long or longer counts in the run details' millisecond tail. */
    static final long LONG_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The {@link Results} info key of that count: "n of m" samples of the timed windows. */
    public static final String OVER_ONE_MILLI_KEY = "wakeupsOver1ms";
    /**
     * The {@link Results} info key, from outside only: the median time from the moment the submitter's
     * {@code execute} returned to the job's first instruction, in µs, over the timed windows (negative: the job
     * started before {@code execute} returned). It splits the latency into the submitter's call, which ends with
     * the pool's {@code unpark}, and what the woken worker does before it runs the job.
     */
    public static final String START_AFTER_RETURN_KEY = "jobStartAfterExecuteReturned";
    /**
     * The {@link Results} info key, from outside only: the share of samples, in per cent, whose job started before
     * the submitter's {@code execute} returned. On one CPU that is a woken worker that preempted the submitter in
     * its {@code unpark}; otherwise the worker waited until the submitter parked. The two ways differ by several
     * microseconds, and the scheduler's choice between them sets where the median falls.
     */
    public static final String STARTED_BEFORE_RETURN_KEY = "jobStartedBeforeExecuteReturned";
    /** The inside submitter spins at most this long waiting for another worker to take the job. */
    public static final long INSIDE_SPIN_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final boolean inside;

    public WakeupLatency(boolean inside) {
        this.inside = inside;
    }

    @Override
    public String id() {
        return inside ? "wakeup-inside" : "wakeup-outside";
    }

    @Override
    public String title() {
        return inside ? "wake-up latency from inside" : "wake-up latency from outside";
    }

    @Override
    public String description() {
        return inside
                ? "A job on a worker first works (spins) for a random 0 to 200 µs, so that the wake-up does not "
                        + "always come at the same moment after the other threads parked, then records the time, "
                        + "calls `execute(job2)` and spins (up to 5 ms) until job2 starts, so job2 must be taken by "
                        + "another worker, which is asleep: the latency is from the `execute` call to job2's first "
                        + "instruction. Then 0.8 to 1.2 ms idle before the next sample. p50 and p99 in µs "
                        + "(HdrHistogram, 3 significant digits)."
                : "A thread outside the pool records the time and calls `execute(job)`; the job reads the clock "
                        + "first thing. Between samples the submitter waits until the job ran and then 0.8 to 1.2 ms "
                        + "more, so the workers are asleep when the next job arrives. p50 and p99 in µs "
                        + "(HdrHistogram, 3 significant digits).";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(new Metric("p50", "µs", "p50"), new Metric("p99", "µs", "p99"));
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.EXECUTOR;
    }

    @Override
    public Group group() {
        return Group.WAKEUP;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        Executor ex = subject.executor();
        SplittableRandom random = new SplittableRandom(42);
        Probe probe = new Probe(ex, inside, Thread.currentThread());
        // Warm-up: same loop, not recorded; first the budget's compile samples at a short gap, so that C2 compiles
        // the path, then at the measured gap.
        Histogram warm = newHistogram();
        for (int i = 0; i < budget.wakeupCompileSamples; i++) {
            sample(probe, random, warm, COMPILE_GAP_NANOS);
        }
        long warmEnd = System.nanoTime() + Math.min(budget.warmupNanos, TimeUnit.MILLISECONDS.toNanos(500));
        int warmSamples = 0;
        while (warmSamples < budget.size(100, 5) || System.nanoTime() - warmEnd < 0) {
            sample(probe, random, warm, GAP_NANOS);
            warmSamples++;
        }
        long overOneMilli = 0;
        long samples = 0;
        long[] afterReturn = new long[budget.windows * budget.wakeupsPerWindow];
        for (int w = 0; w < budget.windows; w++) {
            Histogram h = newHistogram();
            for (int i = 0; i < budget.wakeupsPerWindow; i++) {
                sample(probe, random, h, GAP_NANOS);
                afterReturn[w * budget.wakeupsPerWindow + i] = probe.afterReturn;
            }
            out.add("p50", h.getValueAtPercentile(50) / 1e3);
            out.add("p99", h.getValueAtPercentile(99) / 1e3);
            out.addHistogram("latency", h);
            if (h.getMaxValue() >= LONG_NANOS) {
                overOneMilli += h.getCountBetweenValues(LONG_NANOS, h.getMaxValue());
            }
            samples += h.getTotalCount();
        }
        out.info("strandedInside", probe.stranded);
        if (!inside && afterReturn.length > 0) {
            Arrays.sort(afterReturn);
            out.info(START_AFTER_RETURN_KEY, String.format(Locale.ROOT, "%.1f",
                    afterReturn[afterReturn.length / 2] / 1e3));
            int before = 0;
            while (before < afterReturn.length && afterReturn[before] < 0) {
                before++;
            }
            out.info(STARTED_BEFORE_RETURN_KEY,
                    String.format(Locale.ROOT, "%.0f", 100.0 * before / afterReturn.length));
        }
        // The millisecond tail, counted for every subject: whether a pool meets it more often than the others.
        out.info(OVER_ONE_MILLI_KEY, overOneMilli + " of " + samples);
    }

    static Histogram newHistogram() {
        return new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    }

    /** One sample after an idle gap of {@code meanGap} ± 20 %. */
    private static void sample(Probe probe, SplittableRandom random, Histogram h, long meanGap) {
        idle(random, meanGap);
        long work = probe.inside ? random.nextLong(INSIDE_MAX_WORK_NANOS) : 0L;
        h.recordValue(Math.max(probe.once(work), 0));
    }

    /**
     * The submitter's idle gap before a sample: parked for {@code meanGap} ± 20 %, drawn from {@code random}. Also
     * the gap of {@code SchedTrace}, which traces this scenario's loop.
     */
    public static void idle(SplittableRandom random, long meanGap) {
        long gap = meanGap * 4 / 5 + random.nextLong(meanGap * 2 / 5);
        long until = System.nanoTime() + gap;
        long now;
        while ((now = System.nanoTime()) - until < 0) {
            LockSupport.parkNanos(until - now);
        }
    }

    /** The submitted job; reused, one sample at a time. */
    private static final class Probe implements Runnable {
        private final Executor ex;
        private final boolean inside;
        private final Thread waiter;
        private final Runnable target = this::started;
        private volatile long t0;
        /** How long the inside trigger works before it submits; written before the trigger is submitted. */
        private volatile long workNanos;
        private volatile long latency;
        /** From outside: when the submitter's {@code execute} returned (the submitter's own field). */
        private long returnedAt;
        /** From outside, the last sample's: the job's start less {@link #returnedAt}. */
        long afterReturn;
        private volatile boolean done;
        /** Inside samples where no other worker took the job within the spin limit. Written by the trigger. */
        volatile long stranded;

        Probe(Executor ex, boolean inside, Thread waiter) {
            this.ex = ex;
            this.inside = inside;
            this.waiter = waiter;
        }

        /**
         * One sample: submits and waits (parked) until the job started; returns its latency in ns. {@code work}:
         * how long the inside trigger works before it submits (unused from outside).
         */
        long once(long work) {
            done = false;
            workNanos = work;
            if (inside) {
                ex.execute(this); // the trigger: it submits the target from inside
            } else {
                t0 = System.nanoTime();
                ex.execute(target);
                returnedAt = System.nanoTime();
            }
            while (!done) {
                LockSupport.park(this);
            }
            long l = latency;
            afterReturn = t0 + l - returnedAt;
            return l;
        }

        /** The inside trigger, running on a worker. */
        @Override
        public void run() {
            long workStart = System.nanoTime();
            long work = workNanos;
            while (System.nanoTime() - workStart < work) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            t0 = start;
            ex.execute(target);
            while (!done) {
                if (System.nanoTime() - start > INSIDE_SPIN_LIMIT_NANOS) {
                    stranded++;
                    return; // this worker will run the target itself once we return
                }
                Thread.onSpinWait();
            }
        }

        private void started() {
            latency = System.nanoTime() - t0;
            done = true;
            LockSupport.unpark(waiter);
        }
    }
}
