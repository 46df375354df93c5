package dev.forage;

import java.util.Arrays;

/**
 * How long jobs waited in the pool's queues, from submission ({@link ForagePool#execute},
 * {@link ForagePool#executeFair}, a coroutine dispatch, an {@code ExecutorService} facade's {@code submit}) to the
 * moment a thread started them: the figure to look at first when a pool falls behind. A snapshot, from
 * {@link PoolStatistics#queueWait()}; counts since the pool started, so the waits of an interval are the
 * difference of two snapshots:
 * <pre>{@code
 * QueueWaitHistogram before = pool.statistics().queueWait();
 * // ... a minute of traffic ...
 * QueueWaitHistogram lastMinute = pool.statistics().queueWait().since(before);
 * System.out.println("p99 queue wait " + lastMinute.percentileNanos(0.99) / 1000 + " us over "
 *         + lastMinute.samples() + " sampled jobs");
 * }</pre>
 *
 * <p>Sampled, so that it can stay on: one submitted job in {@value #SAMPLE_EVERY} on average (a worker counts down
 * a random gap of its own, another thread draws a random number) carries its submission time, and only those are counted, so {@link #samples()} is about a
 * {@value #SAMPLE_EVERY}th of the jobs run. The wait is the time from submission to the job's start, counted once
 * the job returns, so that counting never delays a job's start. Jobs a running job forks for itself ({@code join},
 * a scope's spawns) are not submissions and are not counted. Waits fall into buckets four to a power of two, so a percentile is the
 * upper end of its bucket: at most a quarter above the true wait, never below it. A pool built with
 * {@link ForagePoolBuilder#queueWaitSampling queueWaitSampling(false)} times nothing: its histogram stays empty.
 */
public final class QueueWaitHistogram {
    /** One submission in this many is timed. */
    public static final int SAMPLE_EVERY = 64;
    /** Waits of 2^40 ns (about 18 minutes) and more share the last bucket. */
    private static final int MAX_EXPONENT = 40;
    static final int BUCKETS = 4 * (MAX_EXPONENT - 1) + 4;

    private final long[] counts;
    private final long samples;
    private final long totalNanos;

    QueueWaitHistogram(long[] counts, long totalNanos) {
        this.counts = counts;
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        this.samples = n;
        this.totalNanos = totalNanos;
    }

    /** The bucket of a wait of {@code nanos}: four buckets to each power of two from 4 ns. */
    static int bucket(long nanos) {
        if (nanos < 4) {
            return nanos <= 0 ? 0 : (int) nanos;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(nanos);
        if (exponent > MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int sub = (int) (nanos >>> (exponent - 2)) & 3;
        return 4 * (exponent - 1) + sub;
    }

    /** The largest wait in bucket {@code index}. */
    static long upperBound(int index) {
        if (index < 4) {
            return index;
        }
        int exponent = index / 4 + 1;
        int sub = index % 4;
        return ((long) (4 + sub + 1) << (exponent - 2)) - 1;
    }

    /** Sampled jobs counted (about one in {@value #SAMPLE_EVERY} of the submitted jobs that started). */
    public long samples() {
        return samples;
    }

    /** The sum of the sampled jobs' waits, in nanoseconds. */
    public long totalNanos() {
        return totalNanos;
    }

    /** The mean wait in nanoseconds, or 0 with no samples. */
    public double meanNanos() {
        return samples == 0 ? 0 : (double) totalNanos / samples;
    }

    /**
     * The wait that a fraction {@code quantile} of the sampled jobs did not exceed, in nanoseconds: the upper end
     * of the bucket where that fraction is reached (at most a quarter above the true value). 0 with no samples.
     * For example {@code percentileNanos(0.99)}.
     *
     * @throws IllegalArgumentException if {@code quantile} is not within 0 to 1
     */
    public long percentileNanos(double quantile) {
        if (!(quantile >= 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be from 0 to 1 (0.99 for p99), was " + quantile);
        }
        if (samples == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * samples));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(counts.length - 1);
    }

    /** The longest sampled wait (the upper end of its bucket), or 0 with no samples. */
    public long maxNanos() {
        return percentileNanos(1.0);
    }

    /**
     * The waits counted after {@code earlier}, a snapshot of the same pool taken before this one.
     *
     * @throws NullPointerException if {@code earlier} is null
     */
    public QueueWaitHistogram since(QueueWaitHistogram earlier) {
        if (earlier == null) {
            throw new NullPointerException("QueueWaitHistogram.since: earlier must not be null");
        }
        long[] diff = new long[counts.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = Math.max(0, counts[i] - earlier.counts[i]);
        }
        return new QueueWaitHistogram(diff, Math.max(0, totalNanos - earlier.totalNanos));
    }

    /** For example {@code QueueWaitHistogram{samples=1562, p50<=2815ns, p99<=40959ns, max<=57343ns}}. */
    @Override
    public String toString() {
        return "QueueWaitHistogram{samples=" + samples + ", p50<=" + percentileNanos(0.5) + "ns, p99<="
                + percentileNanos(0.99) + "ns, max<=" + maxNanos() + "ns}";
    }

    long[] counts() {
        return Arrays.copyOf(counts, counts.length);
    }
}
