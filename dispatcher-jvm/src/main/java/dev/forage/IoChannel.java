package dev.forage;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

/**
 * What one worker's selector knows of one channel: its key (one per channel per selector) and the pending wait
 * for each operation, at most one each. The key's attachment. Owner thread only.
 */
final class IoChannel {
    final SelectableChannel channel;
    SelectionKey key;
    /** Indexed by the number of trailing zeros of the {@code OP_*} bit: 0 read, 2 write, 3 connect, 4 accept. */
    private final IoWait[] waits = new IoWait[5];
    private int count;
    /** This record's place in the owner's list of channels with pending waits, or -1. */
    int waitingIndex = -1;
    /** This record's place in the driver's list of channels whose key holds some interest, or -1. */
    int interestIndex = -1;
    /**
     * The interest set on {@link #key}, as the last driver set it: written by the driver after each
     * {@code interestOps} call, read by a thread handing a wait over (H2 in {@code docs/io.md}, section 3.1), which
     * does not wake an owner whose select already watches the operation.
     */
    volatile int interest;

    IoChannel(SelectableChannel channel) {
        this.channel = channel;
    }

    static int slot(int op) {
        return Integer.numberOfTrailingZeros(op);
    }

    IoWait waitFor(int op) {
        return waits[slot(op)];
    }

    /** Returns false when a wait for the same operation is pending already. */
    boolean add(IoWait w) {
        int s = slot(w.op);
        if (waits[s] != null) {
            return false;
        }
        waits[s] = w;
        w.applied = this;
        count++;
        return true;
    }

    /** Removes {@code w} if it holds its slot; returns whether it did. */
    boolean remove(IoWait w) {
        int s = slot(w.op);
        if (waits[s] != w) {
            return false;
        }
        waits[s] = null;
        count--;
        return true;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Any thread: whether the key's interest, as the last driver set it, includes {@code op}. */
    boolean holds(int op) {
        return (interest & op) != 0;
    }

    /** The interest set that the pending waits need. */
    int neededInterest() {
        int ops = 0;
        for (IoWait w : waits) {
            if (w != null) {
                ops |= w.op;
            }
        }
        return ops;
    }

    /** Removes and returns the pending waits whose operation is in {@code readyOps}, into {@code out}. */
    void takeReady(int readyOps, java.util.List<IoWait> out) {
        for (int s = 0; s < waits.length; s++) {
            IoWait w = waits[s];
            if (w != null && (w.op & readyOps) != 0) {
                waits[s] = null;
                count--;
                out.add(w);
            }
        }
    }

    /** Removes and returns every pending wait, into {@code out}. */
    void takeAll(java.util.List<IoWait> out) {
        takeReady(-1, out);
    }
}
