package dev.forage;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs a single-threaded pool (marl's single-threaded worker): the pool has no threads, and its one worker runs
 * on whichever thread waits in the pool, until what it waits for is done. Its jobs run in submission order: a
 * job that a job submits goes to the back of the injector, not onto the worker's deque.
 *
 * <p>One thread drives at a time: the worker's deque has one owner. A thread that must wait while another one
 * drives queues its job first (so the driver runs it if it gets there) and then waits until its latch is set or
 * the driver leaves, and then drives itself. Binding the worker to the driving thread ({@link Worker#bind}) makes
 * everything that runs there (nested {@code join}, {@code scope}, {@link ForageLatch}) behave as on a worker.
 *
 * <p>The caller's interrupt status is kept: jobs run with a clear flag, as on a worker, and a flag that was set
 * before or during the drive is set again when the drive ends.
 */
final class CallerRunner implements Runner, PendingJobs {
    private final Registry registry;
    private final Clock clock;
    private final Injector injector;
    private final Lifecycle lifecycle;
    private final PoolTimers timers;
    /** The pool's one worker; set by {@link #start()}, once the registry made it. */
    private Worker worker;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when the driver leaves, a caller latch is set, or the pool shuts down or terminates. */
    private final Condition changed = lock.newCondition();
    /** Guarded by {@link #lock}: the thread running {@link #worker}, or null. */
    private Thread driving;
    /** Set by shutdown: a thread waiting for termination before shutdown runs jobs until then. */
    private final SpinLatch shutdownLatch;

    CallerRunner(Registry registry) {
        this.registry = registry;
        this.clock = registry.clock;
        this.injector = registry.injector;
        this.lifecycle = registry.lifecycle;
        this.timers = registry.timers;
        this.shutdownLatch = new CallerLatch(this, registry);
    }

    @Override
    public int threads() {
        return 0;
    }

    @Override
    public int maxParallelism() {
        return 0;
    }

    /** No threads, so no parallelism to change: the pool's jobs run on the threads that wait in it. */
    @Override
    public int setParallelism(int parallelism) {
        throw new UnsupportedOperationException("setParallelism: pool " + registry.name + " is single-threaded, "
                + "with no worker threads to add or remove; allowed: resizing a pool with threads");
    }

    @Override
    public void start() {
        worker = registry.workers[0];
    }

    /** At the back of the injector: the pool runs its jobs in submission order. */
    @Override
    public void submit(Worker w, Runnable job) {
        registry.submitInjected(job);
    }

    /** Every job goes behind those queued already. */
    @Override
    public void submitBehindQueued(Worker w, Runnable job) {
        registry.submitInjected(job);
    }

    /** A latch owned by the pool's worker whose {@code set} also wakes threads waiting to drive. */
    @Override
    public SpinLatch newLatch(Worker owner) {
        return new CallerLatch(this, registry);
    }

    /**
     * The owner created the latch while it drove the pool; if it has left since, it drives again to wait (a
     * {@code ForageLatch} awaited after its {@code install} returned).
     */
    @Override
    public boolean awaitLatch(Worker owner, SpinLatch latch, long deadline) {
        if (Worker.current() != owner) {
            return driveUntil(latch, deadline);
        }
        return owner.waitUntil(latch, deadline);
    }

    /**
     * From a thread that is not driving this pool, another pool's worker or not: queues {@code op} and drives until
     * it is done (a pool that callers run has no worker to hand the call to).
     */
    @Override
    public <T> T inWorkerOutside(Worker caller, Object task, WorkerOp<T> op) {
        SpinLatch latch = newLatch(worker);
        StackJob<T> job = new StackJob<>(new OutsideCall<>(op, task, worker), latch);
        registry.inject(job);
        driveUntil(latch, Worker.NO_DEADLINE);
        return job.resultOrThrow();
    }

    @Override
    public void shutdownStarted(boolean now) {
        shutdownChanged();
    }

    @Override
    public void lastTimerCancelled() {
        // Nothing to wake: a thread draining the pool waits for timers only until its own deadline.
    }

    /**
     * From a thread that is not driving this pool: drives until {@code latch} is set or {@code deadline} (a
     * {@link System#nanoTime()} value) passes; returns whether the latch is set.
     */
    boolean driveUntil(final CoreLatch latch, final long deadline) {
        drive(latch, deadline, new Drive() {
            @Override
            public int run() {
                worker.waitUntil(latch, deadline);
                return 0;
            }
        });
        return latch.probe();
    }

    /** Runs queued jobs, and the jobs they queue, on the calling thread until none is left; returns how many. */
    @Override
    public int runPending() {
        if (Worker.current() == worker) {
            return runUntilIdle(); // called by a job of this pool: we are already driving
        }
        return drive(null, Worker.NO_DEADLINE, new Drive() {
            @Override
            public int run() {
                return runUntilIdle();
            }
        });
    }

    /**
     * From a thread that is not driving: runs jobs until shutdown, then what is left (queued jobs, and timers at
     * their deadlines), until the pool terminates or {@code deadline} passes. Returns whether it terminated.
     */
    @Override
    public boolean awaitTermination(long timeoutNanos) throws InterruptedException {
        final long deadline = clock.nanoTime() + timeoutNanos;
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before awaitTermination");
        }
        Drive drain = new Drive() {
            @Override
            public int run() {
                drain(deadline);
                return 0;
            }
        };
        while (!lifecycle.isTerminated() && clock.nanoTime() - deadline < 0) {
            if (drive(null, deadline, drain) < 0) {
                break; // terminated, or the deadline passed, while we waited to drive
            }
        }
        return lifecycle.isTerminated();
    }

    /** What a thread does while it drives. */
    private interface Drive {
        int run();
    }

    /**
     * Becomes the driver (see {@link #acquire}), runs {@code body} with the pool's worker bound to this thread,
     * and leaves. Returns the body's result, or -1 if this thread never became the driver. The caller's interrupt
     * status is kept across the drive, and jobs run with it clear.
     */
    private int drive(CoreLatch latch, long deadline, Drive body) {
        boolean interrupted = Thread.interrupted();
        try {
            if (!acquire(latch, deadline)) {
                return -1;
            }
            interrupted |= Thread.interrupted();
            Worker previous = Worker.bind(worker);
            worker.busyStarts(); // the pool's busy time is the time threads spend driving it, less idle spells
            try {
                return body.run();
            } finally {
                worker.busyEnds();
                Worker.unbind(previous);
                interrupted |= Thread.interrupted();
                release(); // terminates a drained pool after shutdown
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Driving: runs jobs until nothing is queued, in flight or pending as a timer, or the deadline passes. */
    private void drain(long deadline) {
        if (!lifecycle.isShutdown() && !worker.waitUntil(shutdownLatch, deadline)) {
            return; // not shut down before the deadline; jobs that came meanwhile ran
        }
        while (true) {
            runUntilIdle();
            if (lifecycle.submissionsInFlight() || !injector.isClosed()) {
                // A timer scheduled from outside passed the shutdown check and is about to queue, or the shutting
                // down thread is about to close the injector (until then an outside execute is accepted).
                Thread.yield();
                continue;
            }
            if (isDrained() || clock.nanoTime() - deadline >= 0) {
                return;
            }
            // Something is left (a timer not due yet, or a job pushed meanwhile): wait for it as a worker does,
            // sleeping until the earliest timer, and come back at the deadline at the latest.
            long next = timers.earliestDeadline();
            long until = next != TimerQueue.NO_DEADLINE && next - deadline < 0 ? next : deadline;
            worker.waitUntil(new SpinLatch(registry, worker.index), until);
        }
    }

    /** Shutdown or shutdownNow was called: terminate now if nothing is left, and tell waiting threads. */
    private void shutdownChanged() {
        shutdownLatch.set();
        lock.lock();
        try {
            tryTerminate();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A caller latch was set: a thread waiting to drive may be done. */
    void latchSet() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits to become the driver. Returns false instead when {@code latch} is set (or, with no latch, the pool
     * terminated) or the deadline passes first.
     */
    private boolean acquire(CoreLatch latch, long deadline) {
        boolean interrupted = false;
        lock.lock();
        try {
            while (true) {
                if (latch != null ? latch.probe() : lifecycle.isTerminated()) {
                    return false;
                }
                if (driving == null) {
                    driving = Thread.currentThread();
                    return true;
                }
                if (driving == Thread.currentThread()) {
                    throw new IllegalStateException("thread " + driving.getName() + " already drives pool "
                            + registry.name + " and left it without unbinding");
                }
                if (deadline == Worker.NO_DEADLINE) {
                    changed.awaitUninterruptibly();
                } else {
                    long nanos = deadline - clock.nanoTime();
                    if (nanos <= 0) {
                        return false;
                    }
                    try {
                        changed.awaitNanos(nanos);
                    } catch (InterruptedException e) {
                        interrupted = true; // kept for the caller, which re-reads the flag
                    }
                }
            }
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void release() {
        lock.lock();
        try {
            driving = null;
            tryTerminate();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Lock held. */
    private void tryTerminate() {
        if (driving == null && isDrained()) {
            lifecycle.markTerminated();
        }
    }

    /** Driving: runs every job that a full search finds until one finds none; returns how many ran. */
    private int runUntilIdle() {
        int ran = 0;
        Runnable job;
        while ((job = worker.findAnyWork()) != null) {
            worker.runJob(job);
            ran++;
        }
        return ran;
    }

    private boolean isDrained() {
        Lifecycle life = registry.lifecycle;
        // Closed, not only shut down: between the SHUTDOWN bit and the close, an outside execute is still accepted.
        return injector.isClosed() && !life.submissionsInFlight() && injector.isEmpty()
                && worker.deque.isEmpty() && timers.isEmpty();
    }

    /** A latch owned by the single-threaded pool's worker. */
    private static final class CallerLatch extends SpinLatch {
        private final CallerRunner runner;

        CallerLatch(CallerRunner runner, LatchWaker waker) {
            super(waker, 0);
            this.runner = runner;
        }

        @Override
        public void set() {
            CallerRunner r = runner; // read before SET: once set, the owner may drop this latch
            super.set();
            r.latchSet();
        }

        @Override
        public void setAndWake() {
            CallerRunner r = runner;
            super.setAndWake();
            r.latchSet();
        }
    }

    @Override
    public void enterBlocking(Worker w) {
        // No threads to compensate with: the section blocks the caller, which is the pool's only thread anyway.
    }

    @Override
    public boolean anyRetired() {
        return false; // no threads, none retires
    }

    @Override
    public void restartRetired() {
    }

    @Override
    public boolean enterBlockingWithStandIn(Worker w) {
        return false; // no other thread: the caller is the pool's only one
    }

    @Override
    public void exitBlocking(Worker w) {
    }

    @Override
    public ThreadGauges threadGauges() {
        return ThreadGauges.NONE; // no threads: none blocked, standing in, retired or ended
    }
}
