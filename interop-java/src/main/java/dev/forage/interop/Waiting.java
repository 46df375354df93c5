package dev.forage.interop;

import dev.forage.ForageLatch;
import dev.forage.ForagePool;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for something on a pool worker without blocking the worker: the helping wait behind every
 * {@code join()}, {@code get()}, {@code invokeAll}, {@code invokeAny} and {@code awaitTermination} of this
 * package.
 *
 * <p>A waiter creates a {@link ForageLatch} (it owns it), pushes it on the awaited thing's {@link LatchStack},
 * and waits on it. On a worker it keeps running other jobs of its pool meanwhile, and the release wakes
 * exactly this worker (targeted wake-up); elsewhere it simply blocks.
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

    /**
     * A timed wait's timeout in nanoseconds for {@link #await}: never {@link #FOREVER} (which is -1 ns, so a
     * caller's own "-1 ns" must not turn into "no timeout"); zero or less means "do not wait".
     */
    static long timeoutNanos(long timeout, TimeUnit unit) {
        return Math.max(unit.toNanos(timeout), 0L);
    }

    /** True when the calling thread is a worker of some Forage pool: a wait there should help. */
    static boolean onWorker() {
        return ForagePool.current() != null;
    }

    /**
     * Waits until {@code done} is released or {@code timeoutNanos} (or {@link #FOREVER}) elapses; returns
     * whether it is released. On a pool worker it runs other jobs meanwhile; elsewhere it blocks. Throws
     * {@link InterruptedException} if the flag is set on entry, if the thread is interrupted while blocked
     * (off the pool), or if the wait is {@linkplain #interrupt(Thread) interrupted} (on a worker).
     */
    static boolean await(LatchStack done, long timeoutNanos) throws InterruptedException {
        if (done.isReleased()) {
            return true;
        }
        ForageLatch latch = ForageLatch.forCurrentThread();
        LatchStack.Node node = done.push(latch);
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
        } catch (InterruptedException e) {
            done.remove(node);
            throw e;
        } finally {
            frame.exit();
        }
        if (done.isReleased()) {
            return true;
        }
        done.remove(node);
        if (frame.interrupted) {
            Thread.interrupted(); // the flag may or may not have survived the jobs run meanwhile
            throw new InterruptedException("interrupted while waiting on a Forage worker");
        }
        return false;
    }

    /** Waits until {@code done} is released, helping on a worker; ignores interrupts (as {@code join()} does). */
    static void awaitUninterruptibly(LatchStack done) {
        if (done.isReleased()) {
            return;
        }
        ForageLatch latch = ForageLatch.forCurrentThread();
        done.push(latch);
        latch.awaitUninterruptibly();
    }

    /**
     * Interrupts {@code thread} and wakes its innermost interruptible wait in this package, if any. Order
     * matters: interrupt first, look for a frame second (see {@link #await}).
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
