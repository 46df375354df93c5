package dev.forage;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The pool's queue-wait measurement ({@link QueueWaitHistogram}): picks one submission in
 * {@link QueueWaitHistogram#SAMPLE_EVERY} to carry its submission time, reads the clock when a thread starts it,
 * and counts the wait once the job returns.
 *
 * <p>Why sampled, and why this way: a clock read costs about 20 ns, which on every submission would be a tenth of
 * a launch's whole cost. A worker's submissions (launches, dispatches, {@code yield}) count down a gap of the
 * worker's own, drawn at random after each pick ({@link #nextGap}): one decrement of an owner-only field per
 * submission, where a random number per submission was 4 % of a one-worker {@code yield} loop's profile. The gap is
 * random so that no repeating pattern of submissions falls in step with the picks. Other threads' submissions use
 * the thread's {@link ThreadLocalRandom} (its own seed: no shared counter for submitters to contend on). A picked
 * job is wrapped in a {@link Timed} that reads the clock twice and adds one to a bucket, so an unpicked job costs
 * nothing at all when it runs: the worker needs no check, the wrapper times itself. The pool's own pushes (join
 * halves, scope spawns, due timers) are not wrapped: their identity matters to the code that pushed them, and they
 * are forks, not submissions.
 *
 * <p>Why a sampled job's wait is counted after it returns, with the time read before it starts: the wrapper runs
 * for one job in 64, so in a pool that is not busy (a service at a few hundred requests per second, the wake-up
 * benchmarks' 5,000 samples) the JIT compiler may never compile it, and it runs in the interpreter, on a worker
 * just woken, whose caches the sleep left cold. Counting there, before the job, put up to 14 µs between the
 * worker's finding the job and the job's first line, for one job in 64: the wake-up from outside's p98 to p99
 * (docs/notes/benchmark-runs.md, "The wake-up tail: counting after the job"). Before the job the wrapper reads the
 * clock and nothing more; a snapshot taken while a sampled job runs does not have its wait yet.
 *
 * <p>Why the count is a plain array under a lock: uncompiled, an {@code AtomicLongArray} update is a
 * {@code VarHandle} call on JDK 9 and later, which cost about 30 µs; an uncontended {@code synchronized} block is
 * one compare-and-swap to enter, compiled or not, and a record comes with one submission in 64, so workers rarely
 * meet on it. The lock also lets a snapshot take the counts and their total together.
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

    /**
     * {@code job}, or the wrapper that times it (one call in {@link QueueWaitHistogram#SAMPLE_EVERY} on average).
     * {@code submitter}: the calling thread's worker of this pool, whose countdown picks; null for any other thread.
     */
    Runnable sample(Runnable job, Worker submitter) {
        if (submitter != null) {
            // "> 0", not "!= 0": a worker driven by callers in turn (CallerRunner) may see a countdown a racing
            // caller left at 0, and must not count down through the whole int range before its next pick.
            if (--submitter.untilQueueWaitSample > 0) {
                return job;
            }
            submitter.untilQueueWaitSample = nextGap();
        } else if ((ThreadLocalRandom.current().nextInt() & (QueueWaitHistogram.SAMPLE_EVERY - 1)) != 0) {
            return job;
        }
        return new Timed(this, job, System.nanoTime(), events.queueWaitBegin());
    }

    /**
     * Submissions until a worker's next pick, counting the picked one: uniform from 1 to
     * 2 × {@link QueueWaitHistogram#SAMPLE_EVERY} − 1, so one in {@link QueueWaitHistogram#SAMPLE_EVERY} on average,
     * and with no period for a pattern of submissions to keep step with.
     */
    static int nextGap() {
        return 1 + ThreadLocalRandom.current().nextInt(2 * QueueWaitHistogram.SAMPLE_EVERY - 1);
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

    /** A sampled job: reads the clock, runs the job, then counts the wait it had before it started. */
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
            long startedAt = System.nanoTime();
            if (event != null) {
                waits.events.queueWaitEnd(event, waits.pool, job); // a recording is on: its event ends now
            }
            try {
                job.run();
            } finally {
                waits.record(startedAt - submittedAt);
            }
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
