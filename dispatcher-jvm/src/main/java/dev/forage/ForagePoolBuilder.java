package dev.forage;

import dev.forage.internal.sleep.Counters;
import dev.forage.internal.sleep.JecSleep;
import dev.forage.internal.sleep.SleepStrategy;
import java.util.concurrent.ThreadFactory;
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
 * }</pre>
 *
 * Every setter checks its argument at once and throws {@link IllegalArgumentException} or
 * {@link NullPointerException} with the allowed values; a builder can build several pools.
 */
public final class ForagePoolBuilder {
    /** The most workers a pool can have: the sleep protocol packs thread counts into 16-bit fields. */
    public static final int MAX_THREADS = Counters.THREADS_MAX;

    private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

    private int threads = Runtime.getRuntime().availableProcessors();
    private String name;
    private boolean daemon = true;
    private ThreadFactory threadFactory;
    private Thread.UncaughtExceptionHandler handler;

    ForagePoolBuilder() {
    }

    /**
     * The number of worker threads, from 1 to {@value #MAX_THREADS}. More workers than cores is allowed (they
     * sleep when idle).
     */
    public ForagePoolBuilder threads(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads);
        }
        this.threads = threads;
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
        this.name = name;
        return this;
    }

    /** Whether workers are daemon threads (they do not keep the JVM alive). Default true. */
    public ForagePoolBuilder daemon(boolean daemon) {
        this.daemon = daemon;
        return this;
    }

    /**
     * Creates the worker threads instead of the pool; it must return a new, unstarted thread that runs the
     * given {@link Runnable}. When set, the thread's name and daemon flag are the factory's choice. Workers
     * made by a factory are found through a thread-local, which costs a few nanoseconds per submission.
     */
    public ForagePoolBuilder threadFactory(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException("threadFactory must not be null");
        }
        this.threadFactory = factory;
        return this;
    }

    /**
     * Receives the exceptions of fire-and-forget jobs ({@link ForagePool#execute}); default: the worker
     * thread's own handler (which prints the stack trace unless a default handler is installed).
     */
    public ForagePoolBuilder uncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) {
        if (handler == null) {
            throw new NullPointerException("uncaughtExceptionHandler must not be null");
        }
        this.handler = handler;
        return this;
    }

    /** Builds and starts the pool. */
    public ForagePool build() {
        return new ForagePool(buildRegistry(new JecSleep(threads)), false);
    }

    Registry buildRegistry(SleepStrategy sleep) {
        String poolName = name != null ? name : "forage-" + POOL_NUMBER.incrementAndGet();
        return new Registry(poolName, threads, sleep, threadFactory, daemon, handler);
    }
}
