package dev.forage;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One IO worker's reactor (Tokio's IO driver, one per worker): its NIO {@link Selector}, the channels registered
 * with it, the waits on them, and the readiness a select finds. The worker's {@link SelectorParker} blocks in this
 * selector ({@link #select}), so that new work and socket readiness wake the same thread (EMPER's IO sleep); the
 * parker knows when to block, this class what a select finds. The protocol and its proof are in
 * {@code docs/io.md}; the step labels below (R1..R3) point there.
 *
 * <p>Readiness found by a select is only collected here (the fired waits go to {@link #ready}); the worker tells
 * the listeners in {@link #runReady()}, after the sleep protocol has finished its bookkeeping, so that the jobs
 * they submit are pushed by an awake worker onto its own deque. {@link #hasReady()} tells the parker, and through
 * it the protocol's blocking loop, that the worker has something to do although nobody woke it.
 *
 * <p>Threads: {@link #submit}, {@link #cancelled} and {@link #wakeup()} from any thread; everything else on the
 * owner thread only (it alone touches the selector's keys, so no registration ever waits for a select).
 */
final class IoReactor {
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final String poolName;
    private final int index;
    private final long closedCheckMillis; // the pool's Tunable.IO_CLOSED_CHECK_MILLIS
    /** Where a listener's exception goes (the pool's handler); null in the stress tests, which have no pool. */
    private final Thread.UncaughtExceptionHandler listenerErrors;
    final Selector selector;
    /** The owner's parker: it blocks in {@link #selector}, and a hand-over unparks it. */
    private final SelectorParker parker;
    /** Waits and cancellations handed over by other threads; the owner applies them (R1). */
    private final ConcurrentLinkedQueue<IoWait> commands = new ConcurrentLinkedQueue<IoWait>();
    /** Written under {@code commands}' monitor, so that no command is queued after the owner drained it at close. */
    private volatile boolean closed;

    // Owner thread only.
    /** Waits that ended (ready, or failed), whose listeners the worker tells in {@link #runReady()}. */
    private ArrayList<IoWait> ready = new ArrayList<IoWait>();
    private ArrayList<IoWait> spare = new ArrayList<IoWait>();
    /** Channels with at least one pending wait, for the closed-channel check. */
    private final ArrayList<IoChannel> waiting = new ArrayList<IoChannel>();
    private long lastClosedCheck;
    private boolean runningListeners;

    /** Opens the selector of IO worker {@code index} of pool {@code poolName}. */
    IoReactor(String poolName, int index, long closedCheckMillis, Thread.UncaughtExceptionHandler listenerErrors) {
        this.poolName = poolName;
        this.index = index;
        this.closedCheckMillis = closedCheckMillis;
        this.listenerErrors = listenerErrors;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("pool " + poolName + " could not open a NIO Selector for IO worker "
                    + index + "; the system may be out of file descriptors", e);
        }
        this.lastClosedCheck = System.nanoTime();
        this.parker = new SelectorParker(this);
    }

    /** The parker of this reactor's worker, which blocks in its selector. */
    SelectorParker parker() {
        return parker;
    }

    // What the parker asks (owner thread, inside a park).

    /** After {@link #close()}: no selector to block in. */
    boolean isClosed() {
        return closed;
    }

    /** Whether waits ended whose listeners are not told yet (R2 found readiness, or a wait failed). */
    boolean hasReady() {
        return !ready.isEmpty();
    }

    /**
     * P0: applies the handed-over commands and, when due, fails the waits of closed channels. Returns whether the
     * worker may block: false once the reactor is closed, or when a wait ended (the protocol ends the sleep).
     */
    boolean prepareToBlock() {
        applyCommands();
        if (closed) {
            return false;
        }
        checkClosedChannelsIfDue();
        return ready.isEmpty();
    }

    /**
     * P3: blocks in a select for {@code nanos} rounded up to whole milliseconds (never earlier than asked; at
     * least one), or with no limit for {@link Parker#FOREVER}; bounded by {@link Tunable#IO_CLOSED_CHECK_MILLIS}
     * while waits are pending, since a channel closed by another thread wakes no selector.
     */
    void select(long nanos) {
        long millis = nanos == Parker.FOREVER ? 0L : (nanos + MILLI - 1) / MILLI;
        if (!waiting.isEmpty()) {
            millis = millis == 0L ? closedCheckMillis : Math.min(millis, closedCheckMillis);
        }
        try {
            if (millis == 0L) {
                selector.select();
            } else {
                selector.select(millis);
            }
        } catch (IOException e) {
            throw selectFailed("select", e);
        }
    }

    /** A select that does not block (P3 with the permit set; a busy worker's poll); returns the keys it found. */
    int selectNow() {
        try {
            return selector.selectNow();
        } catch (IOException e) {
            throw selectFailed("selectNow", e);
        }
    }

    private IllegalStateException selectFailed(String call, IOException e) {
        return new IllegalStateException(call + " failed on IO worker " + index + " of pool " + poolName, e);
    }

    /** Any thread: ends a select in progress, or makes the next one return at once; a no-op once closed. */
    void wakeup() {
        selector.wakeup();
    }

    // Waits.

    /** Any thread: start {@code w}. On the owner thread it is applied at once; else handed over (R1). */
    void submit(IoWait w) {
        if (parker.isOwner()) {
            applyCommands(); // a cancellation handed over earlier frees its slot first
            if (closed) {
                fail(w, IoClosedException.poolShutDown(poolName, w));
            } else {
                apply(w);
            }
            int last = ready.size() - 1;
            if (last >= 0 && ready.get(last) == w) {
                ready.remove(last); // refused: tell the caller now, as an exception from its own call would
                w.complete(listenerErrors);
            }
            return;
        }
        handOver(w, true);
    }

    /** Any thread: {@code w} was cancelled; the owner withdraws its interest. */
    void cancelled(IoWait w) {
        if (parker.isOwner()) {
            withdraw(w);
        } else {
            handOver(w, false);
        }
    }

    private void handOver(IoWait w, boolean isNew) {
        boolean refused;
        synchronized (commands) {
            refused = closed;
            if (!refused) {
                commands.add(w);
            }
        }
        if (refused) {
            if (isNew) {
                w.error = IoClosedException.poolShutDown(poolName, w);
                // The caller is no worker of ours, or not the owner: telling it here is safe.
                w.complete(listenerErrors);
            }
            return;
        }
        parker.unpark(); // the owner applies commands at its next park or poll
    }

    /** Owner: R1, the waits and cancellations that other threads handed over. */
    private void applyCommands() {
        IoWait w;
        while ((w = commands.poll()) != null) {
            if (w.isCancelled()) {
                withdraw(w);
            } else if (closed) {
                fail(w, IoClosedException.poolShutDown(poolName, w));
            } else {
                apply(w);
            }
        }
    }

    /** Owner: registers the wait's interest with this selector (one key per channel). */
    private void apply(IoWait w) {
        if (w.isCancelled()) {
            return;
        }
        SelectableChannel ch = w.channel;
        SelectionKey key = ch.keyFor(selector);
        if (key != null && !key.isValid()) {
            if (!ch.isOpen()) {
                fail(w, IoClosedException.channelClosed(w));
                return;
            }
            selectNow(); // a key cancelled by its user: a select deregisters it, so the channel can register again
            collectSelected();
            key = ch.keyFor(selector);
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
                key = ch.register(selector, 0, record);
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
        if ((key.interestOps() & w.op) == 0) {
            setInterest(record); // else the interest is still there from the last wait (collectSelected)
        }
    }

    /** Owner: a cancelled wait leaves its slot; the key keeps the interest of the other waits. */
    private void withdraw(IoWait w) {
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
        try {
            record.key.interestOps(record.interest());
        } catch (CancelledKeyException e) {
            failAll(record, null); // closed meanwhile
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

    /** Owner, after a select: R2, each selected key's fired waits go to {@link #ready}. */
    void collectSelected() {
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            IoChannel record = (IoChannel) key.attachment();
            if (!key.isValid()) {
                failAll(record, null);
                continue;
            }
            int before = ready.size();
            record.takeReady(key.readyOps(), ready);
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

    /** Owner: a channel closed by another thread woke nobody; find it and fail its waits. */
    private void checkClosedChannelsIfDue() {
        if (waiting.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastClosedCheck < closedCheckMillis * MILLI) {
            return;
        }
        lastClosedCheck = now;
        for (int i = waiting.size() - 1; i >= 0; i--) {
            IoChannel record = waiting.get(i);
            if (!record.key.isValid() || !record.channel.isOpen()) {
                failAll(record, null);
            }
        }
    }

    /** Owner: every pending wait of {@code record} fails ({@code error}, or "channel closed" when null). */
    private void failAll(IoChannel record, Throwable error) {
        int from = ready.size();
        record.takeAll(ready);
        for (int i = from; i < ready.size(); i++) {
            IoWait w = ready.get(i);
            w.error = error != null ? error : IoClosedException.channelClosed(w);
        }
        stopWaiting(record);
    }

    private void fail(IoWait w, Throwable error) {
        w.error = error;
        ready.add(w);
    }

    /**
     * Owner, while busy: a non-blocking look at the selector (every {@link Tunable#IO_POLL_INTERVAL} jobs), then
     * the listeners. Nothing to look for while no wait is pending: no system call then.
     */
    void poll() {
        applyCommands();
        if (closed) {
            runReady();
            return;
        }
        if (!waiting.isEmpty()) {
            checkClosedChannelsIfDue();
            if (selectNow() > 0) {
                collectSelected();
            }
        }
        runReady();
    }

    /** Owner, after each idle round: the waits handed over meanwhile, then {@link #runReady()}. */
    void awake() {
        applyCommands();
        runReady();
    }

    /**
     * Owner, awake (R3): tells the listeners of the waits that ended. Their follow-up jobs go to this worker's own
     * deque. A listener may start or cancel waits; those of this thread are applied at once.
     */
    void runReady() {
        if (runningListeners) {
            return; // a listener that waits in the pool: the outer call tells the rest
        }
        runningListeners = true;
        try {
            runListeners();
        } finally {
            runningListeners = false;
        }
    }

    private void runListeners() {
        while (!ready.isEmpty()) {
            ArrayList<IoWait> done = ready;
            ready = spare;
            spare = done;
            for (int i = 0; i < done.size(); i++) {
                done.get(i).complete(listenerErrors);
            }
            done.clear();
        }
    }

    /**
     * Owner, once, when the pool shut down and the worker left its loop: every pending wait fails with an
     * exception naming the pool, the listeners run (their follow-ups are queued here and drained before the
     * worker retires), and the selector closes. Later waits fail at once.
     */
    void close() {
        synchronized (commands) {
            closed = true;
        }
        applyCommands();
        for (int i = waiting.size() - 1; i >= 0; i--) {
            IoChannel record = waiting.get(i);
            int from = ready.size();
            record.takeAll(ready);
            for (int j = from; j < ready.size(); j++) {
                ready.get(j).error = IoClosedException.poolShutDown(poolName, ready.get(j));
            }
            stopWaiting(record);
        }
        closeSelector();
        runReady();
    }

    /** For a pool whose worker never ran: closes the selector only. */
    void closeSelector() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // Closing releases the file descriptors; there is nothing else to undo.
        }
    }

    /** Test hook: the number of channels with pending waits. */
    int waitingChannels() {
        return waiting.size();
    }

    @Override
    public String toString() {
        return "IoReactor[worker " + index + " of " + poolName + (closed ? ", closed" : "") + "]";
    }
}
