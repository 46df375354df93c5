package dev.forage;

/**
 * Wraps each task handed to a pool, on the submitting thread at submission time, so that what that thread knows
 * (a logging MDC, a tracing context, a security context) is there again on the worker that runs the task; the
 * counterpart of Spring's {@code TaskDecorator}. Set it with {@link ForagePoolBuilder#taskDecorator}.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .taskDecorator(task -> {
 *             Map<String, String> captured = MDC.getCopyOfContextMap();   // on the submitting thread
 *             return () -> {                                              // on the worker
 *                 Map<String, String> previous = MDC.getCopyOfContextMap();
 *                 if (captured == null) MDC.clear(); else MDC.setContextMap(captured);
 *                 try {
 *                     task.run();
 *                 } finally {
 *                     if (previous == null) MDC.clear(); else MDC.setContextMap(previous);
 *                 }
 *             };
 *         })
 *         .build();
 * }</pre>
 *
 * <p>Ready-made decorators for SLF4J's MDC and OpenTelemetry's {@code Context}, and {@code TaskDecorators.compose}
 * to give a pool several, ship in the artifact {@code dev.forage:forage-context} (package
 * {@code dev.forage.context}; SLF4J and OpenTelemetry are its optional dependencies): {@code docs/integrations.md}.
 *
 * <h2>What is decorated</h2>
 * Every task that leaves the calling thread to run on the pool: {@link ForagePool#execute},
 * {@link ForagePool#executeFair}, {@link ForagePool#schedule}, the tasks of {@link ForagePool#blockingExecutor()},
 * the body of {@link ForagePool#scopeAsync} called from outside the pool, and {@link ForagePool#install},
 * {@link ForagePool#join} and {@link ForagePool#scope} called by a thread that is not one of the pool's workers
 * (the whole computation is decorated once). Everything built on those is decorated through them: an executor's
 * {@code execute}, {@code submit} and {@code schedule} (each periodic run is scheduled, so decorated, from inside
 * the previous one), a future's async stages, a Kotlin dispatcher's dispatches.
 *
 * <p>Not decorated: the structured work inside a job that is already running on the pool: {@code join} halves,
 * {@code scope} spawns, and {@code install}/{@code join}/{@code scope} called on one of the pool's own workers (they
 * run inline). That work belongs to the job that waits for it, whose own submission was decorated; decorating
 * each fork would put a capture and an allocation on the fork-join hot path, where a computation forks millions
 * of times. A half that another worker steals runs with that worker's context, not the forking job's: carry what
 * it needs in the computation itself.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@code decorate} runs on the submitting thread, before the task is queued. If it throws, the submission
 *       throws that exception and nothing is queued; if it returns null, the submission throws
 *       {@link NullPointerException} and nothing is queued.</li>
 *   <li>The returned {@code Runnable} must run the given task on the thread that calls it, before it returns, and
 *       let the task's exceptions through (the pool reports them as it reports an undecorated task's).</li>
 *   <li>Restore what the worker had before, rather than clearing it: a task may run on the thread that submitted
 *       it (a single-threaded pool runs its jobs on the threads that wait in it, an {@code install} from
 *       outside included).</li>
 *   <li>{@link ForagePool#shutdownNow()} returns the tasks as they were submitted, undecorated.</li>
 * </ul>
 */
@FunctionalInterface
public interface ForageTaskDecorator {
    /**
     * Returns the runnable that the pool runs instead of {@code task}: one that restores, around
     * {@code task.run()}, the context captured here.
     *
     * @param task the submitted task, never null
     * @return a runnable that runs {@code task}; never null
     */
    Runnable decorate(Runnable task);
}
