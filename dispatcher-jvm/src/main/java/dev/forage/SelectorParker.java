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
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Parker} of an IO worker (EMPER's IO sleep): the worker owns a NIO {@link Selector} and sleeps in
 * {@code select}, so that new work (a waker's {@link #unpark()}, which is {@code selector.wakeup()}) and socket
 * readiness on the worker's channels wake the same thread. The protocol and its proof are in {@code docs/io.md};
 * the step labels below (P1..P3, U1..U2, R1..R3) point there.
 *
 * <p>Readiness found by a select is only collected here (the fired waits go to {@link #ready}); the worker tells
 * the listeners in {@link #runReady()}, after the sleep protocol has finished its bookkeeping, so that the jobs
 * they submit are pushed by an awake worker onto its own deque. {@link #eventsFound()} tells the protocol's
 * blocking loop that the worker has something to do although nobody woke it.
 *
 * <p>Threads: {@link #unpark()}, {@link #submit} and {@link #cancelled} from any thread; everything else on the
 * owner thread only (it alone touches the selector's keys, so no registration ever waits for a select).
 */
final class SelectorParker implements Parker {
    /** Where the owner blocks, for {@link #unpark()}: nowhere, in {@code select}, or in {@code LockSupport}. */
    private static final int RUNNING = 0;
    private static final int SELECTING = 1;
    private static final int PARKING = 2;
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    /** The pool, for listeners' exceptions; null in the protocol's stress tests, which have no pool. */
    private final Registry registry;
    private final String poolName;
    private final int index;
    /** The pool's {@link Tunable#IO_CLOSED_CHECK_MILLIS}, in nanoseconds. */
    private final long closedCheckNanos;
    final Selector selector;
    private volatile Thread thread;
    /** The permit (U1): set by every unpark, cleared by the owner when a park ends. */
    private volatile boolean permit;
    /** Published by the owner before it re-reads the permit and blocks (P1). */
    private volatile int blockedIn = RUNNING;
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

    SelectorParker(Registry registry, int index) {
        this.registry = registry;
        this.poolName = registry != null ? registry.name : "(none)";
        this.index = index;
        Tuning tuning = registry != null ? registry.tuning : Tuning.DEFAULTS;
        this.closedCheckNanos = tuning.get(Tunable.IO_CLOSED_CHECK_MILLIS) * MILLI;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("pool " + poolName + " could not open a NIO Selector for IO worker "
                    + index + "; the system may be out of file descriptors", e);
        }
        this.lastClosedCheck = System.nanoTime();
    }

    /** One parker per worker; on failure, closes the selectors opened so far. */
    static SelectorParker[] forWorkers(Registry registry, int workers) {
        SelectorParker[] parkers = new SelectorParker[workers];
        try {
            for (int i = 0; i < workers; i++) {
                parkers[i] = new SelectorParker(registry, i);
            }
        } catch (RuntimeException e) {
            for (SelectorParker p : parkers) {
                if (p != null) {
                    p.closeSelector();
                }
            }
            throw e;
        }
        return parkers;
    }

    // Parker.

    @Override
    public void bindCurrentThread() {
        Thread current = Thread.currentThread();
        if (thread != current) {
            thread = current;
        }
    }

    /**
     * P1..P3: publish where we block, re-read the permit, block. A select is given whole milliseconds, rounded up
     * (never earlier than asked); a wait shorter than a millisecond (the protocol's nap, a timer about to fire) parks
     * in {@code LockSupport} instead, where readiness waits for the next select.
     */
    @Override
    public void park(long nanos) {
        applyCommands();
        if (closed) {
            parkPlain(nanos);
            return;
        }
        checkClosedChannelsIfDue();
        if (!ready.isEmpty() || nanos <= 0) {
            return;
        }
        if (nanos != FOREVER && nanos < MILLI) {
            parkPlain(nanos);
            return;
        }
        long millis = nanos == FOREVER ? 0L : (nanos + MILLI - 1) / MILLI;
        if (!waiting.isEmpty()) {
            // A channel closed by another thread wakes no selector: while waits are pending, look at least this often.
            long cap = closedCheckNanos / MILLI;
            millis = millis == 0L ? cap : Math.min(millis, cap);
        }
        blockedIn = SELECTING; // P1
        try {
            if (permit) { // P2
                selector.selectNow();
            } else if (millis == 0L) {
                selector.select(); // P3
            } else {
                selector.select(millis);
            }
        } catch (IOException e) {
            throw new IllegalStateException("select failed on IO worker " + index + " of pool " + poolName, e);
        } finally {
            blockedIn = RUNNING;
        }
        permit = false; // an unpark that came during the select was absorbed by it, as LockSupport's would be
        collectSelected();
    }

    private void parkPlain(long nanos) {
        if (nanos <= 0) {
            return;
        }
        blockedIn = PARKING; // P1
        if (!permit) { // P2
            if (nanos == FOREVER) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, nanos);
            }
        }
        blockedIn = RUNNING;
        permit = false;
    }

    /** U1: set the permit; U2: wake the owner where it blocks, if it does. */
    @Override
    public void unpark() {
        permit = true; // U1
        int where = blockedIn; // U2
        if (where == SELECTING) {
            selector.wakeup(); // a no-op on a closed selector; before a select, it makes that select return at once
        } else if (where == PARKING) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public boolean eventsFound() {
        return !ready.isEmpty();
    }

    // Waits.

    /** Any thread: start {@code w}. On the owner thread it is applied at once; else handed over (R1). */
    void submit(IoWait w) {
        if (Thread.currentThread() == thread) {
            applyCommands(); // a cancellation handed over earlier frees its slot first
            if (closed) {
                fail(w, poolClosed(w));
            } else {
                apply(w);
            }
            int last = ready.size() - 1;
            if (last >= 0 && ready.get(last) == w) {
                ready.remove(last); // refused: tell the caller now, as an exception from its own call would
                w.complete(registry);
            }
            return;
        }
        handOver(w, true);
    }

    /** Any thread: {@code w} was cancelled; the owner withdraws its interest. */
    void cancelled(IoWait w) {
        if (Thread.currentThread() == thread) {
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
                w.error = poolClosed(w);
                w.complete(registry); // the caller is no worker of ours, or not the owner: telling it here is safe
            }
            return;
        }
        unpark(); // the owner applies commands at its next park or poll
    }

    /** Owner: R1, the waits and cancellations that other threads handed over. */
    private void applyCommands() {
        IoWait w;
        while ((w = commands.poll()) != null) {
            if (w.isCancelled()) {
                withdraw(w);
            } else if (closed) {
                fail(w, poolClosed(w));
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
                fail(w, channelClosed(w));
                return;
            }
            flushCancelledKeys(); // a key cancelled by its user: deregister it so the channel can register again
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
                fail(w, channelClosed(w));
                return;
            } catch (IllegalBlockingModeException e) {
                fail(w, new IllegalArgumentException(ch + " is in blocking mode; allowed: non-blocking channels "
                        + "(call configureBlocking(false) first)"));
                return;
            } catch (CancelledKeyException e) {
                fail(w, channelClosed(w));
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
    private void collectSelected() {
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
        if (now - lastClosedCheck < closedCheckNanos) {
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
            w.error = error != null ? error : channelClosed(w);
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
            try {
                if (selector.selectNow() > 0) {
                    collectSelected();
                }
            } catch (IOException e) {
                throw new IllegalStateException("selectNow failed on IO worker " + index + " of pool "
                        + poolName, e);
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
                done.get(i).complete(registry);
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
                ready.get(j).error = poolClosed(ready.get(j));
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

    private void flushCancelledKeys() {
        try {
            selector.selectNow();
            collectSelected();
        } catch (IOException e) {
            throw new IllegalStateException("selectNow failed on IO worker " + index + " of pool "
                    + poolName, e);
        }
    }

    private Throwable channelClosed(IoWait w) {
        return new IoClosedException(w.channel + " was closed while a wait for " + IoWait.opName(w.op)
                + " was pending on it; allowed: waits on open channels");
    }

    private Throwable poolClosed(IoWait w) {
        return new IoClosedException("pool " + poolName + " was shut down: its IO workers closed their "
                + "selectors, so the wait for " + IoWait.opName(w.op) + " on " + w.channel + " ended; allowed: "
                + "socket IO on a running pool");
    }

    /** Test hook: the number of channels with pending waits. */
    int waitingChannels() {
        return waiting.size();
    }

    @Override
    public String toString() {
        Thread t = thread;
        return "SelectorParker[" + (t == null ? "unbound" : t.getName()) + (closed ? ", closed" : "") + "]";
    }
}
