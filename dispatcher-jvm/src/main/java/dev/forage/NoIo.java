package dev.forage;

import java.nio.channels.SelectableChannel;

/**
 * The {@link PoolIo} of a pool without IO workers: workers park with {@code LockSupport}, own no channels, and
 * socket IO is refused with a message that says how to get it.
 */
final class NoIo implements PoolIo {
    private final String poolName;

    NoIo(String poolName) {
        this.poolName = poolName;
    }

    @Override
    public boolean hasIoWorkers() {
        return false;
    }

    @Override
    public Parker[] parkers(int slots) {
        return ThreadParker.forWorkers(slots);
    }

    @Override
    public IoWait awaitReadiness(Worker caller, SelectableChannel channel, int op, ReadinessListener listener) {
        throw new IllegalStateException("pool " + poolName + " has no IO workers; allowed: socket IO on a pool built "
                + "with ForagePool.builder().ioWorkers() (Kotlin: forageDispatcher { ioWorkers = true })");
    }

    /** No channels, so no readiness to look for. */
    @Override
    public void poll(int index) {
    }

    /** No channels, so no waits that could have ended. */
    @Override
    public void awake(int index) {
    }

    @Override
    public boolean ownsSelector(int index) {
        return false;
    }

    @Override
    public boolean workersMayRetire() {
        return true;
    }

    /** No waits to fail. */
    @Override
    public void workerStopped(Worker w) {
    }

    /** Nothing held. */
    @Override
    public void workerNeverRan(int index) {
    }

    @Override
    public void countInto(int index, WorkerStatistics counters) {
    }

    @Override
    public String toString() {
        return "NoIo[" + poolName + "]";
    }
}
