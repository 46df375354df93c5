package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ScheduledExecutorService} over a {@link ForagePool}: tasks run on the pool's workers, delayed and
 * periodic tasks wait in the pool's own timers (no timer thread), and every blocking method ({@code get},
 * {@code invokeAll}, {@code invokeAny}, {@code awaitTermination}) called on a pool worker keeps that worker
 * running other jobs instead of blocking it.
 *
 * <pre>{@code
 * try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(4).build())) {
 *     Future<Integer> answer = executor.submit(() -> 6 * 7);
 *     ScheduledFuture<?> tick = executor.scheduleAtFixedRate(() -> System.out.println("tick"),
 *             0, 100, TimeUnit.MILLISECONDS);
 *     System.out.println(answer.get());
 *     tick.cancel(false);
 * } // close(): shutdown() and wait; the pool is owned, so it is shut down too
 * }</pre>
 *
 * <h2>Owning a pool, or viewing a shared one</h2>
 * The pool is the source of truth about its own life: whichever face shuts it down ({@link ForagePool#close()},
 * {@link ForagePool#shutdown()}, this executor, a Kotlin {@code ForageDispatcher} over it), every executor over
 * it reports shut down from then on and rejects new tasks.
 * <ul>
 *   <li>{@link #owning(ForagePool)}: the executor is the pool's face, and its state is the pool's state:
 *       {@code isShutdown()} and {@code isTerminated()} are the pool's, {@code shutdown()} shuts the pool down,
 *       {@code shutdownNow()} also returns the pool's own never-started jobs and interrupts its workers, and
 *       {@code awaitTermination} waits until the pool's threads have ended. It keeps no books of its own for
 *       {@code execute}, which costs what {@link ForagePool#execute} costs plus one read of the pool's
 *       shutdown state.</li>
 *   <li>{@link #viewOf(ForagePool)}: one of possibly many executors over a shared pool (for example
 *       {@link ForagePool#commonPool()}). Its life cycle is its own: {@code shutdown()} only stops <i>this
 *       view</i> accepting tasks, {@code shutdownNow()} withdraws and interrupts only this view's tasks, and
 *       {@code awaitTermination} waits only for the tasks this view accepted. The pool keeps running. A view
 *       over a pool that was shut down is shut down too, and terminated once its tasks ended or the pool
 *       terminated (whoever called {@link ForagePool#shutdownNow()} got the tasks that never started).</li>
 * </ul>
 *
 * <h2>Contract details</h2>
 * <ul>
 *   <li>After {@code shutdown()}, submissions throw {@link RejectedExecutionException}; accepted tasks still
 *       run, one-shot delayed tasks still run at their deadlines, and periodic tasks are cancelled (the
 *       defaults of {@code ScheduledThreadPoolExecutor}).</li>
 *   <li>{@code shutdownNow()} returns the tasks that never started, as they were given to {@code execute}
 *       or as the futures that {@code submit}/{@code schedule} returned (neither run nor cancelled: run them
 *       elsewhere or cancel them), and interrupts the threads running this executor's tasks. A task waiting in
 *       an interruptible {@code get()} on a worker gets its {@link InterruptedException} even though the
 *       worker ran other jobs meanwhile.</li>
 *   <li>{@code cancel} on a future that has not started takes it back from the pool at once (a delayed one
 *       leaves the pool's timers), so it never delays termination.</li>
 *   <li>A task given to {@code execute} that throws goes to the pool's uncaught-exception handler; a task
 *       given to {@code submit} keeps its exception in its future.</li>
 *   <li>{@code invokeAny} starts all tasks, returns the first successful result, and cancels (interrupting)
 *       the others; when all fail it throws {@link ExecutionException} whose cause is the last failure (the
 *       others are attached as suppressed exceptions).</li>
 * </ul>
 */
public final class ForageExecutorService implements ScheduledExecutorService, AutoCloseable {
    /** {@link #control}: this bit once shut down; the low bits count live dispatches. */
    private static final long SHUTDOWN = 1L << 62;
    /** Delays and periods are capped here so that deadline arithmetic cannot overflow (about 73 years). */
    private static final long MAX_NANOS = Long.MAX_VALUE >> 2;
    /**
     * How often a view's {@code awaitTermination} looks whether its pool terminated, once the pool is shut
     * down: the pool has no termination callback, and tasks that the pool's {@code shutdownNow} took away never
     * end for the view. Only that case polls; a view whose tasks end is woken by the last one.
     */
    private static final long POOL_TERMINATION_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ForagePool pool;
    private final boolean ownsPool;
    /**
     * Views only: SHUTDOWN bit plus the number of live dispatches (queued, waiting in a timer, or running). A
     * submission increments and then checks the bit; shutdown sets the bit and then checks the count (as the
     * pool's own admission does), so a task is either rejected or counted before termination is decided. An
     * owning executor leaves it at zero: the pool's own word is its state.
     */
    private final AtomicLong control = new AtomicLong();
    /**
     * Set by this executor's {@code shutdownNow} before it shuts the pool down: the tasks it withdraws go back to
     * the caller, neither run nor cancelled, so the pool's shutdown action must not cancel them first.
     */
    private volatile boolean withdrawingAll;
    /**
     * The live dispatches: a view's all of them (for shutdownNow and for cancelling periodic tasks at shutdown);
     * an owning executor's delayed and periodic ones only (its immediate tasks go to the pool as they are).
     */
    private final Set<Dispatch> dispatches = ConcurrentHashMap.newKeySet();
    /** Views only: released once shut down with no live dispatch; awaitTermination waits on it. */
    private final LatchStack drained = new LatchStack();

    private ForageExecutorService(ForagePool pool, boolean ownsPool) {
        this.pool = pool;
        this.ownsPool = ownsPool;
    }

    /**
     * An executor that owns {@code pool}: its state is the pool's (shutting either down shuts both down, and
     * termination means the pool's threads have ended). Do not give the pool to another owner.
     *
     * <pre>{@code
     * ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(8).build());
     * }</pre>
     *
     * @throws IllegalArgumentException for the common pool, which lives as long as the JVM (use
     *     {@link #viewOf})
     */
    public static ForageExecutorService owning(ForagePool pool) {
        if (pool == null) {
            throw new NullPointerException("owning: pool must not be null");
        }
        if (isCommonPool(pool)) {
            throw new IllegalArgumentException("owning: the common pool cannot be owned (it lives as long as the "
                    + "JVM); use ForageExecutorService.viewOf(ForagePool.commonPool()), or own a private pool "
                    + "from ForagePool.builder()");
        }
        final ForageExecutorService executor = new ForageExecutorService(pool, true);
        pool.whenShutdown(new Runnable() {
            @Override
            public void run() {
                if (!executor.withdrawingAll) { // shutdownNow hands the waiting periodic tasks back instead
                    executor.cancelWaitingPeriodicRuns();
                }
            }
        });
        return executor;
    }

    /**
     * An executor over a shared {@code pool} with a life cycle of its own: shutting it down stops only this
     * view, and awaiting its termination waits only for the tasks it accepted. When the pool itself is shut
     * down (by its owner, through any face), the view is shut down too.
     *
     * <pre>{@code
     * ForageExecutorService requests = ForageExecutorService.viewOf(ForagePool.commonPool());
     * requests.submit(() -> handle(request));
     * requests.shutdown();                                 // the common pool keeps running
     * requests.awaitTermination(10, TimeUnit.SECONDS);     // waits for this view's tasks only
     * }</pre>
     */
    public static ForageExecutorService viewOf(ForagePool pool) {
        if (pool == null) {
            throw new NullPointerException("viewOf: pool must not be null");
        }
        return new ForageExecutorService(pool, false);
    }

    /** A new {@linkplain #viewOf view} of {@link ForagePool#commonPool()}. */
    public static ForageExecutorService viewOfCommonPool() {
        return viewOf(ForagePool.commonPool());
    }

    private static boolean isCommonPool(ForagePool pool) {
        // Compare by name first, so that owning a private pool never creates the common pool's threads.
        return "forage-common".equals(pool.name()) && pool == ForagePool.commonPool();
    }

    /** The pool the tasks run on; use it for {@link ForageFutures} too. */
    public ForagePool pool() {
        return pool;
    }

    /** True for an executor made by {@link #owning}, false for a {@link #viewOf view}. */
    public boolean ownsPool() {
        return ownsPool;
    }

    // Submission.

    /**
     * Runs {@code command} on the pool. An exception it throws goes to the pool's uncaught-exception handler.
     *
     * @throws RejectedExecutionException after shutdown (of this executor, or of its pool through any face),
     *     also when called from a task running on the pool
     */
    @Override
    public void execute(Runnable command) {
        notNull(command, "execute", "command");
        if (ownsPool) {
            executeOwned(command, command);
        } else {
            dispatchNow(new Dispatch(this, command), command);
        }
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        notNull(task, "submit", "task");
        return dispatch(new SubmittedTask<>(task));
    }

    @Override
    public Future<?> submit(Runnable task) {
        notNull(task, "submit", "task");
        return dispatch(new SubmittedTask<Void>(task, null));
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        notNull(task, "submit", "task");
        return dispatch(new SubmittedTask<>(task, result));
    }

    /** Hands {@code task} to the pool now (invokeAll creates its tasks first and dispatches them after). */
    <T> SubmittedTask<T> dispatch(SubmittedTask<T> task) {
        if (ownsPool) {
            executeOwned(task, task);
        } else {
            Dispatch d = new Dispatch(this, task);
            task.current = d;
            dispatchNow(d, task);
        }
        return task;
    }

    /**
     * The owning executor's whole submission path: the pool's own admission, plus one read of its shutdown
     * state, so that a task refused after shutdown gets the executor's message rather than the pool's. A
     * submission that races with shutdown is either rejected or runs, as it is for the pool itself.
     */
    private void executeOwned(Runnable job, Object what) {
        if (pool.isShutdown()) {
            throw rejectedAfterShutdown(what, null);
        }
        try {
            pool.execute(job);
        } catch (RejectedExecutionException e) {
            throw rejectedAfterShutdown(what, e);
        }
    }

    private void dispatchNow(Dispatch d, Object what) {
        admit(what);
        dispatches.add(d);
        try {
            pool.execute(d);
        } catch (RejectedExecutionException e) {
            d.withdraw();
            throw poolRejected(what, e);
        } catch (RuntimeException | Error e) {
            d.withdraw(); // the pool's task decorator failed: nothing was queued, so the view must not wait for it
            throw e;
        }
    }

    // Invocation of many.

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return Invocations.invokeAll(this, tasks, Waiting.FOREVER);
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAll(Collection, long, TimeUnit)}: one future per
     * task, in the tasks' order, every one done on return; those not done by the timeout are cancelled (a
     * timeout of zero or less cancels every task not done at once).
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        notNull(unit, "invokeAll", "unit");
        return Invocations.invokeAll(this, tasks, clampNanos(unit.toNanos(timeout)));
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return Invocations.invokeAny(this, tasks, Waiting.FOREVER);
        } catch (TimeoutException e) {
            throw new AssertionError("invokeAny without a timeout timed out", e);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        notNull(unit, "invokeAny", "unit");
        return Invocations.invokeAny(this, tasks, clampNanos(unit.toNanos(timeout)));
    }

    // Scheduling.

    /**
     * Runs {@code command} once after {@code delay}, from the pool's timers. A delay of zero or less runs it as
     * soon as a worker looks.
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        notNull(command, "schedule", "command");
        notNull(unit, "schedule", "unit");
        long nanos = clampNanos(unit.toNanos(delay));
        return scheduleFirstRun(new ScheduledTask<Void>(this, command, null, System.nanoTime() + nanos, 0L), nanos);
    }

    /** Runs {@code callable} once after {@code delay}, from the pool's timers. */
    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        notNull(callable, "schedule", "callable");
        notNull(unit, "schedule", "unit");
        long nanos = clampNanos(unit.toNanos(delay));
        return scheduleFirstRun(new ScheduledTask<>(this, callable, System.nanoTime() + nanos), nanos);
    }

    /**
     * Runs {@code command} after {@code initialDelay} and then every {@code period} (measured from the
     * scheduled start of each run, so runs do not drift; a late run is followed at once by the next due one,
     * never overlapping). It stops when a run throws (the future then holds the exception), when the future
     * is cancelled, or at shutdown (a run in progress then finishes first).
     *
     * @throws IllegalArgumentException if {@code period} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return schedulePeriodic("scheduleAtFixedRate", "period", command, initialDelay, period, unit, true);
    }

    /**
     * Runs {@code command} after {@code initialDelay} and then again {@code delay} after each run ends. Stops
     * as {@link #scheduleAtFixedRate} does.
     *
     * @throws IllegalArgumentException if {@code delay} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return schedulePeriodic("scheduleWithFixedDelay", "delay", command, initialDelay, delay, unit, false);
    }

    private ScheduledFuture<?> schedulePeriodic(String method, String what, Runnable command, long initialDelay,
            long every, TimeUnit unit, boolean fixedRate) {
        notNull(command, method, "command");
        notNull(unit, method, "unit");
        if (every <= 0) {
            throw new IllegalArgumentException(method + " on the " + who() + ": " + what + " must be > 0, was "
                    + every + " " + unit);
        }
        long nanos = clampNanos(unit.toNanos(initialDelay));
        long everyNanos = Math.max(1L, clampNanos(unit.toNanos(every)));
        // ScheduledTask's encoding: a positive period is a fixed rate, a negative one a fixed delay.
        return scheduleFirstRun(new ScheduledTask<Void>(this, command, null, System.nanoTime() + nanos,
                fixedRate ? everyNanos : -everyNanos), nanos);
    }

    private <V> ScheduledTask<V> scheduleFirstRun(ScheduledTask<V> task, long delayNanos) {
        if (ownsPool) {
            if (pool.isShutdown()) {
                throw rejectedAfterShutdown(task, null);
            }
        } else {
            admit(task);
        }
        Dispatch d = new Dispatch(this, task);
        task.current = d;
        dispatches.add(d);
        try {
            d.setTimer(pool.schedule(d, delayNanos, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            d.withdraw();
            throw ownsPool ? rejectedAfterShutdown(task, e) : poolRejected(task, e);
        } catch (RuntimeException | Error e) {
            d.withdraw(); // the pool's task decorator failed: nothing was queued
            throw e;
        }
        return task;
    }

    /**
     * The next run of a periodic task: counted without the shutdown check (the current run is still live, so
     * the count cannot reach zero meanwhile; the task re-checks shutdown itself). False if the pool rejects it;
     * the exception of the pool's task decorator, which decorates every run, passes through (nothing is queued).
     */
    boolean scheduleNextRun(Dispatch d, long delayNanos) {
        if (!ownsPool) {
            control.incrementAndGet();
        }
        dispatches.add(d);
        try {
            d.setTimer(pool.schedule(d, delayNanos, TimeUnit.NANOSECONDS));
            return true;
        } catch (RejectedExecutionException e) {
            d.withdraw();
            return false;
        } catch (RuntimeException | Error e) {
            d.withdraw();
            throw e;
        }
    }

    // Accounting (a view's; an owning executor's state is its pool's).

    private void admit(Object what) {
        long c = control.getAndIncrement();
        if ((c & SHUTDOWN) != 0) {
            release();
            throw rejectedAfterShutdown(what, null);
        }
        if (pool.isShutdown()) {
            // A view over a shut-down pool is shut down, whichever face shut the pool down.
            release();
            shutdown();
            throw poolRejected(what, null);
        }
    }

    /** A dispatch ended: it ran, or it was withdrawn. Exactly once per dispatch (its claim). */
    void dispatchEnded(Dispatch d) {
        dispatches.remove(d);
        if (!ownsPool) {
            release();
        }
    }

    private void release() {
        if (control.decrementAndGet() == SHUTDOWN) {
            drained.releaseAll();
        }
    }

    /** Sets the SHUTDOWN bit; returns true for the call that set it. */
    private boolean markShutdown() {
        while (true) {
            long c = control.get();
            if ((c & SHUTDOWN) != 0) {
                return false;
            }
            if (control.compareAndSet(c, c | SHUTDOWN)) {
                if (c == 0) {
                    drained.releaseAll();
                }
                return true;
            }
        }
    }

    /**
     * Adopts the pool's shutdown, whichever face shut the pool down: a view shuts itself down, and either kind
     * cancels its periodic tasks still waiting in a timer (the pool cannot tell this executor; without this, an
     * hourly task would keep the shut-down pool's last worker alive until its next deadline).
     */
    private void followPool() {
        if (ownsPool ? !dispatches.isEmpty() : (control.get() & SHUTDOWN) == 0) {
            if (pool.isShutdown()) {
                shutdown();
            }
        }
    }

    // Life cycle.

    /**
     * Stops accepting tasks; accepted ones still run, one-shot delayed ones at their deadlines; periodic tasks
     * are cancelled (one whose run is in progress once that run ends). An owning executor shuts its pool down
     * too; a view leaves the pool running. Idempotent.
     */
    @Override
    public void shutdown() {
        if (ownsPool) {
            pool.shutdown(); // first: a periodic run that ends from now on sees it and stops (ScheduledTask)
        } else {
            markShutdown();
        }
        cancelWaitingPeriodicRuns();
    }

    /**
     * Cancels the periodic tasks whose next run waits in a timer: only those, since a run in progress finishes
     * and then cancels its task. Idempotent. An owning executor also runs it when its pool is shut down through
     * another face ({@link ForagePool#whenShutdown}), or the timer of an hourly task would keep the pool's
     * last worker, and so {@code pool.close()}, waiting until its deadline.
     */
    private void cancelWaitingPeriodicRuns() {
        for (Dispatch d : dispatches) {
            if (d.isPeriodic() && d.withdraw()) {
                d.task().cancel(false);
            }
        }
    }

    /**
     * Shuts down, takes back every task that has not started, and interrupts the threads running this
     * executor's tasks. Returns the tasks taken back: the {@code Runnable}s given to {@code execute}, and the
     * futures returned by {@code submit} and {@code schedule} (they are neither run nor cancelled). An owning
     * executor also returns the pool's other never-started jobs and interrupts all its workers.
     */
    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> neverStarted = new ArrayList<>();
        if (ownsPool) {
            withdrawingAll = true;
            for (Runnable job : pool.shutdownNow()) { // also cancels the timers and interrupts every worker
                if (job instanceof Dispatch) {
                    Dispatch d = (Dispatch) job;
                    if (d.withdraw()) {
                        neverStarted.add(d.reported());
                    }
                } else if (!(job instanceof SubmittedTask) || !((SubmittedTask<?>) job).isDone()) {
                    neverStarted.add(job); // a task cancelled before it started is not handed back
                }
            }
            for (Dispatch d : dispatches) {
                if (d.withdraw()) { // a periodic task's next run that slipped in meanwhile
                    neverStarted.add(d.reported());
                }
            }
            // The pool interrupted its workers; wake the helping waits that the jobs run meanwhile hid it from.
            Waiting.wakeAllIn(pool);
            return neverStarted;
        }
        markShutdown();
        // Withdraw everything first, interrupt second: an interrupted task ends and frees its worker, which
        // would otherwise start queued tasks that this pass has not withdrawn yet.
        for (Dispatch d : dispatches) {
            if (d.withdraw()) {
                neverStarted.add(d.reported());
            }
        }
        for (Dispatch d : dispatches) {
            d.interruptRunner(); // a no-op unless it is running
        }
        return neverStarted;
    }

    /** True once this executor, or (for either kind) its pool through any face, was shut down. */
    @Override
    public boolean isShutdown() {
        followPool();
        return ownsPool ? pool.isShutdown() : (control.get() & SHUTDOWN) != 0;
    }

    /**
     * True once shut down and every accepted task ended: for an owning executor, once the pool terminated (its
     * threads have ended); for a view, once its tasks ended or its pool terminated.
     */
    @Override
    public boolean isTerminated() {
        followPool();
        // A terminated pool runs nothing more, so a view over it is terminated too (and shut down: followPool).
        return ownsPool ? pool.isTerminated() : drained.isReleased() || pool.isTerminated();
    }

    /**
     * Waits until {@linkplain #isTerminated() terminated} or the timeout elapses (a timeout of zero or less
     * does not wait). On a worker of a view's pool it keeps running other jobs while it waits.
     *
     * @throws IllegalStateException if this executor owns the pool and the caller is one of its workers (it
     *     would wait for itself)
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        notNull(unit, "awaitTermination", "unit");
        followPool();
        if (ownsPool) {
            if (pool.isCurrentThreadWorker() && !pool.isTerminated()) {
                throw new IllegalStateException("awaitTermination called on a worker of the " + who()
                        + ": it would wait for itself; call it from a thread outside the pool");
            }
            return pool.awaitTermination(Math.max(timeout, 0L), unit);
        }
        long nanos = clampNanos(unit.toNanos(timeout));
        if (!pool.isShutdown() || pool.isCurrentThreadWorker()) {
            return Waiting.await(drained, nanos);
        }
        // The pool is shut down: its termination also ends this view (see POOL_TERMINATION_POLL_NANOS).
        long deadline = System.nanoTime() + nanos;
        while (true) {
            long left = deadline - System.nanoTime();
            if (Waiting.await(drained, Math.max(Math.min(left, POOL_TERMINATION_POLL_NANOS), 0L))) {
                return true;
            }
            if (pool.isTerminated()) {
                return true;
            }
            if (left <= 0) {
                return false;
            }
        }
    }

    /**
     * Shuts down and waits for termination; interrupted while waiting, it calls {@link #shutdownNow()} and
     * keeps waiting, then re-asserts the interrupt (as {@code ExecutorService.close()} of Java 19 does). Called
     * on a worker of the pool it only shuts down: a task cannot wait for the executor that runs it.
     */
    @Override
    public void close() {
        shutdown();
        if (pool.isCurrentThreadWorker()) {
            return;
        }
        boolean interrupted = false;
        while (!isTerminated()) {
            try {
                awaitTermination(1L, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        String state = isTerminated() ? "terminated" : isShutdown() ? "shut down" : "running";
        if (ownsPool) {
            return "ForageExecutorService[owning pool " + pool.name() + ", " + state + "]";
        }
        return "ForageExecutorService[view of pool " + pool.name() + ", " + state + ", tasks="
                + (control.get() & ~SHUTDOWN) + "]";
    }

    // Messages: each names the pool, as the pool's own messages do ("pool NAME").

    /** "executor owning pool NAME" or "view of pool NAME". */
    String who() {
        return (ownsPool ? "executor owning pool " : "view of pool ") + pool.name();
    }

    void notNull(Object value, String method, String name) {
        if (value == null) {
            throw new NullPointerException(method + " on the " + who() + ": " + name + " must not be null");
        }
    }

    private RejectedExecutionException rejectedAfterShutdown(Object what, RejectedExecutionException cause) {
        return new RejectedExecutionException("the " + who() + " is shut down and accepts no new tasks (rejected "
                + what + "); submit before shutdown()/close(), or to an executor that is running", cause);
    }

    private RejectedExecutionException poolRejected(Object what, RejectedExecutionException cause) {
        return new RejectedExecutionException("the " + who() + " cannot run " + what + ": its pool rejected it "
                + "(pool " + pool.name() + " is shut down, so this view is shut down too)", cause);
    }

    private static long clampNanos(long nanos) {
        return Math.min(Math.max(nanos, 0L), MAX_NANOS);
    }
}
