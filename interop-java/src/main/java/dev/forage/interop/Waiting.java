package dev.forage.interop;

import dev.forage.ForageLatch;
import dev.forage.ForagePool;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for something on a pool worker without blocking the worker: the helping wait behind every
 * {@code join()}, {@code get()}, {@code invokeAll}, {@code invokeAny} and {@code awaitTermination} of this
 * package.
 *
 * <p>A worker that waits creates a {@link ForageLatch} (it owns it), asks the awaited thing to set it on
 * completion, and waits on it: meanwhile it keeps running other jobs of its pool, and the completion wakes
 * exactly this worker (targeted wake-up).
 *
 * <p><b>Interrupts.</b> A helping worker runs other jobs, and the pool clears the interrupt flag after each job
 * (an interrupt must not leak from one job into the next), so a plain {@link Thread#interrupt()} is not a
 * reliable way to stop a helping wait. Every interruptible wait therefore registers a {@link Frame} for its
 * thread; this package's own interrupters ({@code shutdownNow}, {@code cancel(true)}) call
 * {@link #interrupt(Thread)}, which interrupts the thread <i>and</i> wakes its innermost frame, so the wait
 * ends with {@link InterruptedException} however many jobs it ran meanwhile.
 */
final class Waiting {
    /** The innermost interruptible wait of each thread that is in one; absent otherwise. */
    private static final ConcurrentHashMap<Thread, Frame> FRAMES = new ConcurrentHashMap<>();

    /** No timeout: wait until done. */
    static final long FOREVER = -1L;

    private Waiting() {
    }

    /** Something that completes once and can set a latch when it does. */
    interface Completion {
        boolean isDone();

        /** Sets {@code latch} when done; at once if done already. Must not throw. */
        void setWhenDone(ForageLatch latch);
    }

    /** True when the calling thread is a worker of some Forage pool: a wait there should help. */
    static boolean onWorker() {
        return ForagePool.current() != null;
    }

    /**
     * Worker only. Runs other jobs until {@code c} is done or {@code timeoutNanos} (or {@link #FOREVER})
     * elapses; returns whether it is done. Interruptible: throws {@link InterruptedException} if the flag is
     * set on entry or the wait is {@linkplain #interrupt(Thread) interrupted} before {@code c} is done.
     */
    static boolean helpUntilDone(Completion c, long timeoutNanos) throws InterruptedException {
        if (c.isDone()) {
            return true;
        }
        ForageLatch latch = ForageLatch.forCurrentThread();
        c.setWhenDone(latch);
        LatchFrame frame = new LatchFrame(latch);
        frame.enter();
        try {
            // Both throw InterruptedException when the flag is already set (also if it was set just before
            // the frame was registered: the interrupter interrupts first and looks for a frame second).
            if (timeoutNanos == FOREVER) {
                latch.await();
            } else {
                latch.await(Math.max(timeoutNanos, 0L), TimeUnit.NANOSECONDS);
            }
        } finally {
            frame.exit();
        }
        if (c.isDone()) {
            return true;
        }
        if (frame.interrupted) {
            Thread.interrupted(); // the flag may or may not have survived the jobs run meanwhile
            throw new InterruptedException("interrupted while waiting on a Forage worker");
        }
        return false;
    }

    /** Worker only. Runs other jobs until {@code c} is done; ignores interrupts (as {@code join()} does). */
    static void helpUntilDoneUninterruptibly(Completion c) {
        if (c.isDone()) {
            return;
        }
        ForageLatch latch = ForageLatch.forCurrentThread();
        c.setWhenDone(latch);
        latch.awaitUninterruptibly();
    }

    /**
     * Waits until {@code f} is done: helping on a worker, blocking elsewhere. Returns false on timeout. Does not
     * report the outcome: read it from {@code f}.
     */
    static boolean awaitDone(final CompletableFuture<?> f, long timeoutNanos) throws InterruptedException {
        if (f.isDone()) {
            return true;
        }
        if (onWorker()) {
            return helpUntilDone(of(f), timeoutNanos);
        }
        try {
            if (timeoutNanos == FOREVER) {
                f.get();
            } else {
                f.get(timeoutNanos, TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException | CancellationException e) {
            // Done, exceptionally: the caller reads the outcome.
        } catch (TimeoutException e) {
            return false;
        }
        return true;
    }

    /** A {@link Completion} view of any {@link CompletableFuture}. */
    static Completion of(final CompletableFuture<?> f) {
        return new Completion() {
            @Override
            public boolean isDone() {
                return f.isDone();
            }

            @Override
            public void setWhenDone(final ForageLatch latch) {
                f.whenComplete((value, error) -> latch.set());
            }
        };
    }

    /**
     * Interrupts {@code thread} and wakes its innermost interruptible wait in this package, if any. Order
     * matters: interrupt first, look for a frame second (see {@link #helpUntilDone}).
     */
    static void interrupt(Thread thread) {
        thread.interrupt();
        wake(thread);
    }

    /** Wakes the innermost interruptible wait of {@code thread} (after someone else interrupted it). */
    static void wake(Thread thread) {
        Frame f = FRAMES.get(thread);
        if (f != null) {
            f.onInterrupt();
        }
    }

    /** Wakes every interruptible wait running on a worker of {@code pool} (its owner's shutdownNow). */
    static void wakeAllIn(ForagePool pool) {
        for (Frame f : FRAMES.values()) {
            if (f.pool == pool) {
                f.onInterrupt();
            }
        }
    }

    /** One interruptible wait of one thread; frames of a thread nest (a helping worker may wait again). */
    abstract static class Frame {
        final Thread thread = Thread.currentThread();
        final ForagePool pool = ForagePool.current();
        private Frame outer;

        /** Called by an interrupter, on its own thread. Must not block. */
        abstract void onInterrupt();

        final void enter() {
            outer = FRAMES.put(thread, this);
        }

        final void exit() {
            if (outer != null) {
                FRAMES.put(thread, outer);
            } else {
                FRAMES.remove(thread);
            }
        }
    }

    private static final class LatchFrame extends Frame {
        private final ForageLatch latch;
        volatile boolean interrupted;

        LatchFrame(ForageLatch latch) {
            this.latch = latch;
        }

        @Override
        void onInterrupt() {
            interrupted = true; // before set(): the waiter reads it after its latch returns
            latch.set();
        }
    }
}
