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
     * An outside submitter's job that the full injector refused ({@link Registry#execute}): run on the calling
     * thread under {@link QueueFullPolicy#CALLER_RUNS}, its exception to the pool's handler as on a worker; else
     * the refusal. Once shutdown has begun (its bit is set, the injector may still be open) it is refused under
     * either policy: a job runs on its caller only if its {@code execute} came before the shutdown. Such a job is
     * the caller's, not the pool's: termination does not wait for it (as with {@code ThreadPoolExecutor}'s
     * {@code CallerRunsPolicy}, which drops the job after shutdown where this pool refuses it).
     */
    void refusedFromOutside(Registry registry, Runnable job) {
        refusedFromOutside(registry, job, "the injector");
    }

    /**
     * {@link #refusedFromOutside(Registry, Runnable)} for a job that the full {@code queue} (which holds
     * {@link #injectorCapacity} jobs, as the injector does) refused: the blocking executor's queue, whose tasks come
     * from outside and from workers alike, takes the same bound and policy.
     */
    void refusedFromOutside(Registry registry, Runnable job, String queue) {
        if (policy != QueueFullPolicy.CALLER_RUNS) {
            throw full(registry.name, job, queue, injectorCapacity);
        }
        if (registry.isShutdown()) {
            throw registry.rejected(job); // between the shutdown bit and the injector's close
        }
        try {
            job.run();
        } catch (Throwable e) {
            registry.handleUncaught(Thread.currentThread(), e);
        }
    }

    /** The exception for a submission that a full queue refused ({@code ForkJoinPool}: "Queue capacity exceeded"). */
    static RejectedExecutionException full(String pool, Object job, String queue, long capacity) {
        return new RejectedExecutionException("pool " + pool + ": queue capacity exceeded (" + queue + " holds "
                + capacity + " jobs); rejected " + job + ". Jobs are submitted faster than the pool runs them: "
                + "bound the producer (wait for what it submitted, a semaphore, a limitedParallelism view), or "
                + "build the pool with whenQueueFull(QueueFullPolicy.CALLER_RUNS) so that outside submitters run "
                + "their own jobs while the queue is full");
    }
}
