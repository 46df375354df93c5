package dev.forage;

import java.util.concurrent.RejectedExecutionException;

/**
 * The pool's queue capacity and what a full queue does ({@link ForagePoolBuilder#queueCapacity},
 * {@link QueueFullPolicy}): the one place that sizes the queues from the user's bound and words the refusal.
 *
 * <p>The injector, which outside submissions fill, holds the bound itself: a pool with a bound below the default
 * checks it on every outside push (one read of the consumers' index), so it holds to within one job per thread
 * submitting at that moment, as {@code ForkJoinPool}'s bound does; the default 2^22 is checked once per block of
 * the injector, a bound against runaway producers rather than a setting. A worker's deque is a power-of-two ring,
 * so its bound is the user's rounded up to a power of two, at least 64: those are the pool's own forks, which a
 * smaller ring would refuse long before any outside submitter filled the injector.
 */
final class QueueBound {
    /** The smallest ring a worker's deque may have (its initial size). */
    static final int MIN_DEQUE_CAPACITY = 64;

    final int injectorCapacity;
    final int dequeCapacity;
    final QueueFullPolicy policy;

    QueueBound(int jobs, QueueFullPolicy policy) {
        this.injectorCapacity = jobs;
        this.dequeCapacity = Math.max(MIN_DEQUE_CAPACITY, jobs == 1 ? 1 : Integer.highestOneBit(jobs - 1) << 1);
        this.policy = policy;
    }

    /** {@link ForagePoolBuilder#queueCapacity}'s check: {@code jobs}, if from 1 to 2^22. */
    static int checkedCapacity(int jobs) {
        if (jobs < 1 || jobs > WorkDeque.DEFAULT_CAPACITY) {
            throw new IllegalArgumentException("queueCapacity must be from 1 to "
                    + WorkDeque.DEFAULT_CAPACITY + " (2^22) jobs, was " + jobs);
        }
        return jobs;
    }

    /**
     * The exception for a submission that a full queue refused ({@code ForkJoinPool}: "Queue capacity exceeded"):
     * the queue and its bound, the job named once ({@link TaskNames#brief}), and the two ways out. Worded for every
     * face: the setting names ({@code queueCapacity}, {@code whenQueueFull}) are the same in the Java builder and
     * the Kotlin DSL.
     */
    static RejectedExecutionException full(String pool, Object job, String queue, long capacity) {
        return new RejectedExecutionException("pool " + pool + ": queue capacity exceeded (" + queue + " holds "
                + capacity + " jobs), rejected " + TaskNames.brief(job) + "; allowed: a producer that waits for "
                + "its jobs, or whenQueueFull CALLER_RUNS");
    }
}
