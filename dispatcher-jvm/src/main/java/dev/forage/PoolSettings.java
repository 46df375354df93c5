package dev.forage;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * What a pool is built from, as the engine reads it: {@link Registry} and its parts take their settings from here
 * and never from the public builder, which holds one and fills its fields after checking each value
 * ({@link ForagePoolBuilder}).
 */
final class PoolSettings {
    int threads = Runtime.getRuntime().availableProcessors();
    /** 0: the thread count ({@code maxParallelism}). */
    int maxParallelism;
    String name;
    boolean daemon = true;
    ThreadFactory threadFactory;
    Thread.UncaughtExceptionHandler handler;
    /** The builder's choice, which {@link #sleepFactory} builds; the engine reads only the factory. */
    SleepProtocol sleepProtocol = SleepProtocol.JEC;
    /** How long marl's spin phase runs in front of {@link #sleepProtocol}; negative: the protocol's own default. */
    long spinForWorkNanos = -1L;
    /**
     * What builds the pool's sleep protocol from the two fields above; the builder sets it when it builds the pool,
     * so the engine never names a comparison baseline.
     */
    Sleep.Factory sleepFactory;
    Clock clock = Clock.SYSTEM;
    /** Negative: {@code DEFAULT_MAX_BLOCKING_THREADS} or the thread count, whichever is larger. */
    int maxBlockingThreads = -1;
    long blockingKeepAliveNanos = TimeUnit.SECONDS.toNanos(60);
    /** 0: workers never retire. */
    long keepAliveNanos = DEFAULT_KEEP_ALIVE_NANOS;
    boolean ioWorkers;
    /** Whether {@code ioTakeover} was called, which needs {@link #ioWorkers}. */
    boolean ioTakeoverSet;
    /** The default of {@code keepAlive}: 60 seconds. */
    static final long DEFAULT_KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** The pool's tunables: the defaults, or what {@code tune} and {@code longJobThreshold} set. */
    Tuning tuning = Tuning.DEFAULTS;
    int queueCapacity = WorkDeque.DEFAULT_CAPACITY;
    QueueFullPolicy queueFullPolicy = QueueFullPolicy.REJECT;
    /** Null: tasks are queued as submitted. */
    ForageTaskDecorator taskDecorator;
    /** Whether one submission in {@code QueueWaitHistogram.SAMPLE_EVERY} is timed from submission to start. */
    boolean queueWaitSampling = true;
    /** Null: none. */
    ForageThreadHook onThreadStart;
    ForageThreadHook onThreadStop;
}
