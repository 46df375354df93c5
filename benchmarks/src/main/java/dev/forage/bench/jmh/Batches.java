package dev.forage.bench.jmh;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The dispatch benchmarks' loop: submit a batch of empty jobs to an executor, from the calling thread (the
 * executor's outside path) or from one of its threads (its inside path, after one outside submission), and park
 * until the last job of the batch has run. The score of a batch, divided by its size, is the cost of one
 * dispatch with the job's run included.
 */
final class Batches {
    private final Executor target;
    private final AtomicInteger left = new AtomicInteger();
    private volatile Thread waiter;
    private final Runnable job = () -> {
        if (left.decrementAndGet() == 0) {
            LockSupport.unpark(waiter);
        }
    };

    Batches(Executor target) {
        this.target = target;
    }

    /** {@code jobs} submissions from the calling thread. */
    void fromOutside(int jobs) {
        waiter = Thread.currentThread();
        left.set(jobs);
        submit(jobs);
        awaitBatch();
    }

    /** A job that submits {@code jobs} jobs from the executor's thread: made once, for {@link #fromInside}. */
    Runnable batchOf(int jobs) {
        return () -> submit(jobs);
    }

    /** One submission from the calling thread: {@code batch}, from {@link #batchOf}, submits the jobs inside. */
    void fromInside(int jobs, Runnable batch) {
        waiter = Thread.currentThread();
        left.set(jobs);
        target.execute(batch);
        awaitBatch();
    }

    private void submit(int jobs) {
        for (int i = 0; i < jobs; i++) {
            target.execute(job);
        }
    }

    private void awaitBatch() {
        while (left.get() != 0) {
            LockSupport.park(this);
        }
    }
}
