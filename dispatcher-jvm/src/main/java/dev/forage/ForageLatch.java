package dev.forage;

import java.util.concurrent.TimeUnit;

/**
 * A one-shot signal with one owner, the thread that created it: any thread may {@link #set()} it, and only
 * the owner {@linkplain #await() waits} for it. Created on a pool worker, waiting does not block the worker:
 * it keeps running other jobs, then sleeps on this latch, and {@code set()} wakes exactly this worker. Created
 * anywhere else, waiting blocks the thread. On a {@linkplain ForagePool#isSingleThreaded() single-threaded}
 * pool, created while the thread runs the pool's jobs (inside {@code join}, {@code scope}, {@code install}), it
 * waits by running the pool's queued jobs.
 *
 * <p>This is the building block for waiting inside the pool without starving it, for example until a future
 * completes:
 * <pre>{@code
 * ForageLatch done = ForageLatch.forCurrentThread();
 * future.whenComplete((value, error) -> done.set());
 * done.await();   // on a worker: runs other jobs meanwhile
 * }</pre>
 */
public final class ForageLatch {
    private final Thread owner;
    private final Worker worker;
    private final Latch latch;

    private ForageLatch(Thread owner, Worker worker, Latch latch) {
        this.owner = owner;
        this.worker = worker;
        this.latch = latch;
    }

    /** A new unset latch owned by the calling thread. */
    public static ForageLatch forCurrentThread() {
        Worker w = Worker.current();
        if (w != null) {
            return new ForageLatch(Thread.currentThread(), w, w.newLatch());
        }
        return new ForageLatch(Thread.currentThread(), null, new LockLatch());
    }

    /** Sets the latch (idempotent) and wakes the owner if it sleeps on it. Any thread. */
    public void set() {
        latch.set();
    }

    /** True once set. */
    public boolean isSet() {
        return latch.probe();
    }

    /**
     * Waits until set. On a worker, runs other jobs meanwhile and does not respond to interrupts while
     * helping; elsewhere, blocks interruptibly.
     *
     * @throws InterruptedException if the calling thread is interrupted on entry, or (off the pool) while
     *     blocked
     * @throws IllegalStateException if the calling thread is not the owner
     */
    public void await() throws InterruptedException {
        checkOwner();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before ForageLatch.await");
        }
        if (worker != null) {
            awaitOnWorker(Worker.NO_DEADLINE);
        } else {
            ((LockLatch) latch).await();
        }
    }

    /**
     * Waits until set or the timeout elapses; returns whether it is set. See {@link #await()}.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("ForageLatch.await: timeout must be >= 0, was " + timeout);
        }
        checkOwner();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before ForageLatch.await");
        }
        if (latch.probe()) {
            return true;
        }
        if (worker != null) {
            long nanos = Math.min(unit.toNanos(timeout), Long.MAX_VALUE >> 2);
            return awaitOnWorker(worker.nanoTime() + nanos);
        }
        return ((LockLatch) latch).await(timeout, unit);
    }

    /** Waits until set, never throwing {@link InterruptedException}; an interrupt is re-asserted on return. */
    public void awaitUninterruptibly() {
        checkOwner();
        if (worker != null) {
            awaitOnWorker(Worker.NO_DEADLINE);
        } else {
            ((LockLatch) latch).awaitUninterruptibly();
        }
    }

    /** The owner is (or was) a worker: run jobs while waiting. */
    private boolean awaitOnWorker(long deadline) {
        return worker.awaitLatch((SpinLatch) latch, deadline);
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("ForageLatch.await called by " + Thread.currentThread().getName()
                    + ", but only its owner " + owner.getName() + " (the thread that created it) may wait on it");
        }
    }

    @Override
    public String toString() {
        return "ForageLatch[" + (isSet() ? "set" : "unset") + ", owner=" + owner.getName() + "]";
    }
}
