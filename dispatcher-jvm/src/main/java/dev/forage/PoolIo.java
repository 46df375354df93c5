package dev.forage;

import java.nio.channels.SelectableChannel;

/**
 * The engine's one way to socket IO: the worker loop, the registry and the runner reach IO only through this
 * interface, and never ask which kind of pool they are in. A pool built with {@link ForagePoolBuilder#ioWorkers()}
 * gets selectors (each core worker owns a reactor and parks in its select; {@code docs/io.md}); every other pool
 * gets IO that refuses socket IO with a message naming {@code ioWorkers()}. The builder's assembly picks one.
 *
 * <p>Worker indexes count every slot of the pool, core workers first; the extra slots that stand in for blocked
 * workers own no channels.
 */
interface PoolIo {
    /** {@link ForagePool#hasIoWorkers()}. */
    boolean hasIoWorkers();

    /**
     * Whether worker {@code index} owns a selector to look at: a core worker of a pool with IO workers. The extra
     * slots that stand in for blocked workers own none.
     */
    boolean ownsSelector(int index);

    /**
     * One parker per worker slot, {@code slots} of them: how each worker blocks and is woken. An IO worker's parks
     * in its reactor's select.
     */
    Parker[] parkers(int slots);

    /**
     * {@link ForagePool#awaitReadiness} with non-null arguments, from {@code caller} (this pool's worker running
     * the calling thread, or null): checks the rest, picks the channel's owner and hands it the wait.
     */
    IoWait awaitReadiness(Worker caller, SelectableChannel channel, int op, ReadinessListener listener);

    /**
     * Worker {@code index}'s thread, busy, every {@link Tunable#IO_POLL_INTERVAL} jobs: looks for readiness without
     * blocking and tells the listeners of the waits that ended.
     */
    void poll(int index);

    /**
     * Worker {@code index}'s thread, after each idle round of its loop: tells the listeners of the waits that ended
     * while it slept, now that the sleep protocol counts it awake.
     */
    void awake(int index);

    /**
     * Whether an idle core worker may retire its thread ({@code docs/lifecycle.md}, retirement). An IO worker may not: its thread
     * owns its selector, and a retired thread would see no readiness.
     */
    boolean workersMayRetire();

    /**
     * Core worker {@code w}'s thread, once, after shutdown, when it left its loop and before it drains: every
     * pending wait of its channels fails, and the jobs their listeners submit are accepted (drained next).
     */
    void workerStopped(Worker w);

    /** Core worker {@code index} never got a running thread (starting the pool failed): releases what it holds. */
    void workerNeverRan(int index);

    /**
     * Once per core worker, after the workers are made and before any starts: the statistics where the IO events
     * of worker {@code index}'s thread are counted ({@link PoolCounter#IO_TAKEOVERS}).
     */
    void countInto(int index, WorkerStatistics counters);
}
