package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The life cycle of an executor that owns its pool ({@code ForageExecutorService.owning}): the pool's state is
 * the executor's. Shutting either down shuts both down, termination means the pool's threads have ended, and
 * {@code shutdownNow} returns the pool's never-started jobs and interrupts its workers.
 *
 * <p>It keeps no books for immediate tasks: {@code execute}'s runnable and {@code submit}'s future go to the pool
 * as they are, so {@code execute} costs what {@link ForagePool#execute} costs plus one read of the pool's
 * shutdown state, which gives the executor's own message to a task submitted after shutdown. A submission that
 * races with shutdown is either rejected or runs, as it is for the pool itself. Only delayed and periodic tasks
 * travel in a {@link Dispatch} (a timer must be cancellable, and a periodic task must be found at shutdown).
 */
final class OwnerLifecycle implements ExecutorLifecycle {
    private final ForagePool pool;
    private final LiveDispatches live;
    /**
     * Set by {@link #shutdownNow()} before it shuts the pool down: the tasks it withdraws go back to the caller,
     * neither run nor cancelled, so the pool's shutdown action must not cancel them first.
     */
    private volatile boolean withdrawingAll;

    private OwnerLifecycle(ForagePool pool, LiveDispatches live) {
        this.pool = pool;
        this.live = live;
    }

    /**
     * The owner of {@code pool}, told by the pool when any face shuts it down ({@code pool.close()}, a Kotlin
     * {@code ForageDispatcher.close()}), so that it cancels its waiting periodic tasks at once: without that,
     * {@code pool.close()} would wait for an hourly task's next deadline. Registered only once constructed,
     * since a pool that is shut down already runs the action at once.
     */
    static OwnerLifecycle of(ForagePool pool, LiveDispatches live) {
        final OwnerLifecycle owner = new OwnerLifecycle(pool, live);
        pool.whenShutdown(new Runnable() {
            @Override
            public void run() {
                if (!owner.withdrawingAll) { // shutdownNow hands the waiting periodic tasks back instead
                    owner.live.cancelWaitingPeriodicRuns();
                }
            }
        });
        return owner;
    }

    @Override
    public boolean ownsPool() {
        return true;
    }

    @Override
    public String who() {
        return "executor owning pool " + pool.name();
    }

    @Override
    public void execute(Runnable command) {
        handOver(command, command);
    }

    @Override
    public void dispatch(SubmittedTask<?> task) {
        handOver(task, task);
    }

    /** The owning executor's whole submission path: the pool's own admission, plus one read of its state. */
    private void handOver(Runnable job, Object what) {
        admit(what);
        try {
            pool.execute(job);
        } catch (RejectedExecutionException e) {
            throw rejectedByPool(what, e);
        }
    }

    @Override
    public void admit(Object what) {
        if (pool.isShutdown()) {
            throw ExecutorCore.rejectedAfterShutdown(who(), what, null);
        }
    }

    @Override
    public void admitNextRun() {
        // Nothing to count: the pool's state is this executor's.
    }

    /** The pool refuses after shutdown, and while running only with a full queue. */
    @Override
    public RejectedExecutionException rejectedByPool(Object what, RejectedExecutionException cause) {
        if (cause != null && !pool.isShutdown()) {
            return ExecutorCore.rejectedByFullQueue(who(), pool, what, cause);
        }
        return ExecutorCore.rejectedAfterShutdown(who(), what, cause);
    }

    @Override
    public void dispatchEnded(Dispatch d) {
        live.remove(d);
    }

    /** Shuts the pool down, first: a periodic run that ends from now on sees it and stops. */
    @Override
    public void shutdown() {
        pool.shutdown();
        live.cancelWaitingPeriodicRuns();
    }

    /**
     * The pool's {@code shutdownNow} (which also cancels its timers and interrupts every worker); its jobs that
     * never started are handed back as the user gave them: a dispatch as its runnable or future.
     */
    @Override
    public List<Runnable> shutdownNow() {
        withdrawingAll = true;
        List<Runnable> neverStarted = new ArrayList<>();
        for (Runnable job : pool.shutdownNow()) {
            if (job instanceof Dispatch) {
                Dispatch d = (Dispatch) job;
                if (d.withdraw()) {
                    neverStarted.add(d.reported());
                }
            } else if (!(job instanceof SubmittedTask) || !((SubmittedTask<?>) job).isDone()) {
                neverStarted.add(job); // a task cancelled before it started is not handed back
            }
        }
        live.withdrawAll(neverStarted); // a periodic task's next run that slipped in meanwhile
        // The pool interrupted its workers; wake the helping waits that the jobs run meanwhile hid it from.
        Waiting.wakeAllIn(pool);
        return neverStarted;
    }

    @Override
    public boolean isShutdown() {
        followPool();
        return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        followPool();
        return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        followPool();
        if (pool.isCurrentThreadWorker() && !pool.isTerminated()) {
            throw new IllegalStateException("awaitTermination called on a worker of the " + who()
                    + ": it would wait for itself; call it from a thread outside the pool");
        }
        return pool.awaitTermination(Math.max(timeout, 0L), unit);
    }

    /**
     * Cancels the waiting periodic tasks if another face shut the pool down and the pool's shutdown action has
     * not run yet (it runs on the thread that shut the pool down, possibly still on its way to it).
     */
    private void followPool() {
        if (!live.isEmpty() && pool.isShutdown()) {
            shutdown();
        }
    }

    @Override
    public String describe(String state) {
        return "owning pool " + pool.name() + ", " + state;
    }
}
