/**
 * Forage: a work-stealing thread pool whose workers sleep and wake by Rayon's jobs-event-counter protocol, for Java
 * and Kotlin. Start at {@link ForagePool}; build one with {@link ForagePool#builder()}.
 *
 * <h2>Failures</h2>
 * A job's exception reaches whoever waits for it ({@code join}, {@code scope}, {@code install}), unchanged and
 * only after its sibling jobs finished. A fire-and-forget job's exception goes to the pool's
 * {@linkplain ForagePoolBuilder#uncaughtExceptionHandler uncaught-exception handler}. No user exception ever
 * kills a worker.
 *
 * <h2>Shutdown</h2>
 * {@link ForagePool#shutdown()} (or {@link ForagePool#close()}, which also waits) rejects new submissions with
 * {@link java.util.concurrent.RejectedExecutionException}, from outside and from the pool's own workers alike, so a job that
 * resubmits itself cannot keep the pool alive; every job accepted before it still runs, with the {@code join}s
 * and scope spawns it waits for. Pending timers still fire at their deadlines; {@link ForagePool#shutdownNow()} cancels them
 * and returns the never-started jobs. See {@code docs/lifecycle.md}.
 *
 * <h2>Idle threads and queue capacity</h2>
 * A worker thread idle for the {@linkplain ForagePoolBuilder#keepAlive keep-alive} (60 seconds) ends, and the
 * next job starts it again, so an idle pool holds no threads. The pool's queue holds at most
 * {@linkplain ForagePoolBuilder#queueCapacity its capacity} (2^22 jobs unless you choose fewer); a submission to a
 * full queue throws {@link java.util.concurrent.RejectedExecutionException} ("queue capacity exceeded"), or, from outside the pool
 * under {@link QueueFullPolicy#CALLER_RUNS}, runs on its caller.
 *
 * <h2>Run-time parallelism</h2>
 * {@link ForagePool#setParallelism} changes the number of worker threads while the pool runs, up to the
 * {@linkplain ForagePoolBuilder#maxParallelism maximum} fixed at build: workers it removes finish their current job
 * and leave, workers it adds start at once. See {@code docs/lifecycle.md}.
 *
 * <h2>Single-threaded pools</h2>
 * A pool built with {@link ForagePoolBuilder#singleThreaded()} has no worker threads (marl's single-threaded
 * mode). Its jobs run on a thread that waits in the pool: {@link ForagePool#join}, {@link ForagePool#scope} and {@link ForagePool#install}
 * called from outside run the pool's queued jobs on the calling thread, in submission order, until their own
 * work is done; inside, every wait ({@code join}, {@code scope}, {@link ForageLatch#await()}, and so a future's
 * {@code join} built on it) does the same. {@link ForagePool#execute} from outside only queues the job: it runs when a
 * thread next waits in the pool, or calls {@link ForagePool#runPending()}. Timers fire while a thread waits in the pool.
 * Useful for deterministic tests and single-threaded environments:
 * <pre>{@code
 * try (ForagePool pool = ForagePool.builder().singleThreaded().build()) {
 *     List<Integer> order = new ArrayList<>();
 *     for (int i = 0; i < 3; i++) { int k = i; pool.execute(() -> order.add(k)); }
 *     pool.runPending();          // runs 0, 1, 2 here, in that order
 *     long fib = pool.install(() -> fib(pool, 20));   // every fork runs on this thread
 * }
 * }</pre>
 * Several threads may use one single-threaded pool; one of them runs its jobs at a time.
 *
 * <h2>Blocking</h2>
 * A job that blocks (file or socket I/O, JDBC, a lock held elsewhere) takes its worker away from the pool. Mark
 * the blocking part with {@link ForagePool#managedBlock}, or hand blocking tasks to {@link ForagePool#blockingExecutor()}: while a
 * worker blocks inside such a <i>blocking section</i>, another thread runs in its place, so the pool keeps
 * {@link ForagePool#parallelism()} workers running, as {@code ForkJoinPool.managedBlock} and Go's scheduler do. At most
 * {@link ForagePoolBuilder#maxBlockingThreads maxBlockingThreads} threads stand in at once; they end after
 * {@link ForagePoolBuilder#blockingKeepAlive an idle keep-alive}. The blocked worker keeps its deque, which the
 * other workers drain meanwhile.
 * <pre>{@code
 * pool.execute(() -> {
 *     byte[] raw = ForagePool.managedBlock(() -> Files.readAllBytes(path));  // another thread works meanwhile
 *     index(raw);                                                            // CPU work, on the pool
 * });
 * }</pre>
 * Kotlin code uses the blocking dispatcher instead ({@code Dispatchers.ForageBlocking}, {@code docs/coroutines.md}).
 *
 * <h2>Context propagation</h2>
 * A pool built with a {@linkplain ForagePoolBuilder#taskDecorator task decorator} wraps every task submitted to it
 * on the submitting thread, so that a logging MDC or a tracing context follows the task onto the worker; which
 * submissions are decorated, and why join halves and scope spawns are not: {@link ForageTaskDecorator}.
 */
package dev.forage;
