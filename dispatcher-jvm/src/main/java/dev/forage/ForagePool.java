package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A work-stealing thread pool whose workers sleep and wake by Rayon's jobs-event-counter protocol.
 *
 * <h2>Implementation overview</h2>
 * Each worker owns a Chase-Lev deque; jobs submitted by a worker go to the bottom of its own deque and it pops
 * them LIFO, except that the first one goes to a slot beside the deque that the worker takes next (Tokio's LIFO
 * slot, Go's {@code runnext}), while idle workers steal the oldest job from a random victim. Jobs from outside
 * the pool go to a shared FIFO injector. A worker that finds no work searches for a few rounds, announces that
 * it is sleepy, searches once more, and then blocks on its own condition unless new work was posted meanwhile (the jobs
 * event counter tells it). Posting work wakes at most the sleepers that the idle count says are needed.
 * Waiting is done on latches with one owner: a worker that waits (in {@link #join}, {@link #scope},
 * {@link #install}, or on a {@link ForageLatch}) keeps running other jobs, and only a set latch wakes its own
 * owner. The protocol and its proofs: {@code docs/sleep.md}; the other selectable strategies
 * ({@link ForagePoolBuilder#sleepProtocol}): {@code docs/sleep-strategies.md}.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * try (ForagePool pool = ForagePool.builder().threads(4).name("compute").build()) {
 *     long fib = pool.install(() -> fib(pool, 30));
 * }
 *
 * static long fib(ForagePool pool, int n) {
 *     if (n < 2) return n;
 *     JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1), () -> fib(pool, n - 2));
 *     return r.first() + r.second();
 * }
 * }</pre>
 *
 * <h2>Failures</h2>
 * A job's exception reaches whoever waits for it ({@code join}, {@code scope}, {@code install}), unchanged and
 * only after its sibling jobs finished. A fire-and-forget job's exception goes to the pool's
 * {@linkplain ForagePoolBuilder#uncaughtExceptionHandler uncaught-exception handler}. No user exception ever
 * kills a worker.
 *
 * <h2>Shutdown</h2>
 * {@link #shutdown()} (or {@link #close()}, which also waits) rejects new submissions with
 * {@link RejectedExecutionException}, from outside and from the pool's own workers alike, so a job that
 * resubmits itself cannot keep the pool alive; every job accepted before it still runs, with the {@code join}s
 * and scope spawns it waits for. Pending timers still fire at their deadlines; {@link #shutdownNow()} cancels them
 * and returns the never-started jobs. See {@code docs/lifecycle.md}.
 *
 * <h2>Idle threads and queue capacity</h2>
 * A worker thread idle for the {@linkplain ForagePoolBuilder#keepAlive keep-alive} (60 seconds) ends, and the
 * next job starts it again, so an idle pool holds no threads. The pool's queue holds at most
 * {@linkplain ForagePoolBuilder#queueCapacity its capacity} (2^22 jobs unless you choose fewer); a submission to a
 * full queue throws {@link RejectedExecutionException} ("queue capacity exceeded"), or, from outside the pool
 * under {@link QueueFullPolicy#CALLER_RUNS}, runs on its caller.
 *
 * <h2>Run-time parallelism</h2>
 * {@link #setParallelism} changes the number of worker threads while the pool runs, up to the
 * {@linkplain ForagePoolBuilder#maxParallelism maximum} fixed at build: workers it removes finish their current job
 * and leave, workers it adds start at once. See {@code docs/lifecycle.md}.
 *
 * <h2>Single-threaded pools</h2>
 * A pool built with {@link ForagePoolBuilder#singleThreaded()} has no worker threads (marl's single-threaded
 * mode). Its jobs run on a thread that waits in the pool: {@link #join}, {@link #scope} and {@link #install}
 * called from outside run the pool's queued jobs on the calling thread, in submission order, until their own
 * work is done; inside, every wait ({@code join}, {@code scope}, {@link ForageLatch#await()}, and so a future's
 * {@code join} built on it) does the same. {@link #execute} from outside only queues the job: it runs when a
 * thread next waits in the pool, or calls {@link #runPending()}. Timers fire while a thread waits in the pool.
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
 * the blocking part with {@link #managedBlock}, or hand blocking tasks to {@link #blockingExecutor()}: while a
 * worker blocks inside such a <i>blocking section</i>, another thread runs in its place, so the pool keeps
 * {@link #parallelism()} workers running, as {@code ForkJoinPool.managedBlock} and Go's scheduler do. At most
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
public final class ForagePool implements Executor, AutoCloseable {
    private final Registry registry;
    private final boolean common;

    ForagePool(Registry registry, boolean common) {
        this.registry = registry;
        this.common = common;
        registry.face = this;
    }

    /** A builder for a private pool. */
    public static ForagePoolBuilder builder() {
        return new ForagePoolBuilder();
    }

    /**
     * The shared default pool, created on first use: daemon threads named {@code forage-common-worker-N}, one
     * per available processor (override with the system property {@code forage.common.parallelism}). It cannot
     * be shut down.
     */
    public static ForagePool commonPool() {
        return CommonPool.INSTANCE;
    }

    /** The pool whose worker is running the calling thread, or null when called from outside every pool. */
    public static ForagePool current() {
        Worker w = InWorker.current();
        return w == null ? null : (ForagePool) w.registry.face;
    }

    /**
     * Runs {@code blocking} on the calling thread as a <i>blocking section</i> and returns its result: on a worker of
     * a Forage pool, another thread runs in this worker's place until {@code blocking} returns, so the pool keeps
     * its parallelism (see "Blocking" above); on any other thread, it just runs. Sections nest (an inner one costs
     * a field increment). Use it around calls that block for long (I/O, JDBC, {@code Object.wait}), not around
     * short CPU work: entering one may wake or start a thread.
     *
     * <pre>{@code
     * String row = ForagePool.managedBlock(() -> jdbc.queryForString(sql));
     * }</pre>
     *
     * Beyond {@link ForagePoolBuilder#maxBlockingThreads maxBlockingThreads} blocked workers, and on a
     * single-threaded pool, a section runs without a stand-in (the pool runs with fewer workers meanwhile).
     *
     * @return what {@code blocking} returned
     * @throws Exception whatever {@code blocking} throws, unchanged
     */
    public static <T> T managedBlock(Callable<T> blocking) throws Exception {
        if (blocking == null) {
            throw new NullPointerException("ForagePool.managedBlock: blocking must not be null; pass the code that "
                    + "blocks");
        }
        Worker w = InWorker.current();
        return w == null ? blocking.call() : w.registry.managedBlock(blocking);
    }

    /**
     * An executor for tasks that block, at most {@link ForagePoolBuilder#maxBlockingThreads maxBlockingThreads}
     * at once (the rest wait in a FIFO queue), each run on this pool inside a blocking section (see
     * {@link #managedBlock}): the counterpart of kotlinx's {@code Dispatchers.IO}, sharing this pool's threads.
     * Submitted from one of this pool's workers, a task usually runs on that same worker once its current job
     * ends (no thread hop), while another thread takes the worker's place. After {@link #shutdown()}, outside
     * submissions are rejected as for {@link #execute}.
     *
     * <pre>{@code
     * CompletableFuture<byte[]> raw = CompletableFuture.supplyAsync(() -> read(path), pool.blockingExecutor());
     * raw.thenApplyAsync(Report::parse, pool);   // back to the pool for the CPU part
     * }</pre>
     */
    public Executor blockingExecutor() {
        return registry.blocking;
    }

    /**
     * The parallelism of {@link #blockingExecutor()}, and the most threads that stand in for blocked workers at once
     * ({@link ForagePoolBuilder#maxBlockingThreads}).
     */
    public int maxBlockingThreads() {
        return registry.blocking.parallelism();
    }

    /**
     * A view of {@link #blockingExecutor()} with its own limit: at most {@code parallelism} of its tasks run at
     * once, independently of the default executor's limit and of other views (as kotlinx's
     * {@code Dispatchers.IO.limitedParallelism}). The pool still stands in for at most
     * {@code maxBlockingThreads} blocked workers at once.
     *
     * <pre>{@code
     * Executor database = pool.blockingExecutor(10);   // never more than 10 connections busy
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code parallelism} is less than 1
     */
    public Executor blockingExecutor(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("blockingExecutor: parallelism must be at least 1, was " + parallelism);
        }
        return new BlockingExecutor(registry, parallelism);
    }

    /**
     * The index (0-based) of the calling worker in its pool, or -1 when not called on a pool worker. A thread that
     * stands in for a blocked worker ({@link #managedBlock}) has an index of {@link #maxParallelism()} or more.
     */
    public static int currentWorkerIndex() {
        Worker w = InWorker.current();
        return w == null ? -1 : w.index;
    }

    /** True when the calling thread is one of this pool's workers. */
    public boolean isCurrentThreadWorker() {
        return InWorker.of(registry) != null;
    }

    /**
     * The number of worker threads the pool runs jobs on now: what it was built with, or the last
     * {@link #setParallelism}; 0 for a {@linkplain #isSingleThreaded() single-threaded} pool.
     */
    public int parallelism() {
        return registry.runner.threads();
    }

    /** The most jobs that wait in the pool's queue ({@link ForagePoolBuilder#queueCapacity}). */
    public int queueCapacity() {
        return registry.queueBound.injectorCapacity;
    }

    /** What a submission from outside the pool does when the queue is full ({@link ForagePoolBuilder#whenQueueFull}). */
    public QueueFullPolicy queueFullPolicy() {
        return registry.queueBound.policy;
    }

    /**
     * The most {@link #setParallelism} allows: {@link ForagePoolBuilder#maxParallelism}, by default the thread count
     * the pool was built with; 0 for a {@linkplain #isSingleThreaded() single-threaded} pool.
     */
    public int maxParallelism() {
        return registry.runner.maxParallelism();
    }

    /**
     * Changes the number of worker threads the pool runs jobs on, while it runs, and returns the number before, as
     * {@code ForkJoinPool.setParallelism} (JDK 19) does: for a container whose CPU quota changed, a service that
     * gives a batch pool cores at night. From 1 to {@link #maxParallelism()}, which the builder fixes
     * ({@link ForagePoolBuilder#maxParallelism}) because every worker slot is made with the pool.
     *
     * <ul>
     *   <li><b>Smaller</b>: the workers above the new parallelism finish the job in hand (with the joins and scopes
     *       it waits for), take no new one and end their threads; the jobs left in their queues are taken by the
     *       others. Nothing accepted is dropped. A sleeping worker leaves at once.</li>
     *   <li><b>Larger</b>: the added workers start threads at once and take queued work, and posts wake them like
     *       any other worker (they retire after the keep-alive when idle).</li>
     * </ul>
     * Returns once the change is made; workers that leave may still finish their jobs. Blocking sections keep their
     * stand-ins ({@link #managedBlock}) throughout; {@link #statistics()} and {@link #toString()} report the new
     * value at once. Calls from any thread, the pool's own workers included, are serialized.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().threads(4).maxParallelism(16).build();
     * pool.setParallelism(8);   // returns 4; four more workers start
     * pool.setParallelism(2);   // returns 8; six leave after their current jobs
     * }</pre>
     *
     * @return the parallelism before the call
     * @throws IllegalArgumentException if {@code parallelism} is below 1 or above {@link #maxParallelism()}
     * @throws IllegalStateException after {@link #shutdown()}
     * @throws UnsupportedOperationException on a single-threaded pool, a pool with {@code ioWorkers()}, and the
     *         common pool when the system property {@code forage.common.parallelism} set its size (as
     *         {@code ForkJoinPool}'s common pool refuses when {@code java.util.concurrent.ForkJoinPool.common
     *         .parallelism} did)
     */
    public int setParallelism(int parallelism) {
        if (common && CommonPool.PRESET != null) {
            throw new UnsupportedOperationException("setParallelism: the common pool's parallelism was set by the "
                    + "system property forage.common.parallelism=" + CommonPool.PRESET + ", which code does not "
                    + "override (as ForkJoinPool's common pool); use a pool of your own to resize");
        }
        return registry.runner.setParallelism(parallelism);
    }

    /** True for a pool without threads, whose jobs run on the threads that wait in it. */
    public boolean isSingleThreaded() {
        return registry.runner.threads() == 0;
    }

    /**
     * Single-threaded pools only: runs the queued jobs, and the jobs they queue, on the calling thread until the
     * queue is empty, and returns how many ran. Timers that are not due stay queued. If another thread is
     * running this pool's jobs, waits until it stops first.
     *
     * <pre>{@code
     * pool.execute(() -> log.add("a"));   // only queued
     * pool.runPending();                  // runs it here; returns 1
     * }</pre>
     *
     * @throws IllegalStateException on a pool with worker threads (they run queued jobs themselves)
     */
    public int runPending() {
        return registry.pendingJobs.runPending();
    }

    /** True for a pool built with {@link ForagePoolBuilder#ioWorkers()}: its workers sleep in NIO selectors. */
    public boolean hasIoWorkers() {
        return registry.io.hasIoWorkers();
    }

    /**
     * IO pools: tells {@code listener} once, on a worker of this pool, when {@code channel} is ready for
     * {@code op}. The channel belongs to one worker, the one whose selector holds its key: at its first wait, the
     * calling worker (or, from outside the pool, one picked by the channel), and that worker until the channel is
     * closed. A wait from another thread is handed to the owner. The owner sees readiness in its select when
     * idle, or in a non-blocking look every few jobs when busy, and tells the listener itself, so that the jobs
     * the listener submits go to the owner's own deque. When the owner has left its channels unwatched for
     * {@code forage.io.takeoverMillis} (1 ms by default: a long job, or the OS descheduled it), another IO worker
     * looks at its selector and tells the listener instead, on that worker. At most one wait per operation and
     * channel at a time.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().ioWorkers().build();
     * SocketChannel ch = SocketChannel.open(address);
     * ch.configureBlocking(false);
     * pool.awaitReadiness(ch, SelectionKey.OP_READ, new ReadinessListener() {
     *     public void ready(SelectableChannel c) { pool.execute(() -> readAvailable(ch)); }
     *     public void failed(Throwable error) { close(ch, error); }
     * });
     * }</pre>
     *
     * A channel closed while a wait is pending fails the wait (at the owner's next select, within
     * {@code forage.io.closedCheckMillis}, 250 ms by default: closing a channel wakes no selector); shutting the
     * pool down fails every pending wait with an {@link java.nio.channels.AsynchronousCloseException} naming the
     * pool, and later waits at once.
     *
     * @throws IllegalStateException if this pool has no IO workers
     * @throws IllegalArgumentException if {@code op} is not a single operation the channel supports, or the
     *         channel is closed, in blocking mode, or registered with a selector that is not this pool's
     */
    public IoWait awaitReadiness(SelectableChannel channel, int op, ReadinessListener listener) {
        if (channel == null) {
            throw new NullPointerException("channel must not be null");
        }
        if (listener == null) {
            throw new NullPointerException("listener must not be null");
        }
        return registry.awaitReadiness(channel, op, listener);
    }

    /** The pool's name, the prefix of its threads' names. */
    public String name() {
        return registry.name;
    }

    /**
     * Runs {@code job} on the pool. Called on one of this pool's workers, the job goes to that worker's next slot,
     * which it takes next, or, when a job already waits there, on its own deque (LIFO); other workers can steal it
     * either way. From any other thread, the job goes to the pool's injector (FIFO). Never runs it inline, but for
     * one case: from outside the pool, when the queue is full ({@link ForagePoolBuilder#queueCapacity}) and the
     * pool was built with {@link QueueFullPolicy#CALLER_RUNS}, the calling thread runs it before this returns.
     *
     * @throws NullPointerException if {@code job} is null
     * @throws RejectedExecutionException if called from outside the pool after shutdown, or when the queue is full
     *     (the message names the pool and the queue) and the policy is {@link QueueFullPolicy#REJECT}
     */
    @Override
    public void execute(Runnable job) {
        if (job == null) {
            throw new NullPointerException("ForagePool.execute: job must not be null");
        }
        registry.submit(job);
    }

    /**
     * Runs {@code job} on the pool behind the jobs already queued, even when called on a worker. Use it for
     * fairness: a job that re-submits itself this way cannot starve others (Kotlin's {@code yield()} uses it).
     * <ul>
     *   <li>From outside the pool, or while jobs from outside wait in the pool's injector: at the back of the
     *       injector (FIFO), behind every job submitted from outside before it.</li>
     *   <li>On one of the pool's workers while no outside job waits: at the back of the worker's own deque, and
     *       the worker's next job is its oldest one, so the re-submitted job goes behind its neighbours (as
     *       Tokio's and kotlinx's {@code yield} do) without a trip through the shared injector.</li>
     * </ul>
     * Outside jobs that arrive later are still taken: every worker polls the injector at least every
     * {@code forage.fairnessInterval} (61) jobs.
     * <pre>{@code
     * // Three jobs that each re-submit themselves ten times run interleaved, not one after another.
     * for (int i = 0; i < 3; i++) {
     *     pool.execute(new Runnable() {
     *         int left = 10;
     *         public void run() { if (--left > 0) pool.executeFair(this); }
     *     });
     * }
     * }</pre>
     *
     * @throws NullPointerException if {@code job} is null
     * @throws RejectedExecutionException if called from outside the pool after shutdown, or when the queue is full,
     *     whatever the {@link QueueFullPolicy} (running the job at once would put it ahead of every queued job)
     */
    public void executeFair(Runnable job) {
        if (job == null) {
            throw new NullPointerException("ForagePool.executeFair: job must not be null");
        }
        registry.submitFair(job);
    }

    /**
     * Runs {@code job} once {@code delay} has elapsed, as an injected job. No dedicated timer thread: a sleeping
     * worker parks until the earliest deadline, and while every worker is busy the pool's monitor queues the job
     * on time, to run when a worker is free ({@code docs/monitor.md}). A delay of zero or less runs the job as
     * soon as a worker looks. For a short action that must not wait for a worker (a timeout), see
     * {@link #scheduleTimeout}.
     *
     * <pre>{@code
     * TimerHandle h = pool.schedule(() -> System.out.println("later"), 50, TimeUnit.MILLISECONDS);
     * h.cancel(); // removed from the timer queue at once
     * }</pre>
     *
     * @throws NullPointerException if {@code job} or {@code unit} is null
     * @throws RejectedExecutionException after shutdown
     */
    public TimerHandle schedule(Runnable job, long delay, TimeUnit unit) {
        if (job == null) {
            throw new NullPointerException("ForagePool.schedule: job must not be null");
        }
        if (unit == null) {
            throw new NullPointerException("ForagePool.schedule: unit must not be null");
        }
        return new TimerHandle(registry.schedule(job, unit.toNanos(delay), false), registry.clock);
    }

    /**
     * Runs {@code action} once {@code delay} has elapsed, on the thread that notices the deadline, without waiting
     * for a free worker: the timer for timeouts. While a worker sleeps and watches the timers it runs the action;
     * while every worker is busy or blocked, the pool's monitor thread runs it on time (within about a millisecond
     * of the deadline; {@code docs/monitor.md}), as the JDK's delayer thread runs {@code orTimeout}. So the action
     * must be short and must never block: complete a future, cancel a call, set a flag, submit a job. Anything
     * longer belongs in {@link #schedule}, whose job is queued on time and runs when a worker is free. A failure
     * goes to the pool's uncaught-exception handler.
     *
     * <pre>{@code
     * TimerHandle t = pool.scheduleTimeout(() -> reply.completeExceptionally(new TimeoutException()), 2, SECONDS);
     * reply.whenComplete((r, e) -> t.cancel());
     * }</pre>
     *
     * @throws NullPointerException if {@code action} or {@code unit} is null
     * @throws RejectedExecutionException after shutdown
     */
    public TimerHandle scheduleTimeout(Runnable action, long delay, TimeUnit unit) {
        if (action == null) {
            throw new NullPointerException("ForagePool.scheduleTimeout: action must not be null");
        }
        if (unit == null) {
            throw new NullPointerException("ForagePool.scheduleTimeout: unit must not be null");
        }
        return new TimerHandle(registry.schedule(action, unit.toNanos(delay), true), registry.clock);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, and returns both results. On a worker of this
     * pool, {@code b} is pushed where idle workers can steal it while the caller runs {@code a}; if nobody
     * stole {@code b}, the caller runs it too, and if someone did, the caller runs other jobs until {@code b}
     * is done. From outside the pool the whole join runs inside the pool and the caller blocks.
     *
     * <p>If {@code a} or {@code b} throws, the exception is rethrown unchanged after both finished (when both
     * throw, {@code a}'s exception carries {@code b}'s as suppressed).
     *
     * @throws NullPointerException if {@code a} or {@code b} is null
     */
    public <A, B> JoinResult<A, B> join(final Computation<A> a, final Computation<B> b) {
        if (a == null || b == null) {
            throw new NullPointerException("ForagePool.join: both computations must be non-null (a="
                    + a + ", b=" + b + ")");
        }
        return InWorker.join(registry, a, b);
    }

    /**
     * Runs {@code body}, which may {@linkplain Scope#spawn spawn} jobs, and returns its result once the body
     * and every spawned job finished. A worker that waits here runs other jobs meanwhile. From outside the
     * pool the scope runs inside the pool and the caller blocks. See {@link Scope} for an example and for
     * failure handling.
     *
     * @throws NullPointerException if {@code body} is null
     */
    public <T> T scope(final ScopeBody<T> body) {
        if (body == null) {
            throw new NullPointerException("ForagePool.scope: body must not be null");
        }
        return InWorker.scope(registry, body);
    }

    /**
     * Starts {@code body} as a scope without waiting for it: like {@link #scope}, but the caller returns at once
     * and {@code listener} is told when the body and every job spawned into the scope finished. On a worker of
     * this pool the body runs right here before this returns (its spawned jobs go on without the caller); from
     * any other thread it runs as a job on the pool. Useful where a thread must not wait, such as an event loop
     * or a suspended coroutine (Kotlin's {@code awaitScope} is built on it).
     *
     * <pre>{@code
     * pool.scopeAsync(s -> {
     *     for (Path file : files) s.spawn(() -> index(file));
     *     return files.size();
     * }, (count, failure) -> System.out.println(failure == null ? count + " indexed" : "failed: " + failure));
     * }</pre>
     *
     * @throws NullPointerException if {@code body} or {@code listener} is null
     * @throws RejectedExecutionException if called from outside the pool after shutdown (nothing ran, and the
     *     listener is not called)
     */
    public <T> void scopeAsync(ScopeBody<T> body, ScopeListener<? super T> listener) {
        if (body == null || listener == null) {
            throw new NullPointerException("ForagePool.scopeAsync: body and listener must be non-null (body="
                    + body + ", listener=" + listener + ")");
        }
        InWorker.scopeAsync(registry, body, listener);
    }

    /**
     * Runs {@code computation} inside this pool and returns its result. On a worker of this pool it runs
     * inline. On a worker of another Forage pool, that worker keeps running its own pool's jobs until the
     * result is ready. On any other thread, the caller blocks (interrupts are not lost: the flag is re-set on
     * return). On a {@linkplain #isSingleThreaded() single-threaded} pool, the caller runs the queued jobs and
     * then the computation itself.
     *
     * @throws NullPointerException if {@code computation} is null
     * @throws RejectedExecutionException if called from outside after shutdown
     */
    public <T> T install(final Computation<T> computation) {
        if (computation == null) {
            throw new NullPointerException("ForagePool.install: computation must not be null");
        }
        return InWorker.install(registry, computation);
    }

    /** A snapshot of the pool's statistics, summed over its workers. */
    public PoolStatistics statistics() {
        return registry.statistics();
    }

    /**
     * Starts an orderly shutdown: outside submissions are rejected from now on; every job accepted before
     * still runs. Returns at once; see {@link #awaitTermination} and {@link #close()}.
     *
     * @throws UnsupportedOperationException on the {@linkplain #commonPool() common pool}
     */
    public void shutdown() {
        checkNotCommon("shutdown");
        registry.shutdown();
    }

    /**
     * Shuts down, cancels pending timers, removes the jobs still queued from outside, interrupts the workers,
     * and returns the jobs that never started, as they were submitted (without the
     * {@linkplain ForagePoolBuilder#taskDecorator task decorator}'s wrapping). Jobs that running jobs pushed on their
     * own deques still run: a computation that waits for them would otherwise never finish.
     *
     * @throws UnsupportedOperationException on the {@linkplain #commonPool() common pool}
     */
    public List<Runnable> shutdownNow() {
        checkNotCommon("shutdownNow");
        return registry.shutdownNow();
    }

    /**
     * Runs {@code action} once, when this pool is shut down through any face: {@link #shutdown()},
     * {@link #shutdownNow()}, {@link #close()}, or an executor or dispatcher over it. It runs on the thread that
     * shut the pool down, after new outside submissions are refused; if the pool is already shut down, at once
     * on the calling thread. For code over the pool that must react, such as an executor that cancels its
     * periodic tasks; keep it short. An exception it throws goes to the pool's uncaught-exception handler. On
     * the {@linkplain #commonPool() common pool}, which is never shut down, it never runs.
     *
     * <pre>{@code
     * pool.whenShutdown(() -> heartbeat.cancel(false));
     * }</pre>
     *
     * @throws NullPointerException if {@code action} is null
     */
    public void whenShutdown(Runnable action) {
        if (action == null) {
            throw new NullPointerException("ForagePool.whenShutdown: action must not be null");
        }
        if (!common) {
            registry.whenShutdown(action);
        }
    }

    /** True once {@link #shutdown()} was called. */
    public boolean isShutdown() {
        return registry.lifecycle.isShutdown();
    }

    /** True once every worker has finished after shutdown. */
    public boolean isTerminated() {
        return registry.lifecycle.isTerminated();
    }

    /**
     * Waits until every worker thread has ended after shutdown, or the timeout elapses. Returns true if the pool
     * terminated; once it does, no thread of this pool is alive.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IllegalStateException if called on one of this pool's workers (it would wait for itself)
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("awaitTermination: timeout must be >= 0, was " + timeout);
        }
        if (unit == null) {
            throw new NullPointerException("awaitTermination: unit must not be null");
        }
        return registry.awaitTermination(timeout, unit);
    }

    /**
     * Shuts down and waits for termination. Called on one of this pool's own workers it only shuts down (it
     * cannot wait for itself). Idempotent.
     *
     * @throws UnsupportedOperationException on the {@linkplain #commonPool() common pool}
     */
    @Override
    public void close() {
        checkNotCommon("close");
        registry.shutdown();
        if (!isCurrentThreadWorker()) {
            registry.awaitTerminationUninterruptibly();
        }
    }

    private void checkNotCommon(String operation) {
        if (common) {
            throw new UnsupportedOperationException(operation + " is not allowed on the common pool "
                    + "(ForagePool.commonPool() lives as long as the JVM); build a private pool with "
                    + "ForagePool.builder() if you need to shut one down");
        }
    }

    Registry registry() {
        return registry;
    }

    /**
     * The pool's name and state with live counts from a {@linkplain #statistics() snapshot}, for logs and
     * debuggers:
     * <pre>
     * ForagePool[compute, running, threads=4, active=1, idle=1, sleeping=2, queued=12 (deques=10, injector=2),
     *     steals=10, jobsRun=1000]
     * </pre>
     * {@code active}, {@code idle} and {@code sleeping} workers (running jobs; awake but searching; blocked; and
     * {@code retired=N} when threads ended after the keep-alive), jobs
     * queued in the workers' deques and in the injector, and two counters: jobs taken from another worker's deque
     * and jobs run. The format is for people; parse {@link #statistics()} instead.
     */
    @Override
    public String toString() {
        PoolStatistics s = registry.statistics();
        return "ForagePool[" + registry.name + ", " + registry.lifecycle.state() + ", threads=" + s.threads()
                + ", active=" + s.activeWorkers() + ", idle=" + s.idleWorkers() + ", sleeping=" + s.sleepingWorkers()
                + (s.retiredWorkers() > 0 ? ", retired=" + s.retiredWorkers() : "")
                + ", queued=" + s.queuedJobs() + " (deques=" + s.dequeQueuedJobs() + ", injector="
                + s.injectorQueuedJobs() + "), steals=" + s.steals() + ", jobsRun=" + s.jobsRun() + "]";
    }
}
