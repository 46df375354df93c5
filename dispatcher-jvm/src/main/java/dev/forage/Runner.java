package dev.forage;

/**
 * How a pool's workers get a thread, and everything that depends on it: the threaded runner gives each worker
 * a thread of its own; the caller-runs runner (marl's single-threaded mode) has one worker and no threads, and runs
 * it on whichever thread waits in the pool. The registry and the worker loop are the same for both; every
 * difference between the modes is behind this interface.
 */
interface Runner {
    /** Worker threads: 0 when callers run the pool; else the run-time parallelism ({@link #setParallelism}). */
    int threads();

    /** The most worker threads {@link #setParallelism} allows: 0 when callers run the pool. */
    int maxParallelism();

    /**
     * {@link ForagePool#setParallelism}: the core workers in use become {@code parallelism};
     * returns the parallelism before. The caller-runs mode has none to change and refuses.
     */
    int setParallelism(int parallelism);

    /** Starts the workers; called once, after the registry is complete. */
    void start();

    /**
     * Worker {@code w}'s thread submits {@code job} ({@code execute}, {@code Scope.spawn}), shutdown checks done:
     * where it goes fixes the order jobs run in. With threads: on {@code w}'s own deque (LIFO,
     * stealable); caller-runs: at the back of the injector, so that jobs run in submission order.
     */
    void submit(Worker w, Runnable job);

    /**
     * Worker {@code w}'s thread submits {@code job} to run behind the jobs already queued
     * ({@link ForagePool#executeFair}), shutdown checks done.
     */
    void submitBehindQueued(Worker w, Runnable job);

    /**
     * The calling thread is not one of this pool's workers ({@link Registry#inWorker}): runs {@code op} on one and
     * returns its result. {@code caller} is the caller's worker in another pool (Rayon's {@code in_worker_cross}:
     * it keeps working there while it waits) or null (a plain thread, {@code in_worker_cold}: it blocks).
     * {@code task} is the user's object behind {@code op}, which diagnostics name ({@link TaskWrapper}).
     */
    <T> T inWorkerOutside(Worker caller, Object task, WorkerOp<T> op);

    /** A new latch owned by {@code owner}, for a wait inside the pool ({@code ForageLatch}, {@code scope}). */
    SpinLatch newLatch(Worker owner);

    /**
     * Waits on {@code latch}, owned by {@code owner}, as its owner thread: runs jobs until it is set or
     * {@code deadline} (the pool's clock) passes; returns whether it is set.
     */
    boolean awaitLatch(Worker owner, SpinLatch latch, long deadline);

    /** Whether a worker's thread retired ({@code docs/lifecycle.md}, retirement): the read P3 makes after every post. */
    boolean anyRetired();

    /** P3: brings one retired worker back with a new thread, unless another post already took them all. */
    void restartRetired();

    /** The SHUTDOWN bit was just set; with {@code now}, queued jobs were removed and workers must stop soon. */
    void shutdownStarted(boolean now);

    /** After shutdown, the last pending timer was cancelled: a worker staying only for timers may retire. */
    void lastTimerCancelled();

    /**
     * Waits until the pool terminated or {@code timeoutNanos} passed; returns whether it terminated. Once true,
     * no thread of the pool is alive.
     */
    boolean awaitTermination(long timeoutNanos) throws InterruptedException;

    /**
     * Worker {@code w}'s thread (its owner) enters a blocking section: the runner keeps the pool's parallelism, if
     * it can, with another thread. Sections nest; each enter is followed by one {@link #exitBlocking}.
     */
    void enterBlocking(Worker w);

    /**
     * Worker {@code w}'s thread, not in a blocking section, is about to block until a latch is set: enters a
     * blocking section if a stand-in thread can keep the pool's parallelism meanwhile, and returns true; returns
     * false, in no section, if none can (the caller then keeps running jobs while it waits).
     */
    boolean enterBlockingWithStandIn(Worker w);

    /** Worker {@code w}'s thread leaves the blocking section it entered last. */
    void exitBlocking(Worker w);

    /** The threads right now, for statistics: blocking sections, stand-ins, retirement, the monitor's finds. */
    ThreadGauges threadGauges();

    /** Code that runs on a worker of the pool, given that worker. */
    interface WorkerOp<T> {
        T run(Worker worker);
    }
}
