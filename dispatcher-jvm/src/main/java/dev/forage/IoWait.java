package dev.forage;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One pending wait for readiness, returned by {@link ForagePool#awaitReadiness}. {@link #cancel()} ends it
 * without telling its listener and withdraws its interest from the owning worker's selector.
 *
 * <p>The channel belongs to one worker, the one whose selector holds its key: at its first wait, the next worker
 * in turn (as Netty deals its event loops to accepted channels), and that worker until the channel is closed. A
 * wait from another thread is handed to the owner. The owner sees readiness in its select when idle, or in a
 * non-blocking look every few jobs when busy, and tells the listener itself, so that the jobs the listener submits
 * go to the owner's own deque. When the owner has left its channels unwatched for {@code forage.io.takeoverMillis}
 * (1 ms by default: a long job, or the OS descheduled it), another IO worker looks at its selector and tells the
 * listener instead, on that worker. At most one wait per operation and channel at a time. A channel closed while a
 * wait is pending fails the wait (at the owner's next select, within {@code forage.io.closedCheckMillis}, 250 ms by
 * default: closing a channel wakes no selector); shutting the pool down fails every pending wait with an
 * {@link java.nio.channels.AsynchronousCloseException} naming the pool, and later waits at once.
 *
 * <pre>{@code
 * IoWait wait = pool.awaitReadiness(channel, SelectionKey.OP_READ, listener);
 * ...
 * if (wait.cancel()) { ... }   // the listener will not run
 * }</pre>
 */
public final class IoWait {
    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int CANCELLED = 2;
    private static final AtomicIntegerFieldUpdater<IoWait> STATE =
            AtomicIntegerFieldUpdater.newUpdater(IoWait.class, "state");

    final IoReactor owner;
    final SelectableChannel channel;
    /** One of {@link SelectionKey}'s {@code OP_*} bits. */
    final int op;
    private final ReadinessListener listener;
    private volatile int state;
    /** Owner thread only: the channel record whose slot holds this wait, once the owner applied it. */
    IoChannel applied;
    /** Owner thread only: set when the wait ends by failure, read when its listener is told. */
    Throwable error;

    IoWait(IoReactor owner, SelectableChannel channel, int op, ReadinessListener listener) {
        this.owner = owner;
        this.channel = channel;
        this.op = op;
        this.listener = listener;
    }

    /**
     * Ends the wait if it is still pending: its listener will not run, and the owning worker withdraws the
     * interest (the channel's key stays registered with the interest of its other waits, possibly none, until the
     * channel is closed). Any thread. Returns false when the wait had already ended (its listener ran or runs now).
     */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, PENDING, CANCELLED)) {
            return false;
        }
        owner.cancelled(this);
        return true;
    }

    /** True while the wait neither ended nor was cancelled. */
    public boolean isPending() {
        return state == PENDING;
    }

    /** True after a successful {@link #cancel()}. */
    boolean isCancelled() {
        return state == CANCELLED;
    }

    /**
     * Owner thread: tells the listener, unless the wait was cancelled first. Its exception goes to {@code errors}
     * (the pool's handler); never throws, but for the protocol's stress tests, which have no pool (null).
     */
    void complete(Thread.UncaughtExceptionHandler errors) {
        if (!STATE.compareAndSet(this, PENDING, DONE)) {
            return;
        }
        try {
            if (error == null) {
                listener.ready(channel);
            } else {
                listener.failed(error);
            }
        } catch (Throwable t) {
            if (errors == null) {
                throw t;
            }
            errors.uncaughtException(Thread.currentThread(), t);
        }
    }

    @Override
    public String toString() {
        return "IoWait[" + opName(op) + " on " + channel + ", " + (state == PENDING ? "pending"
                : state == DONE ? "done" : "cancelled") + "]";
    }

    static String opName(int op) {
        switch (op) {
            case SelectionKey.OP_READ:
                return "OP_READ";
            case SelectionKey.OP_WRITE:
                return "OP_WRITE";
            case SelectionKey.OP_CONNECT:
                return "OP_CONNECT";
            case SelectionKey.OP_ACCEPT:
                return "OP_ACCEPT";
            default:
                return "ops " + op;
        }
    }
}
