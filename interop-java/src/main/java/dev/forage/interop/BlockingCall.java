package dev.forage.interop;

import dev.forage.ForageLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * One blocking call of {@link ForageBlocking}, run on a blocking thread while the pool worker that made it
 * keeps running other jobs. It behaves as if it ran inline on the worker: its result and exception come back
 * unchanged, and interrupts travel with it (an interrupt of the waiting worker is forwarded to the thread
 * running the call, and an interrupt the call did not consume comes back to the worker).
 */
final class BlockingCall<T> implements Runnable {
    private final Callable<T> callable;
    /** Owned by the waiting worker; set when the call is over. */
    private final ForageLatch done;
    // Written before done.set() (a volatile write) and read after the owner saw it set.
    private T result;
    private Throwable failure;
    private boolean leftoverInterrupt;
    /** The thread running the call, while it does. Guarded by {@code this}. */
    private Thread runner;
    /** An interrupt arrived (maybe before the call started). Guarded by {@code this}. */
    private boolean interruptRequested;

    private BlockingCall(Callable<T> callable, ForageLatch done) {
        this.callable = callable;
        this.done = done;
    }

    /**
     * Worker only. Runs {@code callable} on {@code threads} and helps until it is over; returns its result or
     * throws its exception.
     */
    static <T> T callElsewhere(Callable<T> callable, Executor threads) throws Exception {
        BlockingCall<T> call = new BlockingCall<>(callable, ForageLatch.forCurrentThread());
        Forwarder frame = new Forwarder(call);
        frame.enter();
        try {
            // After enter(): an interrupter sets the flag and then looks for our frame, so an interrupt is
            // either seen here or forwarded by the frame.
            if (Thread.interrupted()) {
                call.interrupt(); // the call starts with the flag set, as it would inline
            }
            threads.execute(call);
            call.done.awaitUninterruptibly();
        } finally {
            frame.exit();
        }
        if (call.leftoverInterrupt) {
            Thread.currentThread().interrupt();
        }
        return call.resultOrThrow();
    }

    @Override
    public void run() {
        synchronized (this) {
            runner = Thread.currentThread();
            if (interruptRequested) {
                runner.interrupt();
            }
        }
        try {
            result = callable.call();
        } catch (Throwable t) {
            failure = t;
        } finally {
            synchronized (this) {
                runner = null;
            }
            // No interrupt can target this thread for this call any more: take what is left of one back to the
            // caller, and leave a clean flag for the next call on this thread.
            leftoverInterrupt = Thread.interrupted();
            // Hazard: once set, the owner may return; nothing may follow.
            done.set();
        }
    }

    private synchronized void interrupt() {
        interruptRequested = true;
        if (runner != null) {
            runner.interrupt();
        }
    }

    private T resultOrThrow() throws Exception {
        Throwable t = failure;
        if (t == null) {
            return result;
        }
        if (t instanceof Exception) {
            throw (Exception) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        throw new RuntimeException("the blocking call threw a Throwable that is neither an Exception nor an Error", t);
    }

    @Override
    public String toString() {
        return "BlockingCall[" + callable + "]";
    }

    /** The waiting worker's frame: its interrupts go to the blocking call. */
    private static final class Forwarder extends Waiting.Frame {
        private final BlockingCall<?> call;

        Forwarder(BlockingCall<?> call) {
            this.call = call;
        }

        @Override
        void onInterrupt() {
            call.interrupt();
        }
    }
}
