package dev.forage;

import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Configures and builds a private {@link ForagePool}.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .threads(8)                       // default: available processors
 *         .name("render")                   // threads are render-worker-0, render-worker-1, ...
 *         .daemon(true)                     // default: true, like ForkJoinPool and Dispatchers.Default
 *         .uncaughtExceptionHandler((t, e) -> log.error("job failed on " + t.getName(), e))
 *         .build();
 *
 * ForagePool deterministic = ForagePool.builder().singleThreaded().build(); // no threads: callers run jobs
 * }</pre>
 *
 * Every setter checks its argument at once and throws {@link IllegalArgumentException} or
 * {@link NullPointerException} with the allowed values; a builder can build several pools.
 */
public final class ForagePoolBuilder {
    /** The most workers a pool can have: the sleep protocol packs thread counts into 16-bit fields. */
    public static final int MAX_THREADS = JecCounters.THREADS_MAX;
    /**
     * The default of {@link #maxBlockingThreads}, when the pool has fewer threads: 64, the default parallelism of
     * kotlinx.coroutines' {@code Dispatchers.IO}.
     */
    public static final int DEFAULT_MAX_BLOCKING_THREADS = 64;
    /** The default and largest {@link #queueCapacity}, 2^22 jobs ({@code docs/lifecycle.md} says why). */
    public static final int MAX_QUEUE_CAPACITY = WorkDeque.DEFAULT_CAPACITY;

    private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

    /** What the pool is built from: each setter checks its value and writes it here; the engine reads only this. */
    final PoolSettings settings = new PoolSettings();

    ForagePoolBuilder() {
    }

    /**
     * The number of worker threads, from 1 to {@value #MAX_THREADS}. More workers than cores is allowed (they
     * sleep when idle). For a pool without threads, use {@link #singleThreaded()}.
     */
    public ForagePoolBuilder threads(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads
                    + (threads == 0 ? "; for a pool without threads whose jobs run on the waiting caller, use "
                            + "singleThreaded()" : ""));
        }
        settings.threads = threads;
        return this;
    }

    /**
     * The most worker threads {@link ForagePool#setParallelism} may give the pool later, from the thread count to
     * {@value #MAX_THREADS}; default: the thread count, so a pool can shrink and grow back to its size. Every core
     * worker (its deque, counters and sleep state) is made when the pool is built, in use or not, so reserve only
     * the room you may use. Not with {@link #singleThreaded()} or {@link #ioWorkers()}. See {@code docs/lifecycle.md}.
     */
    public ForagePoolBuilder maxParallelism(int max) {
        if (max < 1 || max > MAX_THREADS) {
            throw new IllegalArgumentException("maxParallelism must be between 1 and " + MAX_THREADS + ", was " + max);
        }
        settings.maxParallelism = max;
        return this;
    }

    /**
     * A pool with zero worker threads (marl's single-threaded mode): its jobs run on the threads that wait in it
     * ({@code join}, {@code scope}, {@code install}, {@link ForageLatch#await()}, {@link ForagePool#runPending()}),
     * in submission order. Deterministic, and usable where no threads may be started. See {@link ForagePool},
     * "Single-threaded pools". A later {@link #threads(int)} call turns it back into a pool with threads.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().singleThreaded().build();
     * int sum = pool.install(() -> pool.join(() -> 1, () -> 2).first() + 3);  // runs on this thread
     * }</pre>
     */
    public ForagePoolBuilder singleThreaded() {
        settings.threads = 0;
        return this;
    }

    /**
     * How idle workers sleep and wake; default {@link SleepProtocol#JEC}, the production protocol. The other
     * values are comparison baselines, for measuring against: see {@link SleepProtocol} and
     * {@code docs/sleep-strategies.md}.
     */
    public ForagePoolBuilder sleepProtocol(SleepProtocol protocol) {
        if (protocol == null) {
            throw new NullPointerException("sleepProtocol must not be null; the default is SleepProtocol.JEC");
        }
        settings.sleepProtocol = protocol;
        return this;
    }

    /**
     * For tests and measurements: marl's spin-for-work phase in front of the selected protocol, this long (0: none).
     * Default: {@code forage.spinForWorkNanos} (50 µs) for {@link SleepProtocol#MARL_SPIN}, none for the others.
     */
    ForagePoolBuilder spinForWorkNanos(long nanos) {
        if (nanos < 0 || nanos > TimeUnit.SECONDS.toNanos(1)) {
            throw new IllegalArgumentException("spinForWorkNanos must be between 0 (no spin phase) and "
                    + TimeUnit.SECONDS.toNanos(1) + " (one second), was " + nanos);
        }
        settings.spinForWorkNanos = nanos;
        return this;
    }

    /** The pool's name and its threads' name prefix ({@code name-worker-N}); default {@code forage-K}. */
    public ForagePoolBuilder name(String name) {
        if (name == null) {
            throw new NullPointerException("name must not be null");
        }
        if (name.trim().isEmpty()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        settings.name = name;
        return this;
    }

    /** Whether workers are daemon threads (they do not keep the JVM alive). Default true. */
    public ForagePoolBuilder daemon(boolean daemon) {
        settings.daemon = daemon;
        return this;
    }

    /**
     * Creates the worker threads instead of the pool; it must return a new, unstarted thread that runs the
     * given {@link Runnable}. When set, the thread's name and daemon flag are the factory's choice. Workers
     * made by a factory are found through a thread-local, which costs a few nanoseconds per submission. A factory
     * that throws, returns null or returns a thread it started already fails {@link #build()} with an
     * {@link IllegalStateException} (for a later thread, a stand-in or a retired worker's return, the failure
     * goes to the pool's handler and the pool goes on without it); a started thread never runs a worker.
     */
    public ForagePoolBuilder threadFactory(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException("threadFactory must not be null");
        }
        settings.threadFactory = factory;
        return this;
    }

    /**
     * Receives the exceptions of fire-and-forget jobs ({@link ForagePool#execute}); default: the worker
     * thread's own handler (which prints the stack trace unless a default handler is installed). A handler that
     * throws kills no worker and loses no job; both its failure and the one it was given go to
     * {@code System.err}, as the JVM reports a throwing handler of its own threads.
     */
    public ForagePoolBuilder uncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) {
        if (handler == null) {
            throw new NullPointerException("uncaughtExceptionHandler must not be null");
        }
        settings.handler = handler;
        return this;
    }

    /**
     * The most threads that stand in for blocked workers at once, and the parallelism of the pool's
     * {@link ForagePool#blockingExecutor() blocking executor} and of the Kotlin blocking dispatcher; 0 to
     * {@value #MAX_THREADS} minus the thread count. Default: {@value #DEFAULT_MAX_BLOCKING_THREADS} or the thread
     * count, whichever is larger, as for {@code Dispatchers.IO}. With 0, a blocking section just blocks its worker
     * and the blocking executor takes no tasks. See {@link ForagePool#managedBlock(Callable)}.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().threads(8).maxBlockingThreads(200).build();  // a JDBC-heavy service
     * }</pre>
     */
    public ForagePoolBuilder maxBlockingThreads(int max) {
        if (max < 0 || max > MAX_THREADS - 1) {
            throw new IllegalArgumentException("maxBlockingThreads must be between 0 and " + (MAX_THREADS - 1)
                    + " (and at most " + MAX_THREADS + " minus the thread count), was " + max);
        }
        settings.maxBlockingThreads = max;
        return this;
    }

    /**
     * How long a worker thread stays idle before it ends; default 60 seconds, as {@code ForkJoinPool}'s keep-alive
     * and kotlinx's {@code CoroutineScheduler}. The worker itself stays: the next job submitted to the pool starts a
     * thread for it again, through the same path that wakes a sleeping worker, so an idle pool (or one dropped
     * without {@code close()}) holds no threads, and a pool used now and then pays one thread start per keep-alive.
     * At least one millisecond; see {@link #keepAliveForever()}. IO workers ({@link #ioWorkers()}) keep their
     * threads, which own their selectors.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().keepAlive(10, TimeUnit.SECONDS).build();
     * }</pre>
     */
    public ForagePoolBuilder keepAlive(long time, TimeUnit unit) {
        settings.keepAliveNanos = atLeastOneMilli("keepAlive", time, unit,
                "; to keep idle workers forever, call keepAliveForever()");
        return this;
    }

    /**
     * Idle worker threads never end (until the pool shuts down): for latency-critical pools whose first job after a
     * quiet period must not pay a thread start.
     */
    public ForagePoolBuilder keepAliveForever() {
        settings.keepAliveNanos = 0L;
        return this;
    }

    /**
     * How long a thread that stood in for a blocked worker waits for the next blocking section before it ends;
     * default 60 seconds, as for {@code Dispatchers.IO} and {@code ForkJoinPool}. At least one millisecond.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().blockingKeepAlive(5, TimeUnit.SECONDS).build();
     * }</pre>
     */
    public ForagePoolBuilder blockingKeepAlive(long time, TimeUnit unit) {
        settings.blockingKeepAliveNanos = atLeastOneMilli("blockingKeepAlive", time, unit, "");
        return this;
    }

    /**
     * IO workers (EMPER's IO sleep): each worker owns a NIO {@link java.nio.channels.Selector} and an idle worker
     * sleeps in {@code select}, so that new work and socket readiness wake the same thread. Channels then wait for
     * readiness on the pool itself ({@link ForagePool#awaitReadiness}; from Kotlin, {@code readSuspending},
     * {@code acceptSuspending} and the other functions of {@code dev.forage.coroutines}), and the worker that sees
     * a socket ready runs what the readiness resumes, on its own deque: one pool for accept, IO and compute, with
     * no selector thread handing work to the pool. Needs worker threads and the default sleep protocol
     * ({@link SleepProtocol#JEC}). See {@code docs/io.md}.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().ioWorkers().name("server").build();
     * pool.awaitReadiness(serverChannel, SelectionKey.OP_ACCEPT, listener);
     * }</pre>
     */
    public ForagePoolBuilder ioWorkers() {
        settings.ioWorkers = true;
        return this;
    }

    /**
     * IO workers only: lets an IO worker that is idle, or between jobs, serve a neighbour's channels once that
     * neighbour has left them unwatched for {@code time} (it runs a long job, or the OS descheduled it), instead of the
     * channels waiting for their own worker as they do on Netty's event loops. A whole number of milliseconds from 0
     * (off, the default) to 60 000. It pays where handlers run jobs of milliseconds on the IO workers and the other
     * connections of that worker must not wait for them; it costs the others: a sleeping IO worker wakes to look at its
     * neighbours every {@code time} while one runs with waits pending, and up to every 16 ms while they only have
     * connections, and served connections run, for a while, on a worker whose cache does not hold them.
     * {@code docs/io.md}, section 6, has the protocol; {@code docs/benchmarks.md}, "Selector takeover", its cost.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().ioWorkers().ioTakeover(1, TimeUnit.MILLISECONDS).build();
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code time} is negative, above 60 000 ms or not whole milliseconds;
     *     {@link #build()} throws it if the pool has no {@link #ioWorkers()}
     */
    public ForagePoolBuilder ioTakeover(long time, TimeUnit unit) {
        settings.tuning = settings.tuning.withMillis(Tunable.IO_TAKEOVER_MILLIS, "ioTakeover", " (off)", time, unit);
        settings.ioTakeoverSet = true;
        return this;
    }

    /**
     * Wraps every task submitted to the pool, on the submitting thread, before it is queued, as Spring's
     * {@code TaskDecorator} does: the place to capture a logging MDC, a tracing context or a security context and
     * restore it on the worker. Which submissions are decorated (and why {@code join} halves and scope spawns are
     * not), and the decorator's contract: {@link ForageTaskDecorator}. Default: none.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder()
     *         .taskDecorator(task -> Context.current().wrap(task))   // OpenTelemetry: the span follows the task
     *         .build();
     * }</pre>
     */
    public ForagePoolBuilder taskDecorator(ForageTaskDecorator decorator) {
        if (decorator == null) {
            throw new NullPointerException("taskDecorator must not be null; a pool without a decorator queues tasks "
                    + "as they are submitted (do not call taskDecorator)");
        }
        settings.taskDecorator = decorator;
        return this;
    }

    /**
     * Whether the pool times how long submitted jobs wait before they start ({@link PoolStatistics#queueWait()},
     * the {@code forage.pool.queue.wait} meters of {@code ForagePoolMetrics}, the {@code dev.forage.QueueWait} JFR event).
     * On by default: one submission in {@value QueueWaitHistogram#SAMPLE_EVERY} carries its submission time, which
     * costs the others a decrement of the submitting worker's countdown (one random number from another thread).
     * Off, a submission is queued with no test for sampling at all, and the histogram stays empty: for a pool whose
     * every nanosecond per submission counts and whose queue waits are watched some other way.
     *
     * <pre>{@code
     * ForagePool compute = ForagePool.builder().queueWaitSampling(false).build();
     * compute.statistics().queueWait().samples(); // 0, however many jobs ran
     * }</pre>
     */
    public ForagePoolBuilder queueWaitSampling(boolean enabled) {
        settings.queueWaitSampling = enabled;
        return this;
    }

    /**
     * Runs on each thread of the pool as it starts, before its first job: every worker thread (again when a worker
     * that retired gets a new one) and every stand-in of a blocking section. See {@link ForageThreadHook}.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().onThreadStart(t -> ThreadLocals.setUp()).build();
     * }</pre>
     */
    public ForagePoolBuilder onThreadStart(ForageThreadHook hook) {
        if (hook == null) {
            throw new NullPointerException("onThreadStart: hook must not be null; a pool without one runs none");
        }
        settings.onThreadStart = hook;
        return this;
    }

    /**
     * Runs on each thread of the pool as it ends, after its last job and before the pool counts it ended, so that
     * {@code awaitTermination} returning true means the threads that ran at shutdown ran theirs. See
     * {@link ForageThreadHook}.
     *
     * <pre>{@code
     * ForagePool pool = ForagePool.builder().onThreadStop(t -> ThreadLocals.tearDown()).build();
     * }</pre>
     */
    public ForagePoolBuilder onThreadStop(ForageThreadHook hook) {
        if (hook == null) {
            throw new NullPointerException("onThreadStop: hook must not be null; a pool without one runs none");
        }
        settings.onThreadStop = hook;
        return this;
    }

    /** For tests: the pool's time (timer deadlines, timed waits inside the pool). */
    ForagePoolBuilder clock(Clock clock) {
        if (clock == null) {
            throw new NullPointerException("clock must not be null");
        }
        settings.clock = clock;
        return this;
    }

    /** A keep-alive in nanoseconds, checked: {@code unit} not null, at least one millisecond. */
    private static long atLeastOneMilli(String setting, long time, TimeUnit unit, String hint) {
        if (unit == null) {
            throw new NullPointerException(setting + ": unit must not be null");
        }
        long nanos = unit.toNanos(time);
        if (nanos < TimeUnit.MILLISECONDS.toNanos(1)) {
            throw new IllegalArgumentException(setting + " must be at least 1 ms, was " + time + " " + unit + hint);
        }
        return nanos;
    }

    /**
     * A job that runs at least this long is reported as a {@code dev.forage.LongJob} event to JDK Flight Recorder,
     * while a recording enables that event ({@code docs/observability.md}, "JFR events"). Default 100 ms, or the
     * system property {@code forage.jfr.longJobMillis}; from 0 to {@link Integer#MAX_VALUE} milliseconds. A pool
     * whose jobs are meant to be short (a request-handling pool) wants a lower threshold than one that runs batch
     * work; each pool has its own. Jobs are timed only while a recording wants the event.
     *
     * <pre>{@code
     * ForagePool requests = ForagePool.builder().name("requests").longJobThreshold(5, TimeUnit.MILLISECONDS).build();
     * }</pre>
     */
    public ForagePoolBuilder longJobThreshold(long time, TimeUnit unit) {
        settings.tuning = settings.tuning.withMillis(Tunable.JFR_LONG_JOB_MILLIS, "longJobThreshold", "", time, unit);
        return this;
    }

    /**
     * Blocking calls without {@code managedBlock}: a worker that stays in one job this long while its thread hardly
     * runs (a {@code Thread.sleep}, a lock, {@code Object.wait}, a foreign {@code future.get()}, a blocking socket
     * read) is counted blocked by the pool's monitor, and a stand-in thread takes its place, within
     * {@link #maxBlockingThreads}, until the job runs again; the stand-in then leaves and retires after
     * {@link #blockingKeepAlive}. A whole number of milliseconds from 1 to 60 000, or 0 to turn detection off.
     * On by default at 10 ms (or as the system property {@code forage.blockedJobMillis} says): calls of a few
     * milliseconds are left alone, and a nested {@code future.get()} on a small pool, which would otherwise wait
     * for ever for a job queued behind it, returns. The monitor samples only while jobs wait and no worker is idle
     * to take them, so a pool at low load, or one whose jobs never block, pays nothing for it. Calls marked with
     * {@link ForagePool#managedBlock} or {@code ForageBlocking} get their stand-in at once either way. A blocked job
     * gets its stand-in two to three thresholds after a job queues behind it; see {@code docs/monitor.md} for what
     * it costs and its false positives.
     *
     * <pre>{@code
     * ForagePool jdbc = ForagePool.builder().blockingDetection(50, TimeUnit.MILLISECONDS).build(); // slower calls
     * ForagePool compute = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).build(); // off
     * }</pre>
     */
    public ForagePoolBuilder blockingDetection(long time, TimeUnit unit) {
        settings.tuning = settings.tuning.withMillis(Tunable.BLOCKED_JOB_MILLIS, "blockingDetection", " (off)", time,
                unit);
        return this;
    }

    /**
     * For tests and measurements: sets one tunable of this pool ({@link Tunable} documents each, with its range and
     * the system property that seeds its default), instead of a JVM-wide system property.
     *
     * @throws IllegalArgumentException if {@code value} is outside the tunable's range; the message says which
     */
    ForagePoolBuilder tune(Tunable tunable, long value) {
        if (tunable == null) {
            throw new NullPointerException("tunable must not be null");
        }
        settings.tuning = settings.tuning.with(tunable, value);
        return this;
    }

    /**
     * The most jobs that wait in the pool's queue for a worker, from 1 to 2^22 ({@value #MAX_QUEUE_CAPACITY}, the
     * default): the backlog you accept, as for a {@code ThreadPoolExecutor}'s bounded queue, before a submission
     * from outside is refused or run by its caller ({@link #whenQueueFull}). Each worker's deque (the jobs its
     * running jobs fork) holds the bound rounded up to a power of two, at least 64. {@code docs/lifecycle.md},
     * "Queue capacity", says how exact the bound is. For example {@code builder.queueCapacity(1_000)}.
     *
     * @throws IllegalArgumentException if {@code jobs} is less than 1 or more than 2^22
     */
    public ForagePoolBuilder queueCapacity(int jobs) {
        settings.queueCapacity = QueueBound.checkedCapacity(jobs);
        return this;
    }

    /**
     * What a submission from outside the pool does when the queue is full: {@link QueueFullPolicy#REJECT}, the
     * default, or {@link QueueFullPolicy#CALLER_RUNS}, whose page has an example and says which submissions it
     * covers. For example {@code builder.queueCapacity(10_000).whenQueueFull(QueueFullPolicy.CALLER_RUNS)}.
     *
     * @throws NullPointerException if {@code policy} is null
     */
    public ForagePoolBuilder whenQueueFull(QueueFullPolicy policy) {
        if (policy == null) {
            throw new NullPointerException("whenQueueFull: policy must not be null; allowed: [REJECT, CALLER_RUNS]");
        }
        settings.queueFullPolicy = policy;
        return this;
    }

    /** Builds and starts the pool. */
    public ForagePool build() {
        return new ForagePool(buildRegistry(), false);
    }

    /** The pool's engine, not started: its face starts it ({@link Registry#start}). */
    Registry buildRegistry() {
        if (settings.ioWorkers && settings.threads == 0) {
            throw new IllegalArgumentException("ioWorkers() needs worker threads, and singleThreaded() asks for none; "
                    + "allowed: ioWorkers() with threads(n), n >= 1");
        }
        if (settings.ioTakeoverSet && !settings.ioWorkers) {
            throw new IllegalArgumentException("ioTakeover(...) applies to IO workers, and this pool has none; "
                    + "allowed: ioTakeover(...) together with ioWorkers()");
        }
        if (settings.ioWorkers && settings.sleepProtocol != SleepProtocol.JEC) {
            throw new IllegalArgumentException("ioWorkers needs SleepProtocol.JEC (the default), was "
                    + settings.sleepProtocol + ": the baselines sleep on their own lock, not in a selector");
        }
        settings.tuning.checked();
        settings.sleepFactory = SleepProtocols.factory(settings.sleepProtocol, settings.spinForWorkNanos);
        String poolName = settings.name != null ? settings.name : "forage-" + POOL_NUMBER.incrementAndGet();
        int slots = Math.max(settings.threads, Resize.checkMax(settings)); // core workers: every one made now
        int maxBlocking = settings.maxBlockingThreads >= 0 ? settings.maxBlockingThreads
                : Math.min(Math.max(DEFAULT_MAX_BLOCKING_THREADS, settings.threads), MAX_THREADS - slots);
        if (slots + maxBlocking > MAX_THREADS) {
            throw new IllegalArgumentException("threads (" + slots + ", maxParallelism included) plus "
                    + "maxBlockingThreads (" + maxBlocking + ") must be at most " + MAX_THREADS);
        }
        return new Registry(settings, poolName, maxBlocking, new PoolParts(settings));
    }
}
