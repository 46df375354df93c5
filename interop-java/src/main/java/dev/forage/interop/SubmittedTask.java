package dev.forage.interop;

import dev.forage.ForageLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The future of a task submitted to a {@link ForageExecutorService}: a {@link FutureTask} (so run, cancel and
 * get keep their well-known semantics) whose {@code get} helps on a pool worker instead of blocking it, and
 * whose {@code cancel} takes a never-started task back from the pool at once.
 */
class SubmittedTask<V> extends FutureTask<V> {
    /** Marks {@link #waiters} once the task is done: late waiters set their latch themselves. */
    private static final Waiter DONE = new Waiter(null, null);
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<SubmittedTask, Waiter> WAITERS =
            AtomicReferenceFieldUpdater.newUpdater(SubmittedTask.class, Waiter.class, "waiters");

    /** The dispatch that currently carries this task to the pool (the latest one for a periodic task). */
    volatile Dispatch current;
    /** Workers helping in {@code get}: a Treiber stack of their latches, or {@link #DONE}. */
    private volatile Waiter waiters;

    SubmittedTask(Callable<V> callable) {
        super(callable);
    }

    SubmittedTask(Runnable runnable, V result) {
        super(runnable, result);
    }

    /** Runs the task for its dispatch (the pool-side run; {@link #run()} stays the user's). */
    void runDispatched() {
        run();
    }

    @Override
    protected void done() {
        Waiter w = WAITERS.getAndSet(this, DONE);
        for (; w != null && w != DONE; w = w.next) {
            w.latch.set();
        }
    }

    /**
     * Cancels as {@link FutureTask#cancel} does; a task that has not started is also withdrawn from the pool,
     * so it stops counting towards {@code awaitTermination} at once (a delayed one leaves the pool's timers).
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            Dispatch d = current;
            if (d != null) {
                if (mayInterruptIfRunning) {
                    d.wakeRunner(); // FutureTask interrupted it; a helping wait also needs its frame woken
                }
                d.withdraw();
            }
        }
        return cancelled;
    }

    /** As {@link FutureTask#get()}; on a pool worker, runs other jobs until the task is done. */
    @Override
    public V get() throws InterruptedException, ExecutionException {
        if (!isDone() && Waiting.onWorker()) {
            Waiting.helpUntilDone(completion(), Waiting.FOREVER);
        }
        return super.get();
    }

    /** As {@link FutureTask#get(long, TimeUnit)}; on a pool worker, runs other jobs while it waits. */
    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (unit == null) {
            throw new NullPointerException("get: unit must not be null");
        }
        if (!isDone() && Waiting.onWorker()) {
            if (!Waiting.helpUntilDone(completion(), unit.toNanos(timeout))) {
                throw new TimeoutException("task not done after " + timeout + " " + unit + ": " + this);
            }
            return super.get();
        }
        return super.get(timeout, unit);
    }

    private Waiting.Completion completion() {
        return new Waiting.Completion() {
            @Override
            public boolean isDone() {
                return SubmittedTask.this.isDone();
            }

            @Override
            public void setWhenDone(ForageLatch latch) {
                addWaiter(latch);
            }
        };
    }

    private void addWaiter(ForageLatch latch) {
        Waiter node = new Waiter(latch, null);
        while (true) {
            Waiter head = waiters;
            if (head == DONE) {
                latch.set();
                return;
            }
            node.next = head;
            if (WAITERS.compareAndSet(this, head, node)) {
                return;
            }
        }
    }

    private static final class Waiter {
        final ForageLatch latch;
        Waiter next;

        Waiter(ForageLatch latch, Waiter next) {
            this.latch = latch;
            this.next = next;
        }
    }
}
