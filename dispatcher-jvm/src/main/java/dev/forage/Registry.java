package dev.forage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared state of one pool: workers, injector, sleep strategy, timers, and the life cycle.
 *
 * <p>Life cycle: {@link #control} packs a SHUTDOWN bit with the number of outside submissions in flight. An
 * outside submission increments it, checks the bit, pushes, and decrements; shutdown sets the bit and then
 * each worker's terminate latch. A worker retires only when the bit is set, no submission is in flight, and a
 * full search found nothing, so an accepted job is never stranded (issue: "nothing accepted is ever silently
 * dropped").
 *
 * <p>A single-threaded pool (seed 004's mode) has no worker threads: its one worker, {@link #callerWorker}, is
 * run by whichever thread waits in the pool, through {@link #driver}.
 */
final class Registry implements PoolProbe {
    private static final long SHUTDOWN = 1L << 62;

    /** The workers that have threads: none in a single-threaded pool. */
    final Worker[] workers;
    final Injector injector = new Injector();
    final SleepStrategy sleep;
    final TimerQueue timers = new TimerQueue();
    /** The single-threaded pool's worker, run by waiting callers; null when the pool has threads. */
    final Worker callerWorker;
    /** Who runs {@link #callerWorker} now; null when the pool has threads. */
    final CallerDriver driver;
    final String name;
    private final Thread.UncaughtExceptionHandler handler;
    /** Padded: every outside submission writes it twice. */
    private final PaddedAtomicLong control = new PaddedAtomicLong();
    private final AtomicInteger liveWorkers;
    private final AtomicInteger exitedWorkers = new AtomicInteger();
    private final LockLatch terminated = new LockLatch();
    /** The public face, for {@link ForagePool#current()}. */
    ForagePool pool;

    /** {@code threads == 0} builds a single-threaded pool. {@code spinNanos < 0}: the strategy's default. */
    Registry(String name, int threads, SleepStrategies strategy, long spinNanos, ThreadFactory factory,
            boolean daemon, Thread.UncaughtExceptionHandler handler) {
        this.name = name;
        // The strategy keeps `this` as its probe and calls it only once workers run, after this constructor.
        this.sleep = strategy.create(Math.max(threads, 1), spinNanos, this);
        this.handler = handler;
        this.workers = new Worker[threads];
        this.liveWorkers = new AtomicInteger(threads);
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(this, i);
        }
        if (threads == 0) {
            this.callerWorker = new Worker(this, 0);
            this.driver = new CallerDriver(this, callerWorker);
        } else {
            this.callerWorker = null;
            this.driver = null;
        }
        for (int i = 0; i < threads; i++) {
            Worker w = workers[i];
            Thread t;
            if (factory == null) {
                t = new ForageThread(w, name + "-worker-" + i);
                t.setDaemon(daemon);
                if (handler != null) {
                    // Code that reports a failure to the thread's own handler instead of throwing (kotlinx's
                    // coroutines do, for an exception no CoroutineExceptionHandler took) must reach the pool's too.
                    t.setUncaughtExceptionHandler(handler);
                }
            } else {
                t = factory.newThread(w);
                if (t == null) {
                    abortStart();
                    throw new IllegalStateException("the thread factory returned null for worker " + i
                            + "; a Forage thread factory must return a new, unstarted thread running the given Runnable");
                }
            }
            w.thread = t;
        }
        for (int i = 0; i < threads; i++) {
            workers[i].thread.start();
        }
    }

    private void abortStart() {
        // No thread has started yet: nothing to stop, but the pool must not look alive.
        control.set(SHUTDOWN);
        liveWorkers.set(0);
        exitedWorkers.set(workers.length);
        terminated.set();
    }

    // Submission.

    /**
     * Runs {@code job} on this pool: on the caller's deque when it is one of our workers, else injected. A
     * single-threaded pool always injects, so its jobs run in submission order (FIFO).
     */
    void execute(Runnable job) {
        Worker w = Worker.current();
        if (w == null || w.registry != this) {
            injectFromOutside(job);
        } else if (w != callerWorker) {
            w.push(job);
        } else {
            pushInjected(job);
        }
    }

    /**
     * Runs {@code job} behind the jobs already queued ({@link ForagePool#executeFair}). On a worker of this pool
     * while no outside job waits, at the back of the worker's own deque, with the worker's next local take being
     * its oldest job; otherwise at the back of the injector. The local case is Tokio's and kotlinx's yield: no
     * shared queue for two workers to contend on, and the job takes turns with its neighbours on the deque.
     */
    void executeFair(Runnable job) {
        Worker w = Worker.current();
        if (w == null || w.registry != this) {
            injectFromOutside(job);
        } else if (w != callerWorker && injector.isEmpty()) {
            w.pushBehindOwnJobs(job);
        } else {
            pushInjected(job);
        }
    }

    /** Queues {@code job} at the back of the injector, from any thread (FIFO). */
    void inject(Runnable job) {
        Worker w = Worker.current();
        if (w != null && w.registry == this) {
            pushInjected(job);
        } else {
            injectFromOutside(job);
        }
    }

    /**
     * From a thread that is not one of our workers: the admission check, then the push. A live worker of ours
     * drains the injector before it retires, so its own pushes need no check.
     */
    private void injectFromOutside(Runnable job) {
        long c = control.getAndIncrement();
        try {
            if ((c & SHUTDOWN) != 0) {
                throw rejected(job);
            }
            pushInjected(job);
        } finally {
            control.getAndDecrement();
        }
    }

    private void pushInjected(Runnable job) {
        boolean wasEmpty = injector.push(job);
        // I1 done (the push); I2/I3 happen inside newInjectedJobs (docs/sleep.md).
        sleep.newInjectedJobs(1, wasEmpty);
    }

    RejectedExecutionException rejected(Object job) {
        return new RejectedExecutionException("pool " + name + " is shut down and accepts no new jobs (rejected "
                + job + "); submit before shutdown()/close(), or to a pool that is running");
    }

    boolean submissionsInFlight() {
        return (control.get() & ~SHUTDOWN) != 0;
    }

    // Timers.

    TimerTask schedule(Runnable job, long delayNanos) {
        long c = control.getAndIncrement();
        try {
            if ((c & SHUTDOWN) != 0) {
                throw rejected(job);
            }
            long now = System.nanoTime();
            long delay = Math.max(delayNanos, 0L);
            long deadline = now + delay;
            if (deadline - now < 0 || deadline == TimerQueue.NO_DEADLINE) {
                deadline = now + (Long.MAX_VALUE >> 1); // saturate: about 146 years
            }
            TimerTask task = new CancellableTimer(this, job, deadline);
            if (timers.add(task)) {
                int watcher = timers.watcher();
                if (watcher != TimerQueue.NO_WATCHER) {
                    sleep.timerDeadlineChanged(watcher);
                } else {
                    // Nobody watches the timers: the same rule as an injected job finds a worker for them.
                    sleep.newInjectedJobs(1, true);
                }
            }
            return task;
        } finally {
            control.getAndDecrement();
        }
    }

    /**
     * A timer was cancelled. After shutdown the last worker may be parked in its drain loop until the earliest
     * deadline, staying only to fire pending timers ({@link Worker#drainAndRetire}); once the queue is empty it
     * must look again and retire, or close() would wait for a deadline that no longer exists. An unpark that
     * lands before that worker parks leaves a permit, so the park returns at once: no lost wake-up.
     */
    void timerCancelled() {
        if (isShutdown() && timers.isEmpty()) {
            for (Worker w : workers) {
                LockSupport.unpark(w.thread);
            }
        }
    }

    /** The pool's timers: cancelling one tells the registry ({@link #timerCancelled()}). */
    private static final class CancellableTimer extends TimerTask {
        private final Registry registry;

        CancellableTimer(Registry registry, Runnable job, long deadlineNanos) {
            super(job, deadlineNanos);
            this.registry = registry;
        }

        @Override
        public boolean cancel() {
            if (!super.cancel()) {
                return false;
            }
            registry.timerCancelled();
            return true;
        }
    }

    /** Moves every due timer to the injector; they are new injected jobs. Any thread. */
    void fireDueTimers() {
        List<TimerTask> due = timers.pollExpired(System.nanoTime());
        if (due == null) {
            return;
        }
        boolean wasEmpty = injector.isEmpty();
        for (TimerTask t : due) {
            injector.push(t);
        }
        sleep.newInjectedJobs(due.size(), wasEmpty);
    }

    /** A worker that held the timer watch became busy: let a sleeper take the watch over. */
    void handOverTimerWatch(Worker w) {
        if (timers.watcher() == w.index && timers.releaseWatch(w.index) && !timers.isEmpty()) {
            sleep.newInjectedJobs(1, true);
        }
    }

    // Exceptions.

    void handleUncaught(Thread thread, Throwable error) {
        try {
            Thread.UncaughtExceptionHandler h = handler != null ? handler : thread.getUncaughtExceptionHandler();
            if (h != null) {
                h.uncaughtException(thread, error);
            }
        } catch (Throwable ignored) {
            // A failing handler must not kill the worker either.
        }
    }

    // Life cycle.

    boolean isShutdown() {
        return (control.get() & SHUTDOWN) != 0;
    }

    boolean isTerminated() {
        return terminated.probe();
    }

    void shutdown() {
        long c;
        do {
            c = control.get();
            if ((c & SHUTDOWN) != 0) {
                return;
            }
        } while (!control.compareAndSet(c, c | SHUTDOWN));
        for (Worker w : workers) {
            w.terminate.set();
        }
        if (driver != null) {
            driver.shutdownChanged();
        }
    }

    /** Shuts down, then removes and returns the jobs that never started: injected jobs and pending timers. */
    List<Runnable> shutdownNow() {
        shutdown();
        List<Runnable> never = new ArrayList<>();
        for (TimerTask t : timers.drainPending()) {
            never.add(t.job());
        }
        Runnable job;
        while ((job = injector.poll()) != null) {
            never.add(job instanceof TimerTask ? ((TimerTask) job).job() : job);
        }
        for (Worker w : workers) {
            w.thread.interrupt();
        }
        if (driver != null) {
            driver.shutdownChanged();
        }
        return never;
    }

    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Worker w = Worker.current();
        if (w != null && w.registry == this && !terminated.probe()) {
            throw new IllegalStateException("awaitTermination called on a worker of pool " + name
                    + ": it would wait for itself; call it from a thread outside the pool");
        }
        long nanos = unit.toNanos(timeout);
        long deadline = System.nanoTime() + Math.min(nanos, Long.MAX_VALUE >> 2);
        if (driver != null) {
            return driver.awaitTermination(deadline); // the caller runs what is left
        }
        if (!terminated.await(timeout, unit)) {
            return false;
        }
        // Every worker finished its loop; wait for the threads themselves to end, so that no pool thread is
        // alive once this returns true.
        for (Worker worker : workers) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            worker.thread.join(Math.max(left, 1L));
            if (worker.thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    void awaitTerminationUninterruptibly() {
        boolean interrupted = false;
        while (true) {
            try {
                awaitTermination(Long.MAX_VALUE >> 2, TimeUnit.NANOSECONDS);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A worker leaves the drain loop: true if it may exit. The last one stays while timers are pending. */
    boolean tryRetire() {
        while (true) {
            int n = liveWorkers.get();
            if (n == 1 && !timers.isEmpty()) {
                return false;
            }
            if (liveWorkers.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** A single-threaded pool is drained (CallerDriver): it has terminated. */
    void markTerminated() {
        terminated.set();
    }

    /** The last thing a worker's thread does; the last one reports termination. */
    void workerExited(Worker w) {
        if (exitedWorkers.incrementAndGet() == workers.length) {
            terminated.set();
        }
    }

    // Statistics.

    PoolStatistics statistics() {
        long jobs = 0;
        long steals = 0;
        long injected = 0;
        long sleeps = 0;
        long wakeups = 0;
        long idleWakeups = 0;
        long latchWakeups = 0;
        long naps = 0;
        long[] perWorker = new long[workers.length];
        // A single-threaded pool's caller worker counts in the totals; it has no thread and no per-worker slot.
        int counted = workers.length + (callerWorker != null ? 1 : 0);
        for (int i = 0; i < counted; i++) {
            WorkerCounters c = i < workers.length ? workers[i].counters : callerWorker.counters;
            if (i < workers.length) {
                perWorker[i] = c.jobsRun();
            }
            jobs += c.jobsRun();
            steals += c.steals();
            injected += c.injectedTaken();
            sleeps += c.sleeps();
            wakeups += c.wakeups();
            idleWakeups += c.wakeupsWithoutWork();
            latchWakeups += c.latchWakeups();
            naps += c.naps();
        }
        return new PoolStatistics(workers.length, jobs, steals, injected, sleeps, wakeups, idleWakeups,
                latchWakeups, naps, sleep.sleepingThreads(), sleep.idleThreads(), perWorker);
    }

    // PoolProbe: what the sleep strategy may ask.

    @Override
    public int callingWorkerIndex() {
        Worker w = Worker.current();
        return w != null && w.registry == this ? w.index : -1;
    }

    @Override
    public boolean hasUnclaimedWork() {
        return hasQueuedJobs() || (!timers.isEmpty() && timers.watcher() == TimerQueue.NO_WATCHER);
    }

    /** Volatile reads of the injector and of every deque: a job is queued somewhere. */
    boolean hasQueuedJobs() {
        if (!injector.isEmpty()) {
            return true;
        }
        for (Worker w : workers) {
            if (!w.deque.isEmpty()) {
                return true;
            }
        }
        return callerWorker != null && !callerWorker.deque.isEmpty();
    }

    @Override
    public boolean hasVisibleWork() {
        if (hasQueuedJobs()) {
            return true;
        }
        long due = timers.earliestDeadline();
        return due != TimerQueue.NO_DEADLINE && due - System.nanoTime() <= 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
