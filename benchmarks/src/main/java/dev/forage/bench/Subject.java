package dev.forage.bench;

import dev.forage.ForagePool;
import dev.forage.ForagePoolBuilder;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import kotlinx.coroutines.CoroutineDispatcher;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.ExecutorsKt;

/**
 * One scheduler under test: how to build it with a given thread count, what it can run (plain executor jobs,
 * fork-join, coroutines), and the name prefix of its threads (the CPU scenarios sum the CPU time of exactly
 * those threads). Subjects are listed in {@link Subjects}; adding one is one line there.
 */
public final class Subject {
    /** What a scenario needs from a subject. */
    public enum Capability {
        /** {@link java.util.concurrent.Executor#execute} from inside and outside. */
        EXECUTOR,
        /** Fork-join recursion: Forage {@code join} or {@code RecursiveTask}. */
        FORK_JOIN,
        /** A kotlinx {@code CoroutineDispatcher}. */
        COROUTINES
    }

    /** The scheduler families; each has its own way to be built. */
    public enum Kind {
        FORAGE, FORK_JOIN_POOL, COMMON_POOL, DEFAULT_DISPATCHER, FIXED_POOL
    }

    private final String id;
    private final String label;
    private final Kind kind;
    private final UnaryOperator<ForagePoolBuilder> forageOptions;
    private final Function<ForagePool, CoroutineDispatcher> forageDispatcher;

    private Subject(String id, String label, Kind kind, UnaryOperator<ForagePoolBuilder> forageOptions,
            Function<ForagePool, CoroutineDispatcher> forageDispatcher) {
        this.id = id;
        this.label = label;
        this.kind = kind;
        this.forageOptions = forageOptions;
        this.forageDispatcher = forageDispatcher;
    }

    /**
     * A Forage pool configured by {@code options} (for example a sleep strategy). {@code dispatcher} turns the
     * pool into Forage's coroutine dispatcher; null when this build has none, and then the subject runs no
     * coroutine scenario.
     */
    public static Subject forage(String id, String label, UnaryOperator<ForagePoolBuilder> options,
            Function<ForagePool, CoroutineDispatcher> dispatcher) {
        return new Subject(id, label, Kind.FORAGE, options, dispatcher);
    }

    public static Subject of(String id, String label, Kind kind) {
        if (kind == Kind.FORAGE) {
            throw new IllegalArgumentException("use Subject.forage(...) for Forage subjects");
        }
        return new Subject(id, label, kind, null, null);
    }

    /** Short id used on the command line and in result lines, e.g. {@code forage-jec}. */
    public String id() {
        return id;
    }

    /** Human-readable name for tables and charts. */
    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    /** Forage subjects are measured; every other subject is an anchor. */
    public boolean isForage() {
        return kind == Kind.FORAGE;
    }

    public Set<Capability> capabilities() {
        switch (kind) {
            case FORAGE:
                return forageDispatcher != null
                        ? EnumSet.allOf(Capability.class)
                        : EnumSet.of(Capability.EXECUTOR, Capability.FORK_JOIN);
            case FORK_JOIN_POOL:
                return EnumSet.allOf(Capability.class);
            case COMMON_POOL:
                return EnumSet.of(Capability.EXECUTOR, Capability.FORK_JOIN);
            case DEFAULT_DISPATCHER:
            case FIXED_POOL:
                return EnumSet.of(Capability.EXECUTOR, Capability.COROUTINES);
            default:
                throw new AssertionError(kind);
        }
    }

    /**
     * JVM flags a fresh JVM needs so that this subject has {@code threads} workers: the common pool and
     * {@code Dispatchers.Default} are sized by system properties read once, at first use.
     */
    public static String[] sizingFlags(int threads) {
        return new String[] {
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=" + threads,
            "-Dkotlinx.coroutines.scheduler.core.pool.size=" + threads,
        };
    }

    /** Builds (or, for the shared schedulers, looks up) the scheduler. */
    public Running open(int threads) {
        switch (kind) {
            case FORAGE: {
                ForagePool pool = forageOptions.apply(ForagePool.builder().threads(threads).name("forage")).build();
                return Running.forage(this, threads, pool, forageDispatcher != null ? forageDispatcher.apply(pool) : null,
                        "forage-worker-");
            }
            case FORK_JOIN_POOL: {
                ForkJoinPool pool = new ForkJoinPool(threads, forkJoinThreads("fjp-worker-"), null, false);
                return Running.forkJoin(this, threads, pool, ExecutorsKt.from(pool), "fjp-worker-",
                        () -> shutdownAndWait(pool));
            }
            case COMMON_POOL: {
                ForkJoinPool pool = ForkJoinPool.commonPool();
                return Running.forkJoin(this, pool.getParallelism(), pool, null, "ForkJoinPool.commonPool-worker-",
                        () -> { });
            }
            case DEFAULT_DISPATCHER:
                // Dispatchers.Default's worker count: the sizing property if set, else its own default.
                int defaultThreads = Integer.getInteger("kotlinx.coroutines.scheduler.core.pool.size",
                        Math.max(2, Runtime.getRuntime().availableProcessors()));
                return Running.dispatcher(this, defaultThreads, ExecutorsKt.asExecutor(Dispatchers.getDefault()),
                        Dispatchers.getDefault(), "DefaultDispatcher-worker-", () -> { });
            case FIXED_POOL: {
                ExecutorService pool = Executors.newFixedThreadPool(threads, namedThreads("fixed-worker-"));
                return Running.dispatcher(this, threads, pool, ExecutorsKt.from(pool), "fixed-worker-",
                        () -> shutdownAndWait(pool));
            }
            default:
                throw new AssertionError(kind);
        }
    }

    private static void shutdownAndWait(ExecutorService pool) {
        pool.shutdown();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }

    private static ForkJoinPool.ForkJoinWorkerThreadFactory forkJoinThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName(prefix + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String toString() {
        return id;
    }
}
