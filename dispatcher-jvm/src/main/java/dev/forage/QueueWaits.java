package dev.forage;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The pool's queue-wait measurement ({@link QueueWaitHistogram}): picks one submission in
 * {@link QueueWaitHistogram#SAMPLE_EVERY} to carry its submission time, and counts its wait when a thread starts
 * it.
 *
 * <p>Why sampled, and why this way: a clock read costs about 20 ns, which on every submission would be a tenth of
 * a launch's whole cost. The pick uses the submitting thread's {@link ThreadLocalRandom} (its own seed: no shared
 * counter for submitters to contend on); a picked job is wrapped in a {@link Timed} that reads the clock twice and
 * adds one to a bucket, so an unpicked job costs one random number and nothing at all when it runs. The worker
 * needs no check: the wrapper times itself. The pool's own pushes (join halves, scope spawns, due timers) are not
 * wrapped: their identity matters to the code that pushed them, and they are forks, not submissions.
 *
 * <p>Why the count is a plain array under a lock: the wrapper runs for one job in 64, so in a pool that is not
 * busy (a service at a few hundred requests per second, the wake-up benchmarks' 5,000 samples) the JIT compiler
 * may never compile it, and it runs in the interpreter. There, with an {@code AtomicLongArray} update (a
 * {@code VarHandle} call on JDK 9 and later), the wrapper took about 30 µs from the worker's finding the job to
 * the job's first line, which put one job in 64 that much behind: the wake-up from outside's p98 to p99
 * (docs/benchmarks.md, "Wake-up latency, p99"; with this lock that step took 1.8 to 2.1 µs). An uncontended
 * {@code synchronized} block is one compare-and-swap to enter, compiled or not, and a record comes with one
 * submission in 64, so workers rarely meet on it; the lock also lets a snapshot take the counts and their total
 * together.
 */
final class QueueWaits {
    private final String pool;
    private final PoolEvents events;
    /** Guarded by itself, with {@link #totalNanos}. */
    private final long[] buckets = new long[QueueWaitHistogram.BUCKETS];
    private long totalNanos;

    QueueWaits(String pool, PoolEvents events) {
        this.pool = pool;
        this.events = events;
    }

    /** {@code job}, or the wrapper that times it (one call in {@link QueueWaitHistogram#SAMPLE_EVERY}). */
    Runnable sample(Runnable job) {
        if ((ThreadLocalRandom.current().nextInt() & (QueueWaitHistogram.SAMPLE_EVERY - 1)) != 0) {
            return job;
        }
        return new Timed(this, job, System.nanoTime(), events.queueWaitBegin());
    }

    /** The job a submission queued: {@code job} itself unless {@link #sample} wrapped it. */
    static Runnable untimed(Runnable job) {
        return job instanceof Timed ? ((Timed) job).job : job;
    }

    void record(long nanos) {
        int bucket = QueueWaitHistogram.bucket(nanos);
        synchronized (buckets) {
            buckets[bucket]++;
            totalNanos += Math.max(0, nanos);
        }
    }

    /** The counts and their total, taken together. */
    QueueWaitHistogram snapshot() {
        synchronized (buckets) {
            return new QueueWaitHistogram(buckets.clone(), totalNanos);
        }
    }

    /** A sampled job: counts its wait, then runs the job. */
    static final class Timed implements Runnable, TaskWrapper {
        private final QueueWaits waits;
        final Runnable job;
        private final long submittedAt;
        /** The JFR event begun at submission, or null while no recording wants it. */
        private final Object event;

        Timed(QueueWaits waits, Runnable job, long submittedAt, Object event) {
            this.waits = waits;
            this.job = job;
            this.submittedAt = submittedAt;
            this.event = event;
        }

        @Override
        public void run() {
            waits.record(System.nanoTime() - submittedAt);
            if (event != null) {
                waits.events.queueWaitEnd(event, waits.pool, job);
            }
            job.run();
        }

        @Override
        public Object wrappedTask() {
            return job;
        }

        @Override
        public String toString() {
            return job.toString();
        }
    }
}
