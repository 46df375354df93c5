package dev.forage;

/**
 * The pool's queue-wait measurement ({@link QueueWaitHistogram}): a submission that {@link Admission} picked (one
 * in {@link QueueWaitHistogram#SAMPLE_EVERY}) carries its submission time in a {@link Timed} wrapper, which reads
 * the clock when a thread starts it and counts the wait once the job returns. An unpicked job costs nothing at all
 * when it runs: the worker needs no check, the wrapper times itself.
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

    /** {@code job} in the wrapper that times its wait, from now until a thread starts it. */
    Runnable timed(Runnable job) {
        return new Timed(this, job, System.nanoTime(), events.queueWaitBegin());
    }

    /** The job a submission queued: {@code job} itself unless it was {@link #timed}. */
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
