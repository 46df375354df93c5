package dev.forage;

/**
 * The extensions a pool was configured with, made for its {@link Registry} as the registry's constructor asks for
 * them: its socket IO, its runner (the threads, or the caller-runs mode) with what {@code runPending} does, and its
 * monitor. The one place that names the concrete parts behind the core's seams ({@link PoolIo}, {@link Runner},
 * {@link PendingJobs}, {@link PoolWatch}); the core meets only those interfaces, so a pool that was not built with
 * IO workers, blocking stand-ins or caller-runs mode loads none of their classes' code on its paths.
 *
 * <p>Called in the order the registry's parts need each other: {@link #io}, then {@link #runner}, then
 * {@link #pendingJobs} and {@link #monitor}, which read the runner made here.
 */
final class PoolParts implements Registry.Extensions {
    private final PoolSettings settings;
    /** The threaded runner made by {@link #runner}, or null for a pool that callers run: the monitor's stand-ins. */
    private ThreadedRunner threaded;
    private CallerRunner callers;

    PoolParts(PoolSettings settings) {
        this.settings = settings;
    }

    /** {@link SelectorIo} for a pool with IO workers, {@link NoIo} for every other. */
    @Override
    public PoolIo io(String name, int coreWorkers, Tuning tuning, Thread.UncaughtExceptionHandler handler) {
        return settings.ioWorkers
                ? new SelectorIo(name, coreWorkers, tuning.get(Tunable.IO_CLOSED_CHECK_MILLIS),
                        tuning.get(Tunable.IO_TAKEOVER_MILLIS), handler)
                : new NoIo(name);
    }

    /**
     * A thread per core worker in use ({@link ThreadedRunner}), with {@code extraSlots} stand-ins for blocked
     * workers; or, for {@code threads == 0}, the caller-runs mode ({@link CallerRunner}).
     */
    @Override
    public Runner runner(Registry registry, int extraSlots) {
        if (settings.threads == 0) {
            callers = new CallerRunner(registry);
            return callers;
        }
        threaded = new ThreadedRunner(registry, settings.threads, settings.threadFactory, settings.daemon, extraSlots,
                settings.blockingKeepAliveNanos, settings.keepAliveNanos, new ThreadHooks(registry, settings));
        return threaded;
    }

    /** {@code runPending}: the caller-runs mode runs the queue; a pool with threads refuses. */
    @Override
    public PendingJobs pendingJobs(String name) {
        return callers != null ? callers : new PendingJobs.RunByWorkers(name, settings.threads);
    }

    /** The monitor; a pool that callers run has one that never starts (no threads to stand in with). */
    @Override
    public PoolWatch monitor(Registry registry) {
        return new Monitor(registry, threaded);
    }
}
