package dev.forage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pool's timers: a binary min-heap ordered by deadline, guarded by a lock, with the earliest deadline
 * mirrored in a volatile field so workers can check it without locking.
 *
 * <p>No thread is dedicated to timers. One sleeping worker at a time holds the <i>watch</i> and parks until
 * the earliest deadline; when a timer becomes the earliest, the pool signals the watcher so it re-reads its
 * deadline (see {@code docs/sleep.md}, "Timers"). Busy workers also check the earliest deadline every few jobs.
 */
final class TimerQueue {
    public static final long NO_DEADLINE = Long.MAX_VALUE;
    public static final int NO_WATCHER = -1;

    private final Object lock = new Object();
    private TimerTask[] heap = new TimerTask[16];
    private int size;
    private long nextSequence;
    private volatile long earliestDeadline = NO_DEADLINE;
    private final AtomicInteger watcher = new AtomicInteger(NO_WATCHER);

    /** Adds a timer. Returns true if it is now the earliest (the watcher must re-read its deadline). */
    public boolean add(TimerTask task) {
        synchronized (lock) {
            task.sequence = nextSequence++;
            task.attach(this);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            task.heapIndex = size;
            heap[size++] = task;
            siftUp(task.heapIndex);
            boolean earliest = heap[0] == task;
            earliestDeadline = heap[0].deadlineNanos;
            return earliest;
        }
    }

    /**
     * Removes a cancelled timer (C1: the earliest deadline's volatile write) and, if that emptied the queue, reads
     * the watcher (C2) and returns it, to be told that no deadline is left; else {@link #NO_WATCHER}. The mirror of
     * {@link #watch}: either the watcher's W2 sees the queue empty, or C2 sees the watcher.
     */
    int remove(TimerTask task) {
        synchronized (lock) {
            int i = task.heapIndex;
            if (i < 0 || i >= size || heap[i] != task) {
                return NO_WATCHER;
            }
            removeAt(i);
            earliestDeadline = size == 0 ? NO_DEADLINE : heap[0].deadlineNanos;
            if (size != 0) {
                return NO_WATCHER;
            }
        }
        return watcher.get();
    }

    /**
     * A sleeping worker about to park: takes the watch if timers are pending (W1) and then reads the earliest
     * deadline (W2), which it parks until; {@link #NO_DEADLINE} if it does not watch or nothing is pending. Read
     * after the claim: a timer added or removed before the claim saw no watcher, so only a read after it is sure to
     * include that change.
     */
    long watch(int worker) {
        boolean watching = !isEmpty() && claimWatch(worker);
        long earliest = earliestDeadline;
        return watching ? earliest : NO_DEADLINE;
    }

    /** The earliest deadline, or {@link #NO_DEADLINE}. A volatile read; no lock. */
    public long earliestDeadline() {
        return earliestDeadline;
    }

    public boolean isEmpty() {
        return earliestDeadline == NO_DEADLINE;
    }

    public int size() {
        synchronized (lock) {
            return size;
        }
    }

    /**
     * {@link #pollExpired(long)} at {@code clock}'s time, read only when a timer exists: a pool that schedules none
     * pays a volatile read for its periodic checks, not a clock read.
     */
    public List<TimerTask> pollExpired(Clock clock) {
        return earliestDeadline == NO_DEADLINE ? null : pollExpired(clock.nanoTime());
    }

    /** Removes every timer due at {@code now} and returns them, claimed for firing, in deadline order. */
    public List<TimerTask> pollExpired(long now) {
        long earliest = earliestDeadline;
        if (earliest == NO_DEADLINE || earliest - now > 0) {
            return null;
        }
        List<TimerTask> due = null;
        synchronized (lock) {
            while (size > 0 && heap[0].deadlineNanos - now <= 0) {
                TimerTask t = heap[0];
                removeAt(0);
                if (t.markFired()) {
                    if (due == null) {
                        due = new ArrayList<>();
                    }
                    due.add(t);
                }
            }
            earliestDeadline = size == 0 ? NO_DEADLINE : heap[0].deadlineNanos;
        }
        return due;
    }

    /** Removes and returns every pending timer (shutdownNow). */
    public List<TimerTask> drainPending() {
        List<TimerTask> pending = new ArrayList<>();
        synchronized (lock) {
            for (int i = 0; i < size; i++) {
                TimerTask t = heap[i];
                t.heapIndex = -1;
                heap[i] = null;
                if (t.markFired()) {
                    pending.add(t);
                }
            }
            size = 0;
            earliestDeadline = NO_DEADLINE;
        }
        return pending;
    }

    /** The worker holding the watch, or {@link #NO_WATCHER}. */
    public int watcher() {
        return watcher.get();
    }

    /** Takes the watch if nobody holds it; true if {@code worker} holds it now. */
    public boolean claimWatch(int worker) {
        int w = watcher.get();
        return w == worker || (w == NO_WATCHER && watcher.compareAndSet(NO_WATCHER, worker));
    }

    /** Gives up the watch if {@code worker} holds it; true if it did. */
    public boolean releaseWatch(int worker) {
        return watcher.get() == worker && watcher.compareAndSet(worker, NO_WATCHER);
    }

    private void removeAt(int i) {
        TimerTask removed = heap[i];
        removed.heapIndex = -1;
        int last = --size;
        if (i != last) {
            TimerTask moved = heap[last];
            heap[last] = null;
            heap[i] = moved;
            moved.heapIndex = i;
            siftDown(i);
            if (heap[i] == moved) {
                siftUp(i);
            }
        } else {
            heap[last] = null;
        }
    }

    private void siftUp(int i) {
        TimerTask t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            TimerTask p = heap[parent];
            if (!before(t, p)) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private void siftDown(int i) {
        TimerTask t = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && before(heap[right], heap[child])) {
                child = right;
            }
            if (!before(heap[child], t)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].heapIndex = i;
            i = child;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private static boolean before(TimerTask a, TimerTask b) {
        long d = a.deadlineNanos - b.deadlineNanos;
        return d < 0 || (d == 0 && a.sequence < b.sequence);
    }
}
