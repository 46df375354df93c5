package dev.forage;

import java.util.concurrent.ThreadLocalRandom;

/**
 * What a user's submission becomes before it is queued, decided once, when the pool is built: the task as it came,
 * the task through the pool's {@link ForageTaskDecorator}, the task with one submission in
 * {@link QueueWaitHistogram#SAMPLE_EVERY} wrapped to time its wait ({@link QueueWaits}), or both.
 *
 * <p>Which submissions are timed is decided here ({@link #picked}), so that the other 63 in 64 never leave this
 * file. Why sampled, and why this way: a clock read costs about 20 ns, which on every submission would be a tenth
 * of a launch's whole cost. A worker's submissions (launches, dispatches, {@code yield}) count down a gap of the
 * worker's own, drawn at random after each pick ({@link #nextGap}): one decrement of an owner-only field per
 * submission, where a random number per submission was 4 % of a one-worker {@code yield} loop's profile. The gap is
 * random so that no repeating pattern of submissions falls in step with the picks. Other threads' submissions use
 * the thread's {@link ThreadLocalRandom} (its own seed: no shared counter for submitters to contend on). The pool's
 * own pushes (join halves, scope spawns, due timers) are not admitted: their identity matters to the code that
 * pushed them, and they are forks, not submissions.
 *
 * <p>Why one object per pool, one class per combination: {@link #admit} is on every {@code execute} and every
 * dispatch from outside, and a pool should pay there only for what it was built with. A pool with no decorator and
 * sampling off hands the task on with no test for either. The call site in {@code Registry.admit} is shared by every
 * pool of the JVM: pools built alike (the usual case) show it one class, which the JIT inlines, and two kinds of
 * pool still inline both; three or more make it a virtual call, a few nanoseconds. The rarer paths
 * ({@link #decorate}, {@link #decorateCall}: timers, scopes, the blocking executor, structured calls from outside)
 * test the decorator where they need it.
 */
abstract class Admission {
    /** The builder's decorator, or null: submissions are queued as they are. */
    final ForageTaskDecorator decorator;
    /** The pool's name, for the message when the decorator returns null. */
    final String pool;

    private Admission(ForageTaskDecorator decorator, String pool) {
        this.decorator = decorator;
        this.pool = pool;
    }

    /**
     * The admission of a pool built with {@code decorator} (null: none) that samples queue waits into
     * {@code waits} (null: sampling off).
     */
    static Admission of(ForageTaskDecorator decorator, QueueWaits waits, String pool) {
        if (decorator == null) {
            return waits == null ? new AsSubmitted(pool) : new Sampled(waits, pool);
        }
        return waits == null ? new Decorated(decorator, pool) : new DecoratedAndSampled(decorator, waits, pool);
    }

    /**
     * Whether this submission is one the queue-wait histogram times: one in {@link QueueWaitHistogram#SAMPLE_EVERY}
     * on average. {@code submitter}: the calling thread's worker of this pool, whose countdown picks; null for any
     * other thread.
     */
    static boolean picked(Worker submitter) {
        if (submitter != null) {
            // "> 0", not "!= 0": a worker driven by callers in turn (CallerRunner) may see a countdown a racing
            // caller left at 0, and must not count down through the whole int range before its next pick.
            if (--submitter.untilQueueWaitSample > 0) {
                return false;
            }
            submitter.untilQueueWaitSample = nextGap();
            return true;
        }
        return (ThreadLocalRandom.current().nextInt() & (QueueWaitHistogram.SAMPLE_EVERY - 1)) == 0;
    }

    /**
     * Submissions until a worker's next pick, counting the picked one: uniform from 1 to
     * 2 × {@link QueueWaitHistogram#SAMPLE_EVERY} − 1, so one in {@link QueueWaitHistogram#SAMPLE_EVERY} on average,
     * and with no period for a pattern of submissions to keep step with.
     */
    static int nextGap() {
        return 1 + ThreadLocalRandom.current().nextInt(2 * QueueWaitHistogram.SAMPLE_EVERY - 1);
    }

    /**
     * A user's task as the pool queues it; on the submitting thread, before anything is queued, so the decorator's
     * exception is the submission's. {@code submitter}: the calling thread's worker of this pool, or null.
     */
    abstract Runnable admit(Runnable task, Worker submitter);

    /**
     * {@code task} through the decorator only: a timer's wait is its delay, not a queue's, and the blocking
     * executor's and a scope's jobs are not submissions the histogram counts.
     */
    final Runnable decorate(Runnable task) {
        return decorator == null ? task : DecoratedJob.of(decorator, task, pool);
    }

    /** A structured call from outside, {@code op}, run on a worker inside the decorator captured now. */
    final <T> Runner.WorkerOp<T> decorateCall(Runner.WorkerOp<T> op) {
        return decorator == null ? op : DecoratedOp.of(op, decorator, pool);
    }

    /** No decorator, sampling off: the task itself. */
    private static final class AsSubmitted extends Admission {
        AsSubmitted(String pool) {
            super(null, pool);
        }

        @Override
        Runnable admit(Runnable task, Worker submitter) {
            return task;
        }
    }

    /** No decorator, sampling on (the default). */
    private static final class Sampled extends Admission {
        private final QueueWaits waits;

        Sampled(QueueWaits waits, String pool) {
            super(null, pool);
            this.waits = waits;
        }

        @Override
        Runnable admit(Runnable task, Worker submitter) {
            return picked(submitter) ? waits.timed(task) : task;
        }
    }

    /** A decorator, sampling off. */
    private static final class Decorated extends Admission {
        Decorated(ForageTaskDecorator decorator, String pool) {
            super(decorator, pool);
        }

        @Override
        Runnable admit(Runnable task, Worker submitter) {
            return DecoratedJob.of(decorator, task, pool);
        }
    }

    /** A decorator, sampling on: the sample times the decorated job, as it waits in the queue. */
    private static final class DecoratedAndSampled extends Admission {
        private final QueueWaits waits;

        DecoratedAndSampled(ForageTaskDecorator decorator, QueueWaits waits, String pool) {
            super(decorator, pool);
            this.waits = waits;
        }

        @Override
        Runnable admit(Runnable task, Worker submitter) {
            Runnable job = DecoratedJob.of(decorator, task, pool);
            return picked(submitter) ? waits.timed(job) : job;
        }
    }
}
