package dev.forage;

import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * EMPER's hint pipe, on the JVM without io_uring.
 *
 * <p>In EMPER a sleeping worker has a read of the hint pipe in flight, and a notifier writes one hint per worker it
 * claimed; the kernel hands each hint to one pending read, and a hint written before the read is posted waits in
 * the pipe's buffer. Here the pipe is a FIFO of {@link Reader}s under one lock (the order in which reads were
 * posted), a write hands the hint to the oldest reader and wakes it, and a small buffer plays the kernel buffer's
 * part. Because a worker counts itself ({@link EmperSleepers#countSleeper}) and posts its read while holding this
 * lock, every hint a notifier has claimed finds a reader, so the buffer stays empty; the proof is in
 * {@code docs/sleep-strategies.md} section 6, and {@link #bufferedHints()} lets tests check it.
 */
final class HintPipe {
    final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}: posted reads, oldest first. */
    private final ArrayDeque<Reader> readers = new ArrayDeque<>();
    /** Guarded by {@link #lock}: hints written while no read was posted. */
    private final ArrayDeque<Integer> buffer = new ArrayDeque<>();

    /** One worker's end of the pipe. Fields guarded by the pipe's lock. */
    static final class Reader {
        final SharedLockSleepState sleeper;
        /** Our read is posted and has no hint yet. */
        boolean reading;
        /** A hint the pipe gave us, not yet moved to the worker's idle state, or {@link IdleState#ANYWHERE}. */
        int delivered = IdleState.ANYWHERE;

        /** {@code parker}: the worker's own, in which it waits for its hint. */
        Reader(HintPipe pipe, Parker parker) {
            this.sleeper = new SharedLockSleepState(pipe.lock, parker);
        }
    }

    /** Lock held, by a worker that has just counted itself: posts its read, or takes a buffered hint at once. */
    void postRead(Reader r) {
        Integer hint = buffer.poll();
        if (hint != null) {
            r.delivered = hint;
            return;
        }
        r.reading = true;
        readers.addLast(r);
    }

    /** Any thread, after claiming {@code count} sleepers on the count: writes that many hints. */
    void write(int count, int hint) {
        lock.lock();
        try {
            for (int i = 0; i < count; i++) {
                Reader r = readers.pollFirst();
                if (r == null) {
                    buffer.addLast(hint);
                    continue;
                }
                r.reading = false;
                r.delivered = hint;
                r.sleeper.wake();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Lock held, by a worker whose read is posted but which stops waiting for its own reason (latch, timer, or
     * work it saw itself): withdraws the read and gives its count back. If every counted worker is already claimed
     * by a notifier that has not written yet (the count is not positive), a hint is on its way to a posted read
     * (ours, or one ahead of ours): we wait for it, which takes only as long as that notifier needs to reach this
     * lock. Returns with {@code r.reading == false}.
     */
    void cancelRead(Reader r, EmperSleepers sleepers) {
        while (r.reading) {
            if (sleepers.uncountSleeper()) {
                readers.remove(r);
                r.reading = false;
                return;
            }
            r.sleeper.blocked = true;
            r.sleeper.awaitWake();
        }
    }

    /** For tests: hints written with no read posted. The proof says this stays 0. */
    int bufferedHints() {
        lock.lock();
        try {
            return buffer.size();
        } finally {
            lock.unlock();
        }
    }
}
