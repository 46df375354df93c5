package dev.forage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The usual mode: each core worker in use has a thread of its own, which runs the worker loop until shutdown,
 * drains what is left, and retires. The last core worker stays while timers are pending and fires them at their
 * deadlines. Extra threads stand in for workers inside blocking sections ({@link Compensation}); the pool has
 * terminated when the last of all its threads has left.
 *
 * <p>A core worker idle in its top-level loop for the keep-alive retires its thread, and a post brings it back
 * with a new one ({@link Retirement}, which holds the protocol). Core workers at or above the run-time parallelism
 * have no thread ({@link Resize}, which holds that protocol).
 */
final class ThreadedRunner implements Runner, Compensation.ExtraThreads, Resize.Pool {
    final Registry registry;
    private final Injector injector;
    private final Lifecycle lifecycle;
    private final PoolIo io;
    private final PoolTimers timers;
    /** Every core worker, in use or not: {@code maxParallelism}. */
    private final int coreWorkers;
    /** The core workers in use when the pool starts. */
    private final int initialThreads;
    private final ThreadFactory factory;
    private final boolean daemon;
    private final int extraSlots;
    private final long keepAliveNanos;
    /** Per core worker: its current thread (a new one after each retirement); null until it first has one. */
    private AtomicReferenceArray<Thread> threads;
    /** Set once {@link #start} has launched the first threads: a thread refused later fails only itself. */
    private volatile boolean started;
    /** The core workers' retirement states ({@link Retirement}). */
    private final Retirement retirement;
    /** The run-time parallelism, and each core worker's stop latch, its top-level wait's. */
    final Resize resize;
    /** How long a core worker stays idle before its thread retires; 0: never. */
    final long workerKeepAliveNanos;
    /** Package-private for {@link ExtraMain}. */
    Compensation compensation;
    /** Each thread's start and stop hooks; package-private for {@link ExtraMain}. */
    final ThreadHooks hooks;
    /** How the threads end after shutdown, and which one is the last. */
    final ThreadedShutdown ending;
    /**
     * The extra threads started and not yet seen ended, for {@link #awaitTermination}; guarded by itself. Ended
     * ones are dropped at each start, so a long-lived pool whose stand-ins come and go keeps no more than it runs.
     */
    private final List<Thread> extraThreads = new ArrayList<>();

    /** {@code threads} of the registry's {@code coreWorkers} in use at first. */
    ThreadedRunner(Registry registry, int threads, ThreadFactory factory, boolean daemon, int extraSlots,
            long keepAliveNanos, long workerKeepAliveNanos, ThreadHooks hooks) {
        this.registry = registry;
        this.injector = registry.injector;
        this.lifecycle = registry.lifecycle;
        this.io = registry.io;
        this.timers = registry.timers;
        this.hooks = hooks;
        this.workerKeepAliveNanos = workerKeepAliveNanos;
        this.coreWorkers = registry.coreWorkers;
        this.initialThreads = threads;
        this.retirement = new Retirement(coreWorkers, threads);
        this.resize = new Resize(this, retirement, registry, threads, coreWorkers, io.hasIoWorkers());
        this.ending = new ThreadedShutdown(registry);
        this.factory = factory;
        this.daemon = daemon;
        this.extraSlots = extraSlots;
        this.keepAliveNanos = keepAliveNanos;
    }

    @Override
    public int threads() {
        return resize.parallelism();
    }

    @Override
    public int maxParallelism() {
        return coreWorkers;
    }

    @Override
    public int setParallelism(int parallelism) {
        return resize.set(parallelism);
    }

    /** Worker {@code index}'s thread (an ended one while retired or shed; null if it never had one): the monitor's. */
    Thread thread(int index) {
        return index < coreWorkers ? threads.get(index) : compensation.threadOf(index - coreWorkers);
    }

    /** The core workers' retirement; for tests. */
    Retirement retirement() {
        return retirement;
    }

    @Override
    public void start() {
        Worker[] workers = registry.workers;
        int n = initialThreads;
        threads = new AtomicReferenceArray<>(coreWorkers);
        ending.coreWorkersStarting(n, coreWorkers);
        compensation = new Compensation(registry, this, coreWorkers, extraSlots, keepAliveNanos);
        CoreThread[] mains = new CoreThread[n];
        for (int i = 0; i < n; i++) {
            mains[i] = new CoreThread(workers[i]);
            threads.set(i, newThread(workers[i], mains[i], "-worker-" + i));
        }
        for (int i = 0; i < n; i++) {
            try {
                mains[i].launch(threads.get(i));
            } catch (Throwable t) {
                // The JVM could not start a thread (out of native threads): the workers that run must not be
                // left behind without a pool.
                abortStart(i);
                throw new IllegalStateException("pool " + registry.name + " could not start worker thread " + i
                        + " (" + threads.get(i).getName() + "); the pool was shut down", t);
            }
        }
        started = true;
    }

    /**
     * A new, unstarted thread for {@code main}: the pool's own, or the factory's, checked. A factory's thread that
     * is started already runs {@code main} without its launch, which returns at once (see {@link LaunchedMain}).
     */
    private Thread newThread(Worker w, LaunchedMain main, String suffix) {
        if (factory == null) {
            Thread t = new Worker.PoolThread(main, w, registry.name + suffix);
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
            if (!building(w)) {
                throw e;
            }
            abortStart(0);
            throw new IllegalStateException("the thread factory threw for worker " + w.index + " of pool "
                    + registry.name + "; a Forage thread factory must return a new, unstarted thread running the "
                    + "given Runnable", e);
        }
        String refused = t == null ? "null" : t.getState() != Thread.State.NEW
                ? "thread " + t.getName() + ", which was started already (state " + t.getState() + ")" : null;
        if (refused != null) {
            if (building(w)) {
                abortStart(0);
            }
            throw new IllegalStateException("the thread factory returned " + refused + " for worker " + w.index
                    + " of pool " + registry.name + "; a Forage thread factory must return a new, unstarted thread "
                    + "running the given Runnable");
        }
        return t;
    }

    /**
     * Whether {@code w}'s thread is made while the pool is built, before any core thread started: a refusal then
     * fails the build (later ones, for a stand-in, a retired worker's return or a grow, fail only that thread).
     */
    private boolean building(Worker w) {
        return w.index < coreWorkers && !started;
    }

    /**
     * Starting failed with threads {@code 0..started-1} already running: shut the pool down, let those retire,
     * and count the others as exited, so that the pool terminates and no accepted job is stranded.
     */
    private void abortStart(int started) {
        lifecycle.startShutdown();
        for (int i = 0; i < started; i++) {
            resize.stop(i).set();
        }
        for (int i = started; i < threads.length(); i++) {
            io.workerNeverRan(i);
        }
        ending.coreWorkersNeverStarted(initialThreads - started, coreWorkers - initialThreads);
    }

    /** In the worker's next slot, ahead of its deque: LIFO for the worker, stealable by the others. */
    @Override
    public void submit(Worker w, Runnable job) {
        w.pushNext(job);
    }

    /**
     * While no outside job waits, at the back of the worker's own deque, with the worker's next local take being
     * its oldest job; otherwise at the back of the injector. The local case is Tokio's and kotlinx's yield: no
     * shared queue for two workers to contend on, and the job takes turns with its neighbours on the deque.
     */
    @Override
    public void submitBehindQueued(Worker w, Runnable job) {
        if (w.inTopLevelJob() && injector.isEmpty()) {
            w.pushBehindOwnJobs(job);
        } else {
            // Inside a job run by a wait, the worker takes its newest job, so the back of its deque would be the
            // front: such a job goes behind everything in the injector.
            registry.submitInjected(job);
        }
    }

    @Override
    public <T> T inWorkerOutside(Worker other, Object task, WorkerOp<T> op) {
        Computation<T> onWorker = new OutsideCall<>(op, task, null);
        if (other != null) {
            // in_worker_cross: a worker of another pool owns the latch and keeps working in its own pool.
            SpinLatch latch = other.newLatch();
            StackJob<T> job = new StackJob<>(onWorker, latch);
            registry.inject(job);
            other.awaitLatch(latch, Worker.NO_DEADLINE);
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
        return new SpinLatch(registry, owner.index);
    }

    @Override
    public boolean awaitLatch(Worker owner, SpinLatch latch, long deadline) {
        return owner.waitUntil(latch, deadline);
    }

    @Override
    public void shutdownStarted(boolean now) {
        // A retired or shed worker has no thread to see its latch: count it out here, before the latches send the
        // others to drain, where the last one stays for timers. One that retires or leaves after this loop read its
        // state sees the SHUTDOWN bit in R2 or L2 and stays to drain (the Dekker pairs of Retirement and Resize).
        for (int i = 0; i < coreWorkers; i++) {
            if (retirement.endIfRetired(i)) {
                ending.retiredWorkerEnded();
            } else if (retirement.endIfShed(i)) {
                ending.shedWorkerEnded();
            }
        }
        resize.stopAll();
        compensation.shutdownStarted();
        if (now) {
            for (int i = 0; i < coreWorkers; i++) {
                Thread t = threads.get(i);
                if (t != null) {
                    t.interrupt();
                }
            }
            for (Thread t : extraThreadsSnapshot()) {
                t.interrupt();
            }
        }
    }

    @Override
    public void enterBlocking(Worker w) {
        compensation.enter(w);
    }

    @Override
    public boolean enterBlockingWithStandIn(Worker w) {
        return compensation.enterWithStandIn(w);
    }

    @Override
    public void exitBlocking(Worker w) {
        compensation.exit(w);
    }

    @Override
    public ThreadGauges threadGauges() {
        ThreadGauges gauges = compensation.snapshot();
        gauges.retiredWorkers = retirement.retiredCount();
        gauges.endedWorkers = ending.endedWorkers();
        return gauges;
    }

    /** The monitor counts a worker blocked without a section ({@link BlockedJobs}): a stand-in runs for it. */
    void blockedWithoutSection() {
        compensation.blockedOne();
    }

    void unblockedWithoutSection() {
        compensation.unblockedOne();
    }

    /**
     * Under the compensation's lock, on a live thread of the pool: starts the thread of an extra slot. False if
     * the factory or the JVM would not give one (the failure goes to the pool's handler): the section then runs
     * without a stand-in.
     */
    @Override
    public boolean start(Compensation.Slot slot) {
        Worker w = slot.worker;
        Thread t;
        ExtraMain main = new ExtraMain(this, slot);
        try {
            t = newThread(w, main, "-blocking-" + (w.index - coreWorkers));
        } catch (Throwable e) {
            registry.handleUncaught(Thread.currentThread(), e);
            return false;
        }
        slot.thread = t;
        ending.extraThreadStarting();
        synchronized (extraThreads) {
            // Every start happens under the compensation's monitor, so no listed thread is still unstarted here:
            // one that is not alive has ended.
            for (Iterator<Thread> it = extraThreads.iterator(); it.hasNext(); ) {
                if (!it.next().isAlive()) {
                    it.remove();
                }
            }
            extraThreads.add(t);
        }
        try {
            main.launch(t);
        } catch (Throwable e) {
            ending.extraThreadNotStarted();
            slot.thread = null;
            registry.handleUncaught(Thread.currentThread(), e);
            return false;
        }
        return true;
    }

    /** The extra threads tracked for {@link #awaitTermination}; also for tests. */
    Thread[] extraThreadsSnapshot() {
        synchronized (extraThreads) {
            return extraThreads.toArray(new Thread[0]);
        }
    }

    /** R2's and L3's question: a job queued anywhere, or a timer pending. */
    @Override
    public boolean workLeft() {
        return registry.hasQueuedJobs() || !timers.isEmpty();
    }

    @Override
    public boolean anyRetired() {
        return retirement.anyRetired();
    }

    @Override
    public void restartRetired() {
        int i = retirement.claimRetired(resize.parallelism());
        if (i >= 0) {
            startThread(i);
        }
    }

    /** P3's and a grow's start of a thread for worker {@code i}, just claimed (RUNNING, no thread). */
    @Override
    public void startThread(int i) {
        Worker w = registry.workers[i];
        try {
            CoreThread main = new CoreThread(w);
            Thread t = newThread(w, main, "-worker-" + i);
            threads.set(i, t);
            main.launch(t);
        } catch (Throwable e) {
            // No thread to be had now (the JVM's or the factory's refusal): the worker stays retired, the next
            // post tries again, and the failure goes where a job's would.
            retirement.restartFailed(i);
            resize.retired(i);
            registry.handleUncaught(Thread.currentThread(), e);
        }
    }

    // Resize.Pool: what the run-time parallelism's steps need.

    @Override
    public String name() {
        return registry.name;
    }

    @Override
    public boolean isShutdown() {
        return lifecycle.isShutdown();
    }

    @Override
    public void post() {
        registry.newInjectedJobs(1, false);
    }

    @Override
    public void raiseSlotsInUse(int slots) {
        registry.raiseSlotsInUse(slots);
    }

    @Override
    public void liveWorkers(int delta) {
        ending.liveWorkersChanged(delta);
    }

    @Override
    public void lastTimerCancelled() {
        ending.lastTimerCancelled();
    }

    @Override
    public boolean awaitTermination(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        if (!lifecycle.awaitTerminated(timeoutNanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        // Every worker finished its loop; wait for the threads themselves to end, so that no pool thread is
        // alive once this returns true.
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < coreWorkers; i++) {
            all.add(threads.get(i));
        }
        all.addAll(Arrays.asList(extraThreadsSnapshot()));
        for (Thread t : all) {
            if (t != null) {
                t.join(Math.max(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()), 1L));
            }
            if (t != null && t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a core worker's thread runs: binds the thread to the worker and runs its top-level loop
     * ({@link #runCoreWorker}), then reports the thread's end. A new thread after a retirement or a grow runs a new
     * one of these.
     */
    private final class CoreThread extends LaunchedMain {
        private final Worker worker;

        CoreThread(Worker worker) {
            this.worker = worker;
        }

        @Override
        void runLaunched() {
            Worker previous = Worker.bind(worker);
            worker.threadStarts();
            hooks.started();
            boolean left = false;
            try {
                left = runCoreWorker(worker);
            } finally {
                // Unbound first: a retired or shed worker may have a new thread already, the only one that may push
                // on its deque, so what the hook submits goes in from outside.
                Worker.unbind(previous);
                hooks.stopping();
                if (!left) {
                    ending.coreThreadExited();
                }
            }
        }

        @Override
        public String toString() {
            return worker.toString();
        }
    }

    /**
     * On core worker {@code w}'s own thread: its top-level loop, waiting on its stop latch until shutdown (then the
     * drain), the keep-alive ({@link Retirement}) or a shrink ({@link Resize}) ends the thread. Returns true if the
     * thread left while the worker lives on (retired, or shed by a shrink): shutdown counts such a worker out, not
     * the thread's end.
     */
    private boolean runCoreWorker(Worker w) {
        int index = w.index;
        w.retireAfterNanos = io.workersMayRetire() ? workerKeepAliveNanos : 0L;
        while (true) {
            SpinLatch stop = resize.topLevelLatch(index); // X1
            if (lifecycle.isShutdown()) { // X2, with inUse below
                break;
            }
            if (!resize.inUse(index)) {
                // Above the parallelism: the latch ended the wait (or this thread began after the shrink).
                w.busyEnds();
                if (resize.leave(index)) {
                    return true;
                }
                w.busyStarts();
                continue;
            }
            if (!w.waitUntil(stop, Worker.NO_DEADLINE)) {
                // Idle for the keep-alive, and no longer counted idle.
                w.busyEnds();
                if (resize.retire(index)) {
                    return true;
                }
                w.busyStarts();
            }
            // The latch is set (shutdown or a shrink), or the thread stays after all: the top decides.
        }
        // Pending IO waits fail now; the jobs that their failure resumes are accepted, and drained below.
        io.workerStopped(w);
        ending.drainAndRetire(w);
        w.busyEnds();
        return false;
    }
}
