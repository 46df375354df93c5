package dev.forage;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The usual mode: each worker has a thread of its own, which runs the worker loop until shutdown, drains what
 * is left, and retires. The last worker stays while timers are pending and fires them at their deadlines.
 */
final class ThreadedRunner implements Runner {
    private final Registry registry;
    private final ThreadFactory factory;
    private final boolean daemon;
    /** Per worker: set by shutdown; the worker's top-level wait is on it (one owner, like every latch). */
    private SpinLatch[] terminate;
    private Thread[] threads;
    private final AtomicInteger liveWorkers = new AtomicInteger();
    private final AtomicInteger exitedWorkers = new AtomicInteger();

    ThreadedRunner(Registry registry, ThreadFactory factory, boolean daemon) {
        this.registry = registry;
        this.factory = factory;
        this.daemon = daemon;
    }

    @Override
    public int threads() {
        return registry.workers.length;
    }

    /** Worker {@code index}'s thread; for tests. */
    Thread thread(int index) {
        return threads[index];
    }

    @Override
    public void start() {
        Worker[] workers = registry.workers;
        int n = workers.length;
        terminate = new SpinLatch[n];
        threads = new Thread[n];
        liveWorkers.set(n);
        for (int i = 0; i < n; i++) {
            terminate[i] = new SpinLatch(registry.sleep, i);
            threads[i] = newThread(workers[i]);
        }
        for (int i = 0; i < n; i++) {
            try {
                threads[i].start();
            } catch (Throwable t) {
                // The JVM could not start a thread (out of native threads, or a factory's thread that was
                // started already): the workers that run must not be left behind without a pool.
                abortStart(i);
                throw new IllegalStateException("pool " + registry.name + " could not start worker thread " + i
                        + " (" + threads[i].getName() + "); the pool was shut down", t);
            }
        }
    }

    private Thread newThread(Worker w) {
        Runnable main = new WorkerMain(this, w);
        if (factory == null) {
            Thread t = new ForageThread(main, w, registry.name + "-worker-" + w.index);
            t.setDaemon(daemon);
            if (registry.handler != null) {
                // Code that reports a failure to the thread's own handler instead of throwing (kotlinx's
                // coroutines do, for an exception no CoroutineExceptionHandler took) must reach the pool's too.
                t.setUncaughtExceptionHandler(registry.handler);
            }
            return t;
        }
        Thread t;
        try {
            t = factory.newThread(main);
        } catch (Throwable e) {
            abortStart(0);
            throw new IllegalStateException("the thread factory threw for worker " + w.index + " of pool "
                    + registry.name + "; a Forage thread factory must return a new, unstarted thread running the "
                    + "given Runnable", e);
        }
        if (t == null) {
            abortStart(0);
            throw new IllegalStateException("the thread factory returned null for worker " + w.index + " of pool "
                    + registry.name + "; a Forage thread factory must return a new, unstarted thread running the "
                    + "given Runnable");
        }
        return t;
    }

    /**
     * Starting failed with threads {@code 0..started-1} already running: shut the pool down, let those retire,
     * and count the others as exited, so that the pool terminates and no accepted job is stranded.
     */
    private void abortStart(int started) {
        registry.lifecycle.startShutdown();
        int notStarted = threads.length - started;
        liveWorkers.addAndGet(-notStarted);
        for (int i = 0; i < started; i++) {
            terminate[i].set();
        }
        for (int i = started; i < threads.length; i++) {
            if (registry.workers[i].io != null) {
                registry.workers[i].io.closeSelector(); // never ran: nobody else closes it
            }
        }
        if (exitedWorkers.addAndGet(notStarted) == threads.length) {
            registry.lifecycle.markTerminated();
        }
    }

    @Override
    public boolean runsJobsInSubmissionOrder() {
        return false;
    }

    @Override
    public <T> T inWorkerOutside(final WorkerOp<T> op) {
        Computation<T> onWorker = new Computation<T>() {
            @Override
            public T compute() {
                return op.run(Worker.current());
            }
        };
        Worker other = Worker.current();
        if (other != null) {
            // in_worker_cross: a worker of another pool owns the latch and keeps working in its own pool.
            SpinLatch latch = other.registry.runner.newLatch(other);
            StackJob<T> job = new StackJob<>(onWorker, latch);
            registry.inject(job);
            other.registry.runner.awaitLatch(other, latch, Worker.NO_DEADLINE);
            return job.resultOrThrow();
        }
        // in_worker_cold: a plain thread blocks on a lock latch.
        LockLatch latch = new LockLatch();
        StackJob<T> job = new StackJob<>(onWorker, latch);
        registry.inject(job);
        latch.awaitUninterruptibly();
        return job.resultOrThrow();
    }

    @Override
    public SpinLatch newLatch(Worker owner) {
        return new SpinLatch(registry.sleep, owner.index);
    }

    @Override
    public boolean awaitLatch(Worker owner, SpinLatch latch, long deadline) {
        return owner.waitUntil(latch, deadline);
    }

    @Override
    public void shutdownStarted(boolean now) {
        for (SpinLatch t : terminate) {
            t.set();
        }
        if (now) {
            for (Thread t : threads) {
                t.interrupt();
            }
        }
    }

    @Override
    public void lastTimerCancelled() {
        // The last worker may be parked in drainAndRetire until a deadline that no longer exists. An unpark that
        // lands before it parks is a permit, so the park returns at once: no lost wake-up.
        for (Worker w : registry.workers) {
            w.parker.unpark();
        }
    }

    @Override
    public boolean awaitTermination(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        if (!registry.lifecycle.awaitTerminated(timeoutNanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        // Every worker finished its loop; wait for the threads themselves to end, so that no pool thread is
        // alive once this returns true.
        for (Thread t : threads) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            t.join(Math.max(left, 1L));
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int runPending() {
        throw new IllegalStateException("runPending() is for single-threaded pools (ForagePool.builder()"
                + ".singleThreaded()); pool " + registry.name + " has " + threads() + " worker threads that run "
                + "its jobs");
    }

    /**
     * After shutdown: run every job that can still be found, wait out submissions in flight, and retire. The
     * last worker stays while timers are pending and fires them at their deadlines.
     */
    private void drainAndRetire(Worker w) {
        while (true) {
            Runnable job = w.findWork(false, false, IdleState.NO_HINT);
            if (job != null) {
                w.execute(job);
                continue;
            }
            if (registry.lifecycle.submissionsInFlight() || !registry.injector.isEmpty()) {
                Thread.yield();
                continue;
            }
            if (tryRetire()) {
                return;
            }
            long next = registry.timers.earliestDeadline();
            if (next != TimerQueue.NO_DEADLINE) {
                w.parker.bindCurrentThread();
                w.parker.park(Math.max(next - registry.clock.nanoTime(), 1L));
                Thread.interrupted();
            }
        }
    }

    /** A worker leaves the drain loop: true if it may exit. The last one stays while timers are pending. */
    private boolean tryRetire() {
        while (true) {
            int n = liveWorkers.get();
            if (n == 1 && !registry.timers.isEmpty()) {
                return false;
            }
            if (liveWorkers.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** The last thing a worker's thread does; the last one reports termination. */
    private void workerExited() {
        if (exitedWorkers.incrementAndGet() == threads.length) {
            registry.lifecycle.markTerminated();
        }
    }

    /** What a worker's thread runs. */
    private static final class WorkerMain implements Runnable {
        private final ThreadedRunner runner;
        private final Worker worker;

        WorkerMain(ThreadedRunner runner, Worker worker) {
            this.runner = runner;
            this.worker = worker;
        }

        @Override
        public void run() {
            Worker previous = Worker.bind(worker);
            worker.busyStarts();
            try {
                worker.waitUntil(runner.terminate[worker.index], Worker.NO_DEADLINE);
                if (worker.io != null) {
                    // Pending IO waits fail now; the jobs that their failure resumes are drained below.
                    worker.io.close();
                }
                runner.drainAndRetire(worker);
            } finally {
                worker.busyEnds();
                Worker.unbind(previous);
                runner.workerExited();
            }
        }

        @Override
        public String toString() {
            return worker.toString();
        }
    }
}
