package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A work-stealing thread pool whose workers sleep and wake by Rayon's jobs-event-counter protocol. Jobs a worker
 * submits go to its own deque, jobs from outside to a shared injector, and idle workers steal; a waiting worker
 * ({@link #join}, {@link #scope}, {@link #install}, a {@link ForageLatch}) keeps running other jobs, and only a set
 * latch wakes its owner. Failures, shutdown, idle threads, queue capacity, single-threaded pools, blocking and
 * context propagation: the package overview ({@code package-info}); the protocol: {@code docs/sleep.md}.
 *
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
 */
public final class ForagePool implements Executor, AutoCloseable {
    private final Registry registry;
    /** The parts whose settings and modes this face reports or changes; every submission goes through the registry. */
    private final Runner runner;
    private final QueueBound queueBound;
    private final Lifecycle lifecycle;
    private final BlockingExecutor blocking;
    private final PendingJobs pendingJobs;
    private final PoolIo io;
    private final boolean common;

    ForagePool(Registry registry, boolean common) {
        this.registry = registry;
        this.runner = registry.runner;
        this.queueBound = registry.queueBound;
        this.lifecycle = registry.lifecycle;
        this.blocking = new BlockingExecutor(registry, registry.maxBlocking);
        this.pendingJobs = registry.pendingJobs;
        this.io = registry.io;
        this.common = common;
        registry.face = this;
        registry.start(); // after the face: a worker's thread-start hook may already ask current()
    }

    /** A builder for a private pool. */
    public static ForagePoolBuilder builder() {
        return new ForagePoolBuilder();
    }

    /**
     * The shared default pool, made on first use: daemon threads {@code forage-common-worker-N}, one per processor
     * (or the system property {@code forage.common.parallelism}). It cannot be shut down.
     */
    public static ForagePool commonPool() {
        return CommonPool.INSTANCE;
    }

    /** The pool whose worker is running the calling thread, or null when called from outside every pool. */
    public static ForagePool current() {
        Worker w = Worker.current();
        return w == null ? null : (ForagePool) w.registry.face;
    }

    /**
     * Runs {@code blocking} on the calling thread as a <i>blocking section</i> and returns its result: on a worker of
     * a Forage pool, another thread runs in this worker's place until {@code blocking} returns, up to
     * {@link ForagePoolBuilder#maxBlockingThreads maxBlockingThreads} stand-ins; elsewhere it just runs. Sections
     * nest. For calls that block for long (I/O, JDBC), not for short CPU work: the package overview, "Blocking".
     * {@code String row = ForagePool.managedBlock(() -> jdbc.queryForString(sql));}
     *
     * @throws Exception whatever {@code blocking} throws, unchanged
     */
    public static <T> T managedBlock(Callable<T> blocking) throws Exception {
        Objects.requireNonNull(blocking,
                "ForagePool.managedBlock: blocking must not be null; pass the code that blocks");
        Worker w = Worker.current();
        return w == null ? blocking.call() : w.registry.managedBlock(blocking);
    }

    /**
     * An executor for tasks that block, at most {@link #maxBlockingThreads()} at once (the rest wait in a FIFO
     * queue), each run on this pool inside a blocking section ({@link #managedBlock}): kotlinx's
     * {@code Dispatchers.IO}, sharing this pool's threads. After shutdown, outside submissions are rejected.
     *
     * <pre>{@code
     * CompletableFuture.supplyAsync(() -> read(path), pool.blockingExecutor()).thenApplyAsync(Report::parse, pool);
     * }</pre>
     */
    public Executor blockingExecutor() {
        return blocking;
    }

    /**
     * The parallelism of {@link #blockingExecutor()}, and the most threads that stand in for blocked workers at once
     * ({@link ForagePoolBuilder#maxBlockingThreads}).
     */
    public int maxBlockingThreads() {
        return blocking.parallelism();
    }

    /**
     * A view of {@link #blockingExecutor()} that runs at most {@code parallelism} of its tasks at once, apart from
     * the default limit and other views (kotlinx's {@code Dispatchers.IO.limitedParallelism}), as in
     * {@code Executor database = pool.blockingExecutor(10)}.
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
        Worker w = Worker.current();
        return w == null ? -1 : w.index;
    }

    /** True when the calling thread is one of this pool's workers. */
    public boolean isCurrentThreadWorker() {
        return registry.currentWorker() != null;
    }

    /**
     * The number of worker threads the pool runs jobs on now: what it was built with, or the last
     * {@link #setParallelism}; 0 for a {@linkplain #isSingleThreaded() single-threaded} pool.
     */
    public int parallelism() {
        return registry.threads();
    }

    /** The most jobs that wait in the pool's queue ({@link ForagePoolBuilder#queueCapacity}). */
    public int queueCapacity() {
        return queueBound.injectorCapacity;
    }

    /** What a submission from outside the pool does when the queue is full ({@link ForagePoolBuilder#whenQueueFull}). */
    public QueueFullPolicy queueFullPolicy() {
        return queueBound.policy;
    }

    /**
     * The most {@link #setParallelism} allows: {@link ForagePoolBuilder#maxParallelism}, by default the thread count
     * the pool was built with; 0 for a {@linkplain #isSingleThreaded() single-threaded} pool.
     */
    public int maxParallelism() {
        return runner.maxParallelism();
    }

    /**
     * Changes the number of worker threads while the pool runs and returns the number before, as
     * {@code ForkJoinPool.setParallelism} does: from 1 to {@link #maxParallelism()}. Workers above the new value
     * finish their job and leave, nothing accepted is dropped, and added workers start at once
     * ({@code docs/lifecycle.md}). {@code pool.setParallelism(8)} on a pool of 4 returns 4 and starts four workers.
     *
     * @throws IllegalArgumentException if {@code parallelism} is below 1 or above {@link #maxParallelism()}
     * @throws IllegalStateException after {@link #shutdown()}
     * @throws UnsupportedOperationException on a single-threaded pool, a pool with {@code ioWorkers()}, and the
     *         common pool when the system property {@code forage.common.parallelism} set its size
     */
    public int setParallelism(int parallelism) {
        if (common) {
            CommonPool.checkResizable();
        }
        return runner.setParallelism(parallelism);
    }

    /** True for a pool without threads, whose jobs run on the threads that wait in it. */
    public boolean isSingleThreaded() {
        return registry.threads() == 0;
    }

    /**
     * Single-threaded pools only: runs the queued jobs, and the jobs they queue, on the calling thread until none is
     * left (timers not yet due stay queued), and returns how many ran; waits first for another thread running this
     * pool's jobs. {@code pool.execute(() -> log.add("a"))} only queues; {@code pool.runPending()} then runs it here.
     *
     * @throws IllegalStateException on a pool with worker threads (they run queued jobs themselves)
     */
    public int runPending() {
        return pendingJobs.runPending();
    }

    /** True for a pool built with {@link ForagePoolBuilder#ioWorkers()}: its workers sleep in NIO selectors. */
    public boolean hasIoWorkers() {
        return io.hasIoWorkers();
    }

    /**
     * IO pools: tells {@code listener} once, on a worker of this pool, when {@code channel} is ready for {@code op};
     * who watches the channel, and how a wait fails: {@link IoWait}.
     *
     * <pre>{@code
     * pool.awaitReadiness(ch, SelectionKey.OP_READ, new ReadinessListener() {
     *     public void ready(SelectableChannel c) { pool.execute(() -> readAvailable(ch)); }
     *     public void failed(Throwable error) { close(ch, error); }
     * });
     * }</pre>
     *
     * @throws IllegalStateException if this pool has no IO workers
     * @throws IllegalArgumentException if {@code op} is not a single operation the channel supports, or the
     *         channel is closed, in blocking mode, or registered with a selector that is not this pool's
     */
    public IoWait awaitReadiness(SelectableChannel channel, int op, ReadinessListener listener) {
        Objects.requireNonNull(channel, "channel must not be null");
        Objects.requireNonNull(listener, "listener must not be null");
        return registry.awaitReadiness(channel, op, listener);
    }

    /** The pool's name, the prefix of its threads' names. */
    public String name() {
        return registry.name;
    }

    /**
     * Runs {@code job} on the pool: from one of this pool's workers, on that worker (its next slot, or its deque),
     * where others can steal it; from any other thread, at the back of the injector. Never inline, but from outside
     * a full pool built with {@link QueueFullPolicy#CALLER_RUNS}, where the caller runs it.
     *
     * @throws NullPointerException if {@code job} is null
     * @throws RejectedExecutionException from outside after shutdown, or when the queue is full (the message names
     *     the pool and the queue) and the policy is {@link QueueFullPolicy#REJECT}
     */
    @Override
    public void execute(Runnable job) {
        Objects.requireNonNull(job, "ForagePool.execute: job must not be null");
        registry.executeSubmitted(job);
    }

    /**
     * Runs {@code job} behind the jobs already queued, even from a worker, so that a job that re-submits itself
     * this way cannot starve others (Kotlin's {@code yield()}): at the back of the injector from outside or while
     * outside jobs wait, else at the back of the worker's own deque, behind its neighbours (Tokio's and kotlinx's
     * {@code yield}). {@code public void run() { if (--left > 0) pool.executeFair(this); }} interleaves with others.
     *
     * @throws NullPointerException if {@code job} is null
     * @throws RejectedExecutionException if called from outside the pool after shutdown, or when the queue is full,
     *     whatever the {@link QueueFullPolicy} (running the job at once would put it ahead of every queued job)
     */
    public void executeFair(Runnable job) {
        Objects.requireNonNull(job, "ForagePool.executeFair: job must not be null");
        registry.executeFair(job);
    }

    /**
     * Runs {@code job} once {@code delay} has elapsed, as an injected job: a sleeping worker parks until the
     * earliest deadline, and while every worker is busy the monitor queues the job on time ({@code docs/monitor.md}).
     * For a short action that must not wait for a worker, see {@link #scheduleTimeout}.
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
        Objects.requireNonNull(job, "ForagePool.schedule: job must not be null");
        Objects.requireNonNull(unit, "ForagePool.schedule: unit must not be null");
        TimerTask task = registry.schedule(job, unit.toNanos(delay), false);
        return new TimerHandle(task, registry.clock);
    }

    /**
     * Runs {@code action} once {@code delay} has elapsed on the thread that notices the deadline, without waiting
     * for a free worker: the timer for timeouts. A sleeping worker that watches the timers runs it, or, while every
     * worker is busy or blocked, the monitor thread, within about a millisecond ({@code docs/monitor.md}), as the
     * JDK's delayer runs {@code orTimeout}; so it must be short and never block. Its failure goes to the handler.
     * {@code TimerHandle t = pool.scheduleTimeout(() -> reply.completeExceptionally(new TimeoutException()), 2,
     * SECONDS);}
     *
     * @throws NullPointerException if {@code action} or {@code unit} is null
     * @throws RejectedExecutionException after shutdown
     */
    public TimerHandle scheduleTimeout(Runnable action, long delay, TimeUnit unit) {
        Objects.requireNonNull(action, "ForagePool.scheduleTimeout: action must not be null");
        Objects.requireNonNull(unit, "ForagePool.scheduleTimeout: unit must not be null");
        TimerTask task = registry.schedule(action, unit.toNanos(delay), true);
        return new TimerHandle(task, registry.clock);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, and returns both results. On a worker of this pool,
     * {@code b} waits on its deque for a thief while the caller runs {@code a}, then the caller runs {@code b} or,
     * if it was stolen, other jobs until it is done; from outside, the whole join runs in the pool and the caller
     * blocks. A failure is rethrown unchanged after both finished ({@code a}'s carries {@code b}'s as suppressed).
     */
    public <A, B> JoinResult<A, B> join(final Computation<A> a, final Computation<B> b) {
        if (a == null || b == null) {
            throw new NullPointerException("ForagePool.join: both computations must be non-null (a=" + a + ", b="
                    + b + ")");
        }
        return registry.join(a, b);
    }

    /**
     * Runs {@code body}, which may {@linkplain Scope#spawn spawn} jobs, and returns its result once the body and
     * every spawned job finished; a worker that waits here runs other jobs, a caller from outside blocks. See
     * {@link Scope} for an example and for failure handling.
     */
    public <T> T scope(final ScopeBody<T> body) {
        Objects.requireNonNull(body, "ForagePool.scope: body must not be null");
        return registry.scope(body);
    }

    /**
     * Starts {@code body} as a scope without waiting: like {@link #scope}, but {@code listener} is told when the body
     * and every job spawned into it finished. On a worker of this pool the body runs here before this returns; from
     * any other thread it runs as a job. For threads that must not wait (an event loop; Kotlin's {@code awaitScope}).
     *
     * <pre>{@code
     * pool.scopeAsync(s -> { files.forEach(f -> s.spawn(() -> index(f))); return files.size(); },
     *         (count, failure) -> System.out.println(failure == null ? count + " indexed" : "failed: " + failure));
     * }</pre>
     *
     * @throws NullPointerException if {@code body} or {@code listener} is null
     * @throws RejectedExecutionException if called from outside the pool after shutdown (the listener is not called)
     */
    public <T> void scopeAsync(ScopeBody<T> body, ScopeListener<? super T> listener) {
        if (body == null || listener == null) {
            throw new NullPointerException("ForagePool.scopeAsync: body and listener must be non-null (body=" + body
                    + ", listener=" + listener + ")");
        }
        // On a worker of this pool the body runs here, before this returns; from any other thread it is submitted
        // as a job (refused after shutdown, as any outside job).
        AsyncScope<T> scope = new AsyncScope<>(registry, body, listener);
        if (registry.currentWorker() != null) {
            scope.run();
        } else {
            registry.execute(registry.decorate(scope));
        }
    }

    /**
     * Runs {@code computation} inside this pool and returns its result: inline on a worker of this pool; on a
     * worker of another Forage pool, which runs its own pool's jobs meanwhile; else the caller blocks (an interrupt
     * is re-set on return). A single-threaded pool's caller runs the queued jobs, then the computation.
     *
     * @throws RejectedExecutionException if called from outside after shutdown
     */
    public <T> T install(final Computation<T> computation) {
        Objects.requireNonNull(computation, "ForagePool.install: computation must not be null");
        return registry.install(computation);
    }

    /** A snapshot of the pool's statistics, summed over its workers. */
    public PoolStatistics statistics() {
        return PoolStatistics.of(registry);
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
     * Shuts down, cancels pending timers, removes the jobs queued from outside, interrupts the workers and returns
     * the jobs that never started, as submitted (undecorated). Jobs that running jobs pushed on their own deques
     * still run: a computation that waits for them would otherwise never finish.
     *
     * @throws UnsupportedOperationException on the {@linkplain #commonPool() common pool}
     */
    public List<Runnable> shutdownNow() {
        checkNotCommon("shutdownNow");
        return registry.shutdownNow();
    }

    /**
     * Runs {@code action} once, on the thread that shuts this pool down through any face (after outside submissions
     * are refused), or at once if it is shut down already; never on the common pool. Keep it short, as in
     * {@code pool.whenShutdown(() -> heartbeat.cancel(false))}; its exception goes to the uncaught-exception handler.
     */
    public void whenShutdown(Runnable action) {
        Objects.requireNonNull(action, "ForagePool.whenShutdown: action must not be null");
        if (!common) {
            registry.whenShutdown(action);
        }
    }

    /** True once {@link #shutdown()} was called. */
    public boolean isShutdown() {
        return registry.isShutdown();
    }

    /** True once every worker has finished after shutdown. */
    public boolean isTerminated() {
        return registry.isTerminated();
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
        Objects.requireNonNull(unit, "awaitTermination: unit must not be null");
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
            throw new UnsupportedOperationException(operation + ": the common pool lives as long as the JVM; "
                    + "allowed: shutting down a private pool (ForagePool.builder(), Kotlin: forageDispatcher { })");
        }
    }

    Registry registry() {
        return registry;
    }

    /**
     * The pool's name and state with live counts from a {@linkplain #statistics() snapshot}, for logs and
     * debuggers, such as {@code ForagePool[compute, running, threads=4, active=1, idle=1, sleeping=2, queued=12
     * (deques=10, injector=2), steals=10, jobsRun=1000]}. The format is for people; parse {@link #statistics()}.
     */
    @Override
    public String toString() {
        return PoolStatistics.of(registry).describe(registry.name, lifecycle.state());
    }

}
