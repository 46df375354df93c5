package dev.forage;

/**
 * A job that somebody waits for: the second half of a {@code join}, an {@code install}'s body, a job spawned into a
 * scope. Whatever escapes its {@link #run()}, or keeps it from starting (a {@link StackOverflowError} at the call,
 * an {@link OutOfMemoryError} in the library's own bookkeeping around it), the worker that took it calls
 * {@link #abandon}, so the failure is recorded and the waiter released instead of left waiting forever.
 *
 * <p>{@code abandon} may itself run out of stack, since it runs about as deep as the failure struck. The worker
 * then keeps the job on its list of unsettled jobs, through {@link #nextUnsettled} (a field write, which needs no
 * stack), and calls {@code abandon} again from a shallower frame ({@code Worker.runJob}). So {@code abandon} must
 * be idempotent: it finishes whatever part of the job's completion has not happened, and repeats nothing that
 * has.
 */
abstract class WaitedJob implements Runnable {
    /** The worker's list of unsettled jobs, newest first; owner thread of that worker only. */
    WaitedJob nextUnsettled;
    /** What escaped {@link #run()}, while this job is on a worker's unsettled list. */
    Throwable unsettledCause;

    /**
     * {@code cause} escaped {@link #run()} or kept it from starting: completes the job with it as its failure if
     * the job has no outcome yet, and releases the waiter even if {@code run()} got part of the way. Returns
     * whether {@code cause} became the job's failure; otherwise it came from releasing the waiter after the job
     * had its outcome (a listener that threw, say), and the worker reports it to the pool's handler.
     */
    abstract boolean abandon(Throwable cause);
}
