package dev.forage;

/**
 * What {@link ForagePool#execute} does with a job from a thread outside the pool when the pool's queue is full
 * ({@link ForagePoolBuilder#queueCapacity}), as a {@code ThreadPoolExecutor}'s rejection handler does:
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .queueCapacity(10_000)                          // jobs waiting for a worker
 *         .whenQueueFull(QueueFullPolicy.CALLER_RUNS)     // a producer that outruns the pool slows down
 *         .build();
 * }</pre>
 *
 * <p>Only these two: a policy that discards the job, or the oldest queued one, would drop work the pool accepted
 * or was handed without anyone being told. A submission from one of the pool's own workers is always
 * {@linkplain #REJECT rejected} when its queue is full, whatever the policy: running it on the worker instead
 * would turn a job that submits jobs into an unbounded recursion on the worker's stack. After shutdown every
 * submission is rejected, whatever the policy (a job running on the caller would outlive the pool's end).
 */
public enum QueueFullPolicy {
    /**
     * The submission throws {@link java.util.concurrent.RejectedExecutionException}, whose message names the pool
     * and the full queue; nothing was queued. The default, as for {@code ThreadPoolExecutor} and
     * {@code ForkJoinPool}.
     */
    REJECT,
    /**
     * The submitting thread runs the job itself, at once, before {@code execute} returns ({@code
     * ThreadPoolExecutor.CallerRunsPolicy}): a producer that outruns the pool spends its own time on the jobs
     * instead of queueing without end. The job is decorated as a queued one would be, and an exception it throws
     * goes to the pool's uncaught-exception handler, as on a worker, not to the caller. Applies to
     * {@link ForagePool#execute} from a thread outside the pool, and to what is built on it (an
     * {@code ExecutorService} facade's {@code submit}); {@link ForagePool#executeFair} rejects instead, since
     * running the job at once would put it ahead of every queued job, the opposite of what it asks.
     */
    CALLER_RUNS
}
