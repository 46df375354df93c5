package dev.forage.interop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The waiting half of {@link ForageFuture}: a {@link CompletableFuture} whose {@code join()} and {@code get()},
 * called on a worker of any Forage pool, keep the worker running other jobs until the future completes
 * ({@link Waiting}), and whose completion wakes exactly the waiting workers. Called on any other thread, they
 * block as {@code CompletableFuture}'s do; outcomes are always reported by {@code CompletableFuture}'s own
 * methods, so they are exactly the JDK's.
 *
 * <p>Its public methods are {@code ForageFuture}'s API (documented there as inherited members).
 */
abstract class HelpingFuture<T> extends CompletableFuture<T> {
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<HelpingFuture, LatchStack> WAITERS =
            AtomicReferenceFieldUpdater.newUpdater(HelpingFuture.class, LatchStack.class, "waiters");

    /** Threads helping in {@code join}/{@code get} on a worker; created (with its one callback) on first need. */
    private volatile LatchStack waiters;

    private LatchStack waiters() {
        LatchStack w = waiters;
        if (w != null) {
            return w;
        }
        final LatchStack created = new LatchStack();
        if (!WAITERS.compareAndSet(this, null, created)) {
            return waiters;
        }
        // CompletableFuture's own whenComplete: a ForageFuture's would create a stage on Java 8.
        super.whenComplete((value, error) -> created.releaseAll()); // one callback, however many waiters
        return created;
    }

    /**
     * As {@link CompletableFuture#join()}; on a pool worker, runs other jobs until this future completes.
     *
     * @throws CompletionException if this future completed exceptionally (the cause is the failure)
     * @throws java.util.concurrent.CancellationException if it was cancelled
     */
    @Override
    public T join() {
        if (!isDone() && Waiting.onWorker()) {
            Waiting.awaitUninterruptibly(waiters());
        }
        return super.join();
    }

    /**
     * As {@link CompletableFuture#get()}; on a pool worker, runs other jobs until this future completes.
     *
     * @throws ExecutionException if this future completed exceptionally (the cause is the failure)
     * @throws java.util.concurrent.CancellationException if it was cancelled
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (!isDone() && Waiting.onWorker()) {
            Waiting.await(waiters(), Waiting.FOREVER);
        }
        return super.get();
    }

    /**
     * As {@link CompletableFuture#get(long, TimeUnit)}; on a pool worker, runs other jobs while it waits.
     *
     * @throws TimeoutException if not complete within the timeout
     */
    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (unit == null) {
            throw new NullPointerException("get: unit must not be null");
        }
        if (!isDone() && Waiting.onWorker()) {
            if (!Waiting.await(waiters(), Waiting.timeoutNanos(timeout, unit)) && !isDone()) {
                throw new TimeoutException("ForageFuture not complete after " + timeout + " " + unit);
            }
            return super.get();
        }
        return super.get(timeout, unit);
    }
}
