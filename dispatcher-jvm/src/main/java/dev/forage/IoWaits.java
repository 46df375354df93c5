package dev.forage;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The waits of one {@link IoReactor}'s channels: the channels with pending waits (one {@link IoChannel} per
 * channel, the key's attachment), and the waits that ended, whose listeners are not told yet. Only the thread that
 * drives the reactor touches it ({@link IoReactor#tryDrive()}; steps R1 and R2 of {@code docs/io.md}).
 */
final class IoWaits {
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final IoReactor reactor;
    private final long closedCheckMillis; // the pool's Tunable.IO_CLOSED_CHECK_MILLIS
    /** Waits that ended (ready, or failed), whose listeners a worker tells ({@link IoReactor#runReady()}). */
    private ArrayList<IoWait> ready = new ArrayList<IoWait>();
    private ArrayList<IoWait> spare = new ArrayList<IoWait>();
    /** Channels with at least one pending wait, for the closed-channel check. */
    private final ArrayList<IoChannel> waiting = new ArrayList<IoChannel>();
    /**
     * Channels whose key holds some interest, pending waits or not (R2 keeps it after a wait fired). A wait handed
     * over for one of them may wake nobody (H2), so the select stays bounded while there are some (section 3.1).
     */
    private final ArrayList<IoChannel> interested = new ArrayList<IoChannel>();
    private long lastClosedCheck;

    IoWaits(IoReactor reactor, long closedCheckMillis) {
        this.reactor = reactor;
        this.closedCheckMillis = closedCheckMillis;
        this.lastClosedCheck = System.nanoTime();
    }

    /** The number of channels with pending waits. */
    int pendingChannels() {
        return waiting.size();
    }

    /** The number of channels whose key holds some interest. */
    int interestedChannels() {
        return interested.size();
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** Removes {@code w} if it is the last wait that ended (a wait refused as it was applied); returns whether. */
    boolean takeBackRefused(IoWait w) {
        int last = ready.size() - 1;
        if (last >= 0 && ready.get(last) == w) {
            ready.remove(last);
            return true;
        }
        return false;
    }

    /** Moves every wait that ended to {@code to} (a takeover, T4). */
    void moveReadyTo(IoWaits to) {
        to.ready.addAll(ready);
        ready.clear();
    }

    /**
     * Hands out the waits that ended, or null if none: the list returned is this one's until the caller clears it,
     * which it does before it drives again.
     */
    ArrayList<IoWait> takeReady() {
        ArrayList<IoWait> done = ready;
        if (done.isEmpty()) {
            return null;
        }
        ready = spare;
        spare = done;
        return done;
    }

    /** Closing: every pending wait fails with an exception naming the pool. */
    void failAllPending(String poolName) {
        for (int i = waiting.size() - 1; i >= 0; i--) {
            IoChannel record = waiting.get(i);
            int from = ready.size();
            record.takeAll(ready);
            for (int j = from; j < ready.size(); j++) {
                ready.get(j).error = IoClosedException.poolShutDown(poolName, ready.get(j));
            }
            stopWaiting(record);
        }
    }

    /** registers the wait's interest with this selector (one key per channel). */
    void apply(IoWait w) {
        if (w.isCancelled()) {
            return;
        }
        SelectableChannel ch = w.channel;
        SelectionKey key = ch.keyFor(reactor.selector);
        if (key != null && !key.isValid()) {
            if (!ch.isOpen()) {
                fail(w, IoClosedException.channelClosed(w));
                return;
            }
            // A key cancelled by its user: a select deregisters it, so the channel can register again.
            reactor.selectNow();
            collectSelected();
            key = ch.keyFor(reactor.selector);
        }
        IoChannel record;
        if (key == null) {
            if (ch.isRegistered()) {
                fail(w, new IllegalArgumentException(ch + " is already registered with another "
                        + "selector; allowed: a channel that no selector but this pool's knows"));
                return;
            }
            record = new IoChannel(ch);
            try {
                key = ch.register(reactor.selector, 0, record);
            } catch (ClosedChannelException e) {
                fail(w, IoClosedException.channelClosed(w));
                return;
            } catch (IllegalBlockingModeException e) {
                fail(w, new IllegalArgumentException(ch + " is in blocking mode; allowed: non-blocking channels "
                        + "(call configureBlocking(false) first)"));
                return;
            } catch (CancelledKeyException e) {
                fail(w, IoClosedException.channelClosed(w));
                return;
            }
            record.key = key;
        } else {
            record = (IoChannel) key.attachment();
        }
        IoWait previous = record.waitFor(w.op);
        if (previous != null && previous.isCancelled()) {
            record.remove(previous); // its cancellation is still on the way to us
        }
        if (!record.add(w)) {
            fail(w, new IllegalStateException("a wait for " + IoWait.opName(w.op) + " is already pending on " + ch
                    + "; allowed: one pending wait per operation and channel (one reader, one writer at a time)"));
            return;
        }
        if (record.waitingIndex < 0) {
            record.waitingIndex = waiting.size();
            waiting.add(record);
        }
        int interest;
        try {
            interest = key.interestOps();
        } catch (CancelledKeyException e) {
            failAll(record, null); // closed by another thread since the checks above: w fails with the others
            return;
        }
        if ((interest & w.op) == 0) {
            setInterest(record); // else the interest is still there from the last wait (collectSelected)
        }
    }

    /** a cancelled wait leaves its slot; the key keeps the interest of the other waits. */
    void withdraw(IoWait w) {
        IoChannel record = w.applied;
        if (record != null && record.remove(w)) {
            channelUpdated(record);
        }
    }

    private void channelUpdated(IoChannel record) {
        if (record.isEmpty()) {
            stopWaiting(record);
        }
        setInterest(record);
    }

    private void setInterest(IoChannel record) {
        int ops = record.neededInterest();
        try {
            record.key.interestOps(ops);
        } catch (CancelledKeyException e) {
            failAll(record, null); // closed meanwhile
            return;
        }
        interestSet(record, ops);
    }

    /**
     * Publishes the interest now set on the record's key (H2 reads it) and keeps the list of interested channels.
     * Written after {@code interestOps}, so a reader that sees an operation here finds it in every select that
     * begins after this write.
     */
    private void interestSet(IoChannel record, int ops) {
        if (record.interest == ops) {
            return;
        }
        record.interest = ops;
        if (ops != 0 && record.interestIndex < 0) {
            record.interestIndex = interested.size();
            interested.add(record);
        } else if (ops == 0 && record.interestIndex >= 0) {
            int i = record.interestIndex;
            IoChannel last = interested.remove(interested.size() - 1);
            if (last != record) {
                interested.set(i, last);
                last.interestIndex = i;
            }
            record.interestIndex = -1;
        }
    }

    private void stopWaiting(IoChannel record) {
        int i = record.waitingIndex;
        if (i < 0) {
            return;
        }
        IoChannel last = waiting.remove(waiting.size() - 1);
        if (last != record) {
            waiting.set(i, last);
            last.waitingIndex = i;
        }
        record.waitingIndex = -1;
    }

    /** After a select: R2, each selected key's fired waits go to {@link #ready}. */
    void collectSelected() {
        SelectedKeys found = reactor.selected;
        SelectionKey key;
        while ((key = found.next()) != null) {
            IoChannel record = (IoChannel) key.attachment();
            int readyOps;
            try {
                // Not isValid() first: another thread may close the channel, cancelling its key, between the two
                // calls, and readyOps() then throws on this worker's thread (found by SocketEchoStressSpec, where it
                // ended an IO worker and left its connections waiting).
                readyOps = key.readyOps();
            } catch (CancelledKeyException e) {
                failAll(record, null); // the channel was closed: its waits fail as closed
                continue;
            }
            int before = ready.size();
            record.takeReady(readyOps, ready);
            if (ready.size() == before) {
                setInterest(record); // ready, but nobody waits for it any more: drop that interest now
            } else if (record.isEmpty()) {
                // The interest stays: the resumed coroutine usually waits for the same operation again before
                // this worker's next select, and keeping it saves two epoll_ctl calls per round trip. If it does
                // not, the next select reports the key once more and the branch above drops the interest.
                stopWaiting(record);
            }
        }
    }

    /**
     * A channel closed by another thread woke nobody; find it and fail its waits. Called on every select and poll,
     * and inlined there: it tests only the clock, a branch a busy and a quiet worker both take both ways. The look
     * itself, with the tests that differ between them (no channel at all, an empty list), stays out of line, so
     * that the first look of a worker whose load dropped does not trap in, and recompile, every compiled select
     * and idle loop that inlined it.
     */
    void checkClosedChannelsIfDue() {
        long now = System.nanoTime();
        if (now - lastClosedCheck >= closedCheckMillis * MILLI) {
            lastClosedCheck = now;
            checkClosedChannels();
        }
    }

    private void checkClosedChannels() {
        for (int i = waiting.size() - 1; i >= 0; i--) {
            IoChannel record = waiting.get(i);
            if (!record.key.isValid() || !record.channel.isOpen()) {
                failAll(record, null);
            }
        }
        for (int i = interested.size() - 1; i >= 0; i--) {
            IoChannel record = interested.get(i);
            if (!record.key.isValid() || !record.channel.isOpen()) {
                interestSet(record, 0); // a closed channel's key: its interest went with it
            }
        }
    }

    /** every pending wait of {@code record} fails ({@code error}, or "channel closed" when null). */
    private void failAll(IoChannel record, Throwable error) {
        interestSet(record, 0); // closed, or the pool's shutdown: no select watches it again
        int from = ready.size();
        record.takeAll(ready);
        for (int i = from; i < ready.size(); i++) {
            IoWait w = ready.get(i);
            w.error = error != null ? error : IoClosedException.channelClosed(w);
        }
        stopWaiting(record);
    }

    void fail(IoWait w, Throwable error) {
        w.error = error;
        ready.add(w);
    }

}
