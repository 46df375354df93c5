package dev.forage;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One IO worker's reactor (Tokio's IO driver, one per worker): its NIO {@link Selector}, the channels registered
 * with it, the waits on them, and the readiness a select finds. The worker's {@link SelectorParker} blocks in this
 * selector ({@link #select}), so that new work and socket readiness wake the same thread (EMPER's IO sleep); the
 * parker knows when to block, this class what a select finds. The protocol and its proof are in
 * {@code docs/io.md}; the step labels below (R1..R3) point there.
 *
 * <p>Readiness found by a select is only collected here (the fired waits go to the ready list of
 * {@link IoWaits}); the worker tells the listeners in {@link #runReady()}, after the sleep protocol has finished its
 * bookkeeping, so that the jobs they submit are pushed by an awake worker onto its own deque. {@link #hasReady()}
 * tells the parker, and through it the protocol's blocking loop, that the worker has something to do although
 * nobody woke it.
 *
 * <p>Threads: the selector's keys, the waits and the ready list belong to the thread that <em>drives</em> the
 * reactor ({@link #tryDrive()}, a lock that is only ever tried): the owner while it polls or parks, or a neighbour
 * worker that takes over while the owner is busy or descheduled ({@link #lendTo}, {@code docs/io.md} section 6).
 * A select runs only under the drive, so no registration ever waits for a select. {@link #submit},
 * {@link #cancelled} and {@link #wakeup()} from any thread; {@link #runReady()} and {@link #close()} on the owner.
 */
final class IoReactor {
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);
    private static final AtomicIntegerFieldUpdater<IoReactor> DRIVER =
            AtomicIntegerFieldUpdater.newUpdater(IoReactor.class, "driver");

    private final String poolName;
    private final int index;
    private final long closedCheckMillis; // the pool's Tunable.IO_CLOSED_CHECK_MILLIS
    /** Where a listener's exception goes (the pool's handler); null in the stress tests, which have no pool. */
    private final Thread.UncaughtExceptionHandler listenerErrors;
    final Selector selector;
    /** How {@link #selector}'s selects hand over the keys they found: {@link IoWaits#collectSelected} reads them. */
    final SelectedKeys selected;
    /** The owner's parker: it blocks in {@link #selector}, and a hand-over unparks it. */
    private final SelectorParker parker;
    /** Waits and cancellations handed over by other threads; the driver applies them (R1). */
    private final ConcurrentLinkedQueue<IoWait> commands = new ConcurrentLinkedQueue<IoWait>();
    /** Written under {@code commands}' monitor, so that no command is queued after the owner drained it at close. */
    private volatile boolean closed;
    /** The pool's takeover; {@link IoTakeover#NONE} for a reactor without neighbours (the stress tests). */
    IoTakeover takeover = IoTakeover.NONE;

    /** 1 while a thread drives this reactor (T1 in docs/io.md); tried, never waited for, except at close. */
    private volatile int driver;
    /** What the last driver left, for neighbours that decide whether to watch or take over (T2). */
    private volatile int pendingChannels;
    /** Channels registered with the selector (keys), whatever their waits: neighbours watch while there are some. */
    private volatile int registeredChannels;
    private volatile long lastDrive;
    private volatile boolean anyReady;
    /** Set by the owner at P3 when it bounds its select to watch a neighbour (T3); cleared when the select ends. */
    volatile boolean watching;
    /** The owner's next watch bound while no neighbour is exposed ({@link IoTakeover#watchBound}). */
    long watchMillis = 1L;

    /** The driver's bookkeeping: pending waits by channel, and the waits that ended. */
    private final IoWaits waits;
    /** Takeovers that moved waits away from this reactor, for tests (written under the drive). */
    volatile long lent;
    /**
     * The statistics of this reactor's worker, where the takeovers that worker makes are counted (by its own
     * thread, as every counter). Its own until the pool binds the worker's ({@link SelectorIo#countInto}), before
     * any worker starts. Volatile for a pool whose callers drive the worker, which start after it was built; read
     * once per takeover.
     */
    volatile WorkerStatistics counters = new WorkerStatistics();
    // The owner only.
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
        this.selected = SelectedKeys.of(selector);
        this.waits = new IoWaits(this, closedCheckMillis);
        this.lastDrive = System.nanoTime();
        this.parker = new SelectorParker(this);
    }

    // The drive (T1).

    /** Any thread: takes the drive if nobody holds it; never waits. */
    boolean tryDrive() {
        return driver == 0 && DRIVER.compareAndSet(this, 0, 1);
    }

    /** Whether a thread drives this reactor now. */
    boolean isDriven() {
        return driver != 0;
    }

    /**
     * The driver: publishes what neighbours read (T2), releases the drive, and wakes the owner if it waits for the
     * drive (the Dekker pair of {@link SelectorParker}'s wait: the owner publishes that it waits, then re-reads
     * {@link #driver}; this releases, then reads where the owner is). A reactor that registered its first channel
     * tells the takeover, which wakes a neighbour that sleeps without watching (T3). Only the takeover reads the
     * registered channels and the time of the release, so a pool without it does not count the keys or read the
     * clock on every select.
     */
    void release() {
        anyReady = waits.hasReady();
        pendingChannels = waits.pendingChannels();
        boolean firstChannel = false;
        if (takeover.isOn()) {
            int registered = closed ? 0 : selector.keys().size();
            firstChannel = registeredChannels == 0 && registered > 0;
            registeredChannels = registered;
            lastDrive = System.nanoTime();
        }
        driver = 0;
        parker.driveReleased();
        if (firstChannel) {
            takeover.firstChannel(this);
        }
    }

    /** Any thread (T2): whether the channels have pending waits while nobody watches them in a select. */
    boolean exposed() {
        return pendingChannels > 0 && !parker.isSelecting();
    }

    /** Any thread: whether some channel is registered with this reactor's selector, so neighbours watch it (T3). */
    boolean hasChannels() {
        return registeredChannels > 0;
    }

    /**
     * {@code thief}'s driver, holding its own drive (T4): if this reactor is exposed and nobody drove it for
     * {@code staleNanos}, take its drive, apply its commands, look at its selector without blocking and move every
     * wait that ended to {@code thief}'s ready list, where {@code thief}'s worker tells them once it is awake.
     * Returns whether a wait moved.
     */
    boolean lendTo(IoReactor thief, long now, long staleNanos) {
        if (!exposed() || now - lastDrive < staleNanos || !tryDrive()) {
            return false;
        }
        try {
            if (closed) {
                return false;
            }
            applyCommands();
            if (!lookWithoutBlocking()) {
                return false;
            }
            waits.moveReadyTo(thief.waits);
            lent++;
            return true;
        } finally {
            release();
        }
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

    /**
     * Whether waits ended whose listeners are not told yet (R2 found readiness, or a wait failed), as the last
     * driver left them.
     */
    boolean hasReady() {
        return anyReady;
    }

    /**
     * P0, the owner driving: applies the handed-over commands, fails the waits of closed channels when due, and
     * takes over exposed neighbours (T4). Returns whether the worker may block: false once the reactor is closed,
     * or when a wait ended (the protocol ends the sleep).
     */
    boolean prepareToBlock() {
        applyCommands();
        if (closed) {
            return false;
        }
        waits.checkClosedChannelsIfDue();
        takeover.fromNeighbours(this);
        return !waits.hasReady();
    }

    /**
     * The timeout of a select with no limit. Not {@code select()} or {@code select(0)}: a busy server's selects
     * all have a limit, so the JIT compiles the test that tells the two apart (ours, and the JDK's in
     * {@code Selector.select(long)}) as a trap, and the first unbounded select after the load drops would recompile
     * the worker's whole idle path. Every select passes a positive limit; this one, about 24 days, is the most an
     * {@code int} of milliseconds holds, the width the JDK's selectors hand to the OS. A select that returns at its
     * limit with nothing ready is a spurious wake-up to the sleep loop, which selects again.
     */
    static final long NO_LIMIT_MILLIS = Integer.MAX_VALUE;

    /**
     * P3: blocks in a select for {@code nanos} rounded up to whole milliseconds (never earlier than asked; at
     * least one), or with no limit for {@link Parker#FOREVER}; bounded by {@link Tunable#IO_CLOSED_CHECK_MILLIS}
     * while waits are pending, since a channel closed by another thread wakes no selector.
     */
    void select(long nanos) {
        long millis = nanos == Parker.FOREVER ? NO_LIMIT_MILLIS : Math.max((nanos + MILLI - 1) / MILLI, 1L);
        // Bounded also while a key holds interest with no wait pending: a wait handed over for it woke nobody (H2),
        // and it must still fail if its channel is closed meanwhile (docs/io.md section 3.1).
        millis = boundWhileWaiting(millis, waits.pendingChannels() + waits.interestedChannels(), closedCheckMillis);
        millis = takeover.watchBound(this, millis); // T3: shorter while a neighbour's channels are unwatched
        try {
            selected.select(millis);
        } catch (IOException e) {
            throw selectFailed("select", e);
        }
    }

    /**
     * {@code millis}, cut to {@code bound} if {@code waiting > 0}; all three at least 0, {@code millis} at most
     * {@link #NO_LIMIT_MILLIS}. Computed without a branch: a busy worker always has channels waiting and a quiet one
     * often has none, so a test here went one way for as long as the load held, C2 compiled the other way as a trap,
     * and the first select after the load dropped threw away the compiled select path (an {@code unstable_if} in the
     * compilation log) and ran it in profiling code for the rest of a quiet spell.
     */
    static long boundWhileWaiting(long millis, int waiting, long bound) {
        long over = millis - bound;
        long cut = over & ~(over >> 63); // max(over, 0): how much the bound shortens the select
        long some = -(long) waiting >> 63; // all ones if waiting > 0, else 0
        return millis - (cut & some);
    }

    /** P4, the owner: the select that may have watched a neighbour ended. */
    void selectEnded() {
        if (watching) {
            watching = false;
        }
    }

    /** A select that does not block (P3 with the permit set; a busy worker's poll); returns the keys it found. */
    int selectNow() {
        try {
            return selected.selectNow();
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

    /**
     * Any thread: start {@code w}. Applied at once by a caller that gets the drive (R1); else handed over to the
     * driver, which is in a select or about to apply the commands.
     */
    void submit(IoWait w) {
        if (!tryDrive()) {
            handOver(w, true);
            return;
        }
        boolean refused;
        try {
            applyCommands(); // a cancellation handed over earlier frees its slot first
            if (closed) {
                waits.fail(w, IoClosedException.poolShutDown(poolName, w));
            } else {
                waits.apply(w);
            }
            refused = waits.takeBackRefused(w);
        } finally {
            release();
        }
        if (refused) {
            w.complete(listenerErrors); // tell the caller now, as an exception from its own call would
        }
    }

    /** Any thread: {@code w} was cancelled; its interest is withdrawn by whoever drives. */
    void cancelled(IoWait w) {
        if (!tryDrive()) {
            handOver(w, false);
            return;
        }
        try {
            waits.withdraw(w);
        } finally {
            release();
        }
    }

    /**
     * H1..H3 ({@code docs/io.md} section 3.1): queue {@code w} for the driver, then wake the owner unless its select
     * in progress already watches {@code w}'s operation on that channel, and apply the queue if the driver left.
     */
    private void handOver(IoWait w, boolean isNew) {
        boolean refused;
        synchronized (commands) {
            refused = closed;
            if (!refused) {
                commands.add(w); // H1 (a CAS), before H2's read of blockedIn: mirrors the owner's P4 before its P4'
            }
        }
        if (refused) {
            if (isNew) {
                w.error = IoClosedException.poolShutDown(poolName, w);
                // As a refusal under the drive is told (submit): on the caller's thread.
                w.complete(listenerErrors);
            }
            return;
        }
        if (!isNew || !selectWatches(w)) { // H2
            parker.unpark(); // the owner applies commands at its next park or poll
        } // else the select in progress ends when the channel is ready, and its P4' applies w first
        if (tryDrive()) { // H3: the driver left meanwhile; nobody may apply the command before the owner's next look
            try {
                applyCommands();
            } finally {
                release();
            }
        }
    }

    /**
     * H2: whether the owner blocks in a select that ends when {@code w}'s operation is ready on its channel: it
     * publishes SELECTING (P1) and the channel's key holds that interest (R2 keeps it after the last wait fired).
     * SELECTING first: if it is read, that select's P4' comes after H1, so it applies {@code w}; and a driver writes
     * the interest only before P1 or after P4, so the interest read belongs to that select or to one that ended.
     * A cancellation always wakes the owner (rare, and it frees the slot for the next wait).
     */
    private boolean selectWatches(IoWait w) {
        if (!parker.isSelecting()) {
            return false;
        }
        SelectionKey key = w.channel.keyFor(selector);
        if (key == null || !key.isValid()) {
            return false; // no key yet, or the channel was closed: the owner registers the wait or fails it now
        }
        Object record = key.attachment();
        return record instanceof IoChannel && ((IoChannel) record).holds(w.op);
    }

    /** Driver: R1, the waits and cancellations that other threads handed over. */
    private void applyCommands() {
        IoWait w;
        while ((w = commands.poll()) != null) {
            if (w.isCancelled()) {
                waits.withdraw(w);
            } else if (closed) {
                waits.fail(w, IoClosedException.poolShutDown(poolName, w));
            } else {
                waits.apply(w);
            }
        }
    }

    /**
     * Driver: a look at the selector that does not block, only while waits are pending (no system call else); returns
     * whether waits ended. Called by a busy owner's poll, by a neighbour's takeover, and by the owner before a park too
     * short for a select ({@link SelectorParker#park}: the protocol's nap, the lone-job pause, a timer about to fire),
     * which parks in {@code LockSupport}, where readiness cannot end it. Without the look there, a worker that napped
     * again and again beside a neighbour's chain of jobs (each failed sleep a nap, and no select between them) left its
     * channels unwatched for milliseconds (docs/io.md section 2).
     */
    boolean lookWithoutBlocking() {
        if (waits.pendingChannels() > 0) {
            waits.checkClosedChannelsIfDue();
            if (selectNow() > 0) {
                waits.collectSelected();
            }
        }
        return waits.hasReady();
    }

    /**
     * P4', the owner after a select, still driving: first the waits handed over during it (a hand-over that woke
     * nobody counts on this, H2), then R2. Applying them first lets R2 fire a wait whose channel ended the select,
     * instead of dropping the key's interest as ready with nobody waiting and setting it again at the next P0 (two
     * {@code epoll_ctl} calls and one more select): for speed; the next P0 would apply them too.
     */
    void collectSelected() {
        applyCommands();
        waits.collectSelected();
    }

    /**
     * Owner, while busy: a non-blocking look at the selector (every {@link Tunable#IO_POLL_INTERVAL} jobs), then
     * the listeners. Nothing to look for while no wait is pending: no system call then.
     */
    void poll() {
        if (tryDrive()) { // else a neighbour drives and tells what it finds
            try {
                applyCommands();
                if (!closed) {
                    lookWithoutBlocking();
                }
                takeover.fromNeighbours(this);
            } finally {
                release();
            }
        }
        runReady();
    }

    /**
     * Owner, after each idle round: the waits handed over meanwhile, exposed neighbours (T4), then
     * {@link #runReady()}.
     */
    void awake() {
        if (tryDrive()) {
            try {
                applyCommands();
                takeover.fromNeighbours(this);
            } finally {
                release();
            }
        }
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
        while (tryDrive()) { // else the driver, a neighbour, takes what is ready and tells it
            ArrayList<IoWait> done;
            try {
                done = waits.takeReady();
            } finally {
                release();
            }
            if (done == null) {
                return;
            }
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
        while (!tryDrive()) {
            Thread.yield(); // a neighbour's takeover holds the drive for one selectNow; it never blocks in it
        }
        try {
            synchronized (commands) {
                closed = true;
            }
            applyCommands();
            waits.failAllPending(poolName);
            closeSelector();
        } finally {
            release();
        }
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
        return pendingChannels;
    }

    @Override
    public String toString() {
        return "IoReactor[worker " + index + " of " + poolName + (closed ? ", closed" : "") + "]";
    }
}
