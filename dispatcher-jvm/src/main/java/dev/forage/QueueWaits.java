package dev.forage;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

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
 */
final class QueueWaits {
    private final String pool;
    private final PoolEvents events;
    private final AtomicLongArray buckets = new AtomicLongArray(QueueWaitHistogram.BUCKETS);
    private final AtomicLong totalNanos = new AtomicLong();

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
        buckets.incrementAndGet(QueueWaitHistogram.bucket(nanos));
        totalNanos.addAndGet(Math.max(0, nanos));
    }

    QueueWaitHistogram snapshot() {
        long[] counts = new long[buckets.length()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = buckets.get(i);
        }
        return new QueueWaitHistogram(counts, totalNanos.get());
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
