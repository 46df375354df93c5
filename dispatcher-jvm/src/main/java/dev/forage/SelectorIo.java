package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link PoolIo} of a pool built with {@link ForagePoolBuilder#ioWorkers()}: one {@link IoReactor} per core
 * worker, whose {@link SelectorParker} the worker parks in. This class decides which worker owns a channel
 * ({@code docs/io.md}, "Ownership"); each reactor does the rest on its owner's thread.
 *
 * <p>The extra slots that stand in for blocked workers park with {@code LockSupport} and own no channels: the
 * channels of coroutines they run belong to the core workers, like those of a coroutine off the pool.
 */
final class SelectorIo implements PoolIo {
    private final String poolName;
    /** One per core worker, by index. */
    private final IoReactor[] reactors;
    /**
     * Where the next channel that no selector knows yet goes: the reactors in turn, as Netty's event loop group
     * hands its loops to accepted channels. Keeping a new channel with the calling worker instead put every
     * connection of a one-acceptor server on the acceptor's worker; requests that arrived together then woke the
     * other worker to steal all but one of them, at every request ({@code docs/io.md}, "Ownership").
     */
    private final AtomicInteger nextOwner = new AtomicInteger();

    /**
     * Opens one selector per core worker; on failure, closes those opened so far. {@code listenerErrors} receives
     * a listener's exception (the pool's handler); {@code closedCheckMillis} and {@code takeoverMillis} are the
     * pool's {@link Tunable#IO_CLOSED_CHECK_MILLIS} and {@link Tunable#IO_TAKEOVER_MILLIS}.
     */
    SelectorIo(String poolName, int coreWorkers, long closedCheckMillis, long takeoverMillis,
            Thread.UncaughtExceptionHandler listenerErrors) {
        this.poolName = poolName;
        this.reactors = new IoReactor[coreWorkers];
        try {
            for (int i = 0; i < coreWorkers; i++) {
                reactors[i] = new IoReactor(poolName, i, closedCheckMillis, listenerErrors);
            }
        } catch (RuntimeException e) {
            for (IoReactor r : reactors) {
                if (r != null) {
                    r.closeSelector();
                }
            }
            throw e;
        }
        IoTakeover takeover = new IoTakeover(reactors, takeoverMillis);
        for (IoReactor r : reactors) {
            r.takeover = takeover;
        }
    }

    @Override
    public boolean hasIoWorkers() {
        return true;
    }

    @Override
    public Parker[] parkers(int slots) {
        Parker[] parkers = new Parker[slots];
        for (int i = 0; i < reactors.length; i++) {
            parkers[i] = reactors[i].parker();
        }
        int extra = slots - reactors.length;
        System.arraycopy(ThreadParker.forWorkers(extra), 0, parkers, reactors.length, extra);
        return parkers;
    }

    /**
     * Checks the arguments, finds the channel's owner (the reactor that has its key; for a channel no selector
     * knows yet, the next reactor in turn: {@link #nextOwner}) and hands it the wait.
     */
    @Override
    public IoWait awaitReadiness(Worker caller, SelectableChannel channel, int op, ReadinessListener listener) {
        if (Integer.bitCount(op) != 1 || (op & channel.validOps()) == 0) {
            throw new IllegalArgumentException("op " + op + " is not one operation that " + channel + " supports; "
                    + "allowed: one of SelectionKey.OP_READ, OP_WRITE, OP_CONNECT, OP_ACCEPT within its validOps() "
                    + channel.validOps());
        }
        if (!channel.isOpen()) {
            throw new IllegalArgumentException(channel + " is closed; allowed: waits on open channels");
        }
        if (channel.isBlocking()) {
            throw new IllegalArgumentException(channel + " is in blocking mode; allowed: non-blocking channels (call "
                    + "configureBlocking(false) first)");
        }
        IoReactor mine = caller != null ? reactor(caller.index) : null;
        IoReactor owner = null;
        if (mine != null && channel.keyFor(mine.selector) != null) {
            owner = mine;
        } else {
            for (IoReactor other : reactors) {
                if (channel.keyFor(other.selector) != null) {
                    owner = other;
                    break;
                }
            }
        }
        if (owner == null) {
            if (channel.isRegistered()) {
                throw new IllegalArgumentException(channel + " is already registered with a selector that is not "
                        + "pool " + poolName + "'s; allowed: a channel that no other selector knows");
            }
            owner = reactors[(nextOwner.getAndIncrement() & 0x7fffffff) % reactors.length];
        }
        IoWait wait = new IoWait(owner, channel, op, listener);
        owner.submit(wait);
        return wait;
    }

    @Override
    public void countInto(int index, WorkerStatistics counters) {
        IoReactor r = reactor(index);
        if (r != null) {
            r.counters = counters;
        }
    }

    @Override
    public void poll(int index) {
        IoReactor r = reactor(index);
        if (r != null) {
            r.poll();
        }
    }

    @Override
    public void awake(int index) {
        IoReactor r = reactor(index);
        if (r != null) {
            r.awake();
        }
    }

    @Override
    public boolean ownsSelector(int index) {
        return reactor(index) != null;
    }

    @Override
    public boolean workersMayRetire() {
        return false;
    }

    /**
     * Fails the worker's pending waits and runs their listeners. The jobs those submit resume work accepted before
     * shutdown (a coroutine waiting on its socket), so the registry accepts them meanwhile
     * ({@code failingIoWaits}).
     */
    @Override
    public void workerStopped(Worker w) {
        w.failingIoWaits = true;
        try {
            reactors[w.index].close();
        } finally {
            w.failingIoWaits = false;
        }
    }

    @Override
    public void workerNeverRan(int index) {
        reactors[index].closeSelector(); // nobody else closes it
    }

    /** Worker {@code index}'s reactor, or null for a slot that stands in for a blocked worker. */
    IoReactor reactor(int index) {
        return index < reactors.length ? reactors[index] : null;
    }

    @Override
    public String toString() {
        return "SelectorIo[" + poolName + ", " + reactors.length + " IO workers]";
    }
}
