package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine of one pool: its workers, the injector, the sleep protocol, the timers, the life cycle and the
 * runner that gives the workers threads. {@link ForagePool} and every other face are thin layers over it.
 *
 * <p>Which pool is the caller on is {@link #currentWorker()}'s to say, for every entry point here.
 */
final class Registry implements PoolProbe, LatchWaker, PoolTimers.Pool {
    final String name;
    final Clock clock;
    /**
     * Every worker slot: first the core workers, one per thread (or the single worker that callers run, then
     * {@code runner.threads() == 0}), then the extra slots that stand in for blocked workers (the runner's stand-ins).
     * An extra slot's worker is made when the slot is first used ({@link #extraWorker}): until then it is null,
     * so a pool that never blocks pays nothing for its {@code maxBlockingThreads}. Read only below
     * {@link #slotsInUse}, whose volatile write follows the store.
     */
    final Worker[] workers;
    /** Every slot's parker, made with the pool: the sleep protocol keeps them from the start. */
    private final Parker[] parkers;
    /** The core workers: the first of {@link #workers}, {@code maxParallelism} (one for a pool that callers run). */
    final int coreWorkers;
    /**
     * Slots {@code 0 .. slotsInUse-1} may hold jobs: the core workers ever in use (the run-time parallelism) and
     * every extra slot ever activated. Only grows, before a slot's thread first runs: a search up to it sees every
     * deque with jobs.
     */
    volatile int slotsInUse;
    final Injector injector;
    final Sleep sleep;
    final PoolTimers timers;
    final Lifecycle lifecycle;
    final Runner runner;
    /** What no worker watches while all are busy: unwatched timers, blocked jobs ({@code docs/monitor.md}). */
    final PoolWatch monitor;
    /** {@link ForagePool#runPending()}: the caller-runs mode's, or a refusal in a pool with worker threads. */
    final PendingJobs pendingJobs;
    /** Socket IO: the selectors of a pool with IO workers, else a refusal ({@link Extensions#io}). */
    final PoolIo io;
    /** The builder's handler for jobs' exceptions, or null: the thread's own. */
    final Thread.UncaughtExceptionHandler handler;
    /** The builder's {@code maxBlockingThreads}: the extra slots' count, and the blocking executor's parallelism. */
    final int maxBlocking;
    /**
     * The {@code ForagePool} over this registry, for {@link ForagePool#current()}, which alone reads it. Typed
     * {@code Object}: the engine never calls its own face.
     */
    Object face;

    final QueueBound queueBound; // how many jobs the queues hold, and what a full one does
    final QueueWaits queueWaits; // how long submitted jobs wait before they start (empty with sampling off)
    /** What a submission becomes before it is queued: the decorator and the queue-wait sample, as built. */
    private final Admission admission;
    /** This pool's tunables; its parts copy what they read when they are made. */
    final Tuning tuning;
    /** Whether a worker pauses after leaving a lone job beside a producer (the protocol's choice). */
    final boolean pausesBesideProducers;

    /**
     * From a checked builder; {@code threads == 0} builds a pool that callers run. {@code parts} makes the
     * extensions the settings ask for, in the order this constructor needs them.
     */
    Registry(PoolSettings settings, String name, int maxBlocking, Extensions parts) {
        int threads = settings.threads;
        Clock clock = settings.clock;
        Thread.UncaughtExceptionHandler handler = settings.handler;
        this.tuning = settings.tuning.checked();
        this.queueBound = new QueueBound(settings.queueCapacity, settings.queueFullPolicy);
        this.injector = new Injector(Injector.DEFAULT_BLOCK_SIZE, queueBound.injectorCapacity);
        this.name = name;
        this.clock = clock;
        this.handler = handler;
        this.lifecycle = new Lifecycle(name, injector);
        this.queueWaits = new QueueWaits(name, PoolEvents.INSTANCE);
        this.admission = Admission.of(settings.taskDecorator, settings.queueWaitSampling ? queueWaits : null, name);
        int core = Math.max(Math.max(threads, settings.maxParallelism), 1); // every core slot, made now
        // A pool that callers run has no threads to compensate with: a blocking section just blocks its caller.
        int extra = threads == 0 ? 0 : maxBlocking;
        this.coreWorkers = core;
        this.slotsInUse = Math.max(threads, 1);
        this.maxBlocking = maxBlocking;
        this.io = parts.io(name, core, tuning, uncaughtHandler());
        Parker[] parkers = io.parkers(core + extra);
        this.parkers = parkers;
        // The protocol keeps `this` as its probe and calls it only once workers run, after this constructor.
        this.sleep = settings.sleepFactory.build(tuning, parkers, core, this);
        this.pausesBesideProducers = sleep.pausesBesideProducers();
        this.timers = new PoolTimers(this, injector, clock, lifecycle, sleep);
        this.runner = parts.runner(this, extra);
        this.pendingJobs = parts.pendingJobs(name);
        this.workers = new Worker[parkers.length]; // the monitor keeps the array; the workers keep the monitor
        this.monitor = parts.monitor(this);
        for (int i = 0; i < core; i++) {
            workers[i] = new Worker(this, i, parkers[i], queueBound.dequeCapacity, parkers.length);
        }
        for (int i = 0; i < core; i++) {
            io.countInto(i, workers[i].counters);
        }
    }

    /**
     * Starts the workers' threads, once the face is set ({@link ForagePool}'s constructor): a thread-start hook
     * or a worker's first job may ask {@link ForagePool#current()}, which reads {@link #face}; {@code Thread.start}
     * publishes it to the new thread, as {@code ForkJoinWorkerThread.getPool()} is set before {@code onStart}.
     */
    void start() {
        runner.start();
    }

    /**
     * Under the compensation's lock, before the slot's first activation: extra slot {@code index}'s worker, made
     * now if it was never used. Published to other threads by the {@link #raiseSlotsInUse} that follows.
     */
    Worker extraWorker(int index) {
        Worker w = workers[index];
        if (w == null) {
            w = new Worker(this, index, parkers[index], queueBound.dequeCapacity, parkers.length);
            workers[index] = w;
        }
        return w;
    }

    /** Under the compensation's lock before an extra's thread runs, or a grow's: one at a time. */
    synchronized void raiseSlotsInUse(int slots) {
        if (slots > slotsInUse) {
            slotsInUse = slots;
        }
    }

    // Submissions from users: what the pool was built to do to them (Admission).

    /**
     * {@code job} through the pool's {@link ForageTaskDecorator}, on the submitting thread, before it is queued
     * ({@code job} itself without one). The decorator's exception is the submission's.
     */
    Runnable decorate(Runnable job) {
        return admission.decorate(job);
    }

    /**
     * A user's task as the pool queues it: through the decorator if the pool has one, and, with queue-wait sampling
     * on, one in {@link QueueWaitHistogram#SAMPLE_EVERY} wrapped to time its wait. On the submitting thread, before
     * anything is queued. A pool built with neither makes no test for them ({@link Admission}). {@code submitter}:
     * the calling thread's worker of this pool ({@link #currentWorker}), whose countdown picks the samples, or null.
     */
    Runnable admit(Runnable task, Worker submitter) {
        return admission.admit(task, submitter);
    }

    /** {@link ForagePool#schedule}: {@code job} decorated now and queued on the timers ({@code inline}: see there). */
    TimerTask schedule(Runnable job, long delayNanos, boolean inline) {
        return timers.schedule(decorate(job), delayNanos, inline);
    }

    /** A structured call from outside, {@code op}, run on a worker inside the decorator captured now. */
    <T> Runner.WorkerOp<T> decorateCall(Runner.WorkerOp<T> op) {
        return admission.decorateCall(op);
    }

    // Which pool is the caller on (Rayon's in_worker), and the structured calls beside the decision. Each writes
    // the worker case first: join is the fork-join hot path, and only a call from outside allocates the operation
    // object that carries it into the pool. The calling thread is
    // - a worker of this pool: the operation runs on it, inline (a job it submits goes where its runner puts it);
    // - a worker of another Forage pool (in_worker_cross): the operation is injected here, and the caller keeps
    //   running its own pool's jobs until the operation's latch, owned by the caller, is set;
    // - no pool's worker (in_worker_cold): the operation is injected, and the caller blocks.

    /** The worker of this pool running on the calling thread, or null. */
    Worker currentWorker() {
        Worker w = Worker.current();
        return w != null && w.registry == this ? w : null;
    }

    /**
     * Rayon's {@code in_worker}: runs {@code op} on a worker of this pool and returns its result.
     * From outside, {@code op} runs inside the pool's task decorator, captured on the calling thread; {@code task}
     * is the user's object behind it, which diagnostics name ({@link TaskWrapper}).
     */
    <T> T inWorker(Object task, Runner.WorkerOp<T> op) {
        Worker w = Worker.current();
        if (w != null && w.registry == this) {
            return op.run(w);
        }
        // w: a worker of another pool (cross), or null (cold); the runner knows how its callers wait.
        return runner.inWorkerOutside(w, task, decorateCall(op));
    }

    /** {@link ForagePool#join}, arguments checked. */
    <A, B> JoinResult<A, B> join(final Computation<A> a, final Computation<B> b) {
        Worker w = currentWorker();
        if (w != null) {
            return Join.onWorker(w, a, b);
        }
        return inWorker(a, new Runner.WorkerOp<JoinResult<A, B>>() {
            @Override
            public JoinResult<A, B> run(Worker worker) {
                return Join.onWorker(worker, a, b);
            }
        });
    }

    /** {@link ForagePool#scope}, argument checked. */
    <T> T scope(final ScopeBody<T> body) {
        Worker w = currentWorker();
        if (w != null) {
            return ScopeRun.onWorker(w, body);
        }
        return inWorker(body, new Runner.WorkerOp<T>() {
            @Override
            public T run(Worker worker) {
                return ScopeRun.onWorker(worker, body);
            }
        });
    }

    /** {@link ForagePool#install}, argument checked. */
    <T> T install(final Computation<T> computation) {
        if (currentWorker() != null) {
            return computation.compute();
        }
        return inWorker(computation, new Runner.WorkerOp<T>() {
            @Override
            public T run(Worker worker) {
                return computation.compute();
            }
        });
    }


    // Blocking sections.

    /**
     * Runs {@code blocking} on the calling thread as a blocking section: on a worker of this pool, another thread
     * keeps the pool's parallelism meanwhile ({@link Runner#enterBlocking}); on any other thread it just runs.
     */
    <T> T managedBlock(Callable<T> blocking) throws Exception {
        Worker w = currentWorker();
        if (w == null) {
            return blocking.call();
        }
        runner.enterBlocking(w);
        try {
            return blocking.call();
        } finally {
            runner.exitBlocking(w);
        }
    }

    // Submission.

    /**
     * Runs {@code job} on this pool: from one of our workers, where the runner puts it ({@link Runner#submit}),
     * else injected. After shutdown it is refused from every thread, our workers included (as
     * {@code ThreadPoolExecutor} refuses its tasks' own submissions): a job that submits itself again, or a
     * coroutine that yields in a loop, ends with the pool instead of keeping it alive ({@code docs/lifecycle.md},
     * "What shutdown refuses").
     */
    void execute(Runnable job) {
        execute(currentWorker(), job);
    }

    /**
     * {@link ForagePool#execute}: the user's {@code task} admitted on this thread ({@link #admit}), then queued as
     * {@link #execute(Runnable)} queues a job. One look-up of the calling worker serves both.
     */
    void executeSubmitted(Runnable task) {
        Worker w = currentWorker();
        execute(w, admit(task, w));
    }

    private void execute(Worker w, Runnable job) {
        if (w == null) {
            if (!tryInjectFromOutside(job)) {
                refusedFromOutside(job);
            }
            return;
        }
        refuseAfterShutdown(w, job);
        runner.submit(w, job);
    }

    /**
     * A worker's submission after shutdown is refused, but for the follow-ups of the IO waits that shutdown itself
     * failed ({@link PoolIo#workerStopped}): those resume work accepted before (a coroutine waiting on its socket).
     * One volatile read of a word written at shutdown and by outside timer submissions only.
     */
    private void refuseAfterShutdown(Worker w, Runnable job) {
        if (lifecycle.isShutdown() && !w.failingIoWaits) {
            throw lifecycle.rejected(job);
        }
    }

    /**
     * A job of a structure that a running job waits for ({@link Scope#spawn}): like {@link #execute}, but a worker
     * may fork it after shutdown too, since the job that waits for it was accepted before. From outside the pool
     * it is an outside submission, refused after shutdown.
     */
    void fork(Runnable job) {
        Worker w = currentWorker();
        if (w == null) {
            injectFromOutside(job);
        } else {
            runner.submit(w, job);
        }
    }

    /**
     * {@link ForagePool#executeFair}: the user's {@code task}, admitted as {@link #executeSubmitted} admits it, goes
     * behind the jobs already queued: from one of our workers, where the runner puts it
     * ({@link Runner#submitBehindQueued}), else at the back of the injector.
     */
    void executeFair(Runnable task) {
        Worker w = currentWorker();
        Runnable job = admit(task, w);
        if (w == null) {
            injectFromOutside(job);
            return;
        }
        refuseAfterShutdown(w, job);
        runner.submitBehindQueued(w, job);
    }

    /** Queues {@code job} at the back of the injector, from any thread (FIFO). */
    void inject(Runnable job) {
        if (currentWorker() != null) {
            pushInjected(job);
        } else {
            injectFromOutside(job);
        }
    }

    /**
     * An outside submitter's job that the full injector refused ({@link Registry#execute}): run on the calling
     * thread under {@link QueueFullPolicy#CALLER_RUNS}, its exception to the pool's handler as on a worker; else
     * the refusal. Once shutdown has begun (its bit is set, the injector may still be open) it is refused under
     * either policy: a job runs on its caller only if its {@code execute} came before the shutdown. Such a job is
     * the caller's, not the pool's: termination does not wait for it (as with {@code ThreadPoolExecutor}'s
     * {@code CallerRunsPolicy}, which drops the job after shutdown where this pool refuses it).
     */
    void refusedFromOutside(Runnable job) {
        refusedFromOutside(job, "the injector");
    }

    /**
     * {@link #refusedFromOutside(Runnable)} for a job that the full {@code queue} (which holds
     * {@link QueueBound#injectorCapacity} jobs, as the injector does) refused: the blocking executor's queue, whose
     * tasks come from outside and from workers alike, takes the same bound and policy.
     */
    void refusedFromOutside(Runnable job, String queue) {
        if (queueBound.policy != QueueFullPolicy.CALLER_RUNS) {
            throw QueueBound.full(name, job, queue, queueBound.injectorCapacity);
        }
        if (lifecycle.isShutdown()) {
            throw lifecycle.rejected(job); // between the shutdown bit and the injector's close
        }
        try {
            job.run();
        } catch (Throwable e) {
            handleUncaught(Thread.currentThread(), e);
        }
    }

    private void injectFromOutside(Runnable job) {
        if (!tryInjectFromOutside(job)) {
            throw QueueBound.full(name, job, "the injector", injector.capacity());
        }
    }

    /**
     * From a thread that is not one of our workers: a push that the closed injector refuses after shutdown
     * ({@link Lifecycle}, "Admission"); false if the injector is full ({@link QueueBound}). A live worker of ours
     * drains the injector before it retires, so its own pushes are never refused.
     */
    private boolean tryInjectFromOutside(Runnable job) {
        int pushed = injector.pushFromOutside(job);
        if (pushed == Injector.REJECTED) {
            throw lifecycle.rejected(job);
        } else if (pushed == Injector.FULL) {
            return false;
        }
        // I1 done (the push's claim CAS); I2/I3 happen inside newInjectedJobs (docs/sleep.md).
        newInjectedJobs(1, pushed == Injector.QUEUED_TO_EMPTY);
        return true;
    }

    private void pushInjected(Runnable job) {
        boolean wasEmpty = injector.push(job);
        // I1 done (the push); I2/I3 happen inside newInjectedJobs (docs/sleep.md).
        newInjectedJobs(1, wasEmpty);
    }

    /** A worker's submission to the injector: refused when it is full. */
    void submitInjected(Runnable job) {
        int pushed = injector.pushBounded(job);
        if (pushed == Injector.FULL) {
            throw QueueBound.full(name, job, "the injector", injector.capacity());
        }
        newInjectedJobs(1, pushed == Injector.QUEUED_TO_EMPTY);
    }

    /**
     * Every post of jobs pushed on a worker's deque: the sleep protocol's post (P2; I2 and I3 of
     * {@code docs/sleep.md}), then P3 ({@link #bringBackRetired}). Last, J2 of the monitor: a post that finds every
     * worker busy may wake it to look for a worker blocked in user code.
     */
    void newInternalJobs(int count, boolean queueWasEmpty) {
        sleep.newInternalJobs(count, queueWasEmpty);
        bringBackRetired();
        monitor.jobsPosted();
    }

    /** {@link #newInternalJobs} for one job just pushed by a worker ({@link Sleep#newInternalJob}). */
    void newInternalJob(Sleep.PushedTo pushedTo) {
        sleep.newInternalJob(pushedTo);
        bringBackRetired();
        monitor.jobsPosted();
    }

    /** {@link #newInternalJobs} for jobs pushed on the injector (due timers included). */
    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        sleep.newInjectedJobs(count, queueWasEmpty);
        bringBackRetired();
        monitor.jobsPosted();
    }

    /**
     * P3 of retirement ({@code docs/lifecycle.md}), after the protocol's post in every post of the pool: brings back
     * a worker whose thread retired, since a post that skipped it could leave its job to retired workers only. One
     * read of a word written only when a thread retires or comes back.
     */
    private void bringBackRetired() {
        if (runner.anyRetired()) {
            runner.restartRetired();
        }
    }

    // Timers: the two events PoolTimers, made before the runner and the monitor, passes on.

    /**
     * No worker watches the timers: P2 and P3 of an injected job's post find a worker for them, without the
     * monitor's J2 (no job was queued for it to find waiting), and the monitor, which covers the timers while every
     * worker is busy, must not sleep past {@code deadline}.
     */
    @Override
    public void timersUnwatched(long deadline) {
        sleep.newInjectedJobs(1, true);
        bringBackRetired();
        if (deadline != TimerQueue.NO_DEADLINE) {
            monitor.timerUnwatched(deadline);
        }
    }

    /** After shutdown, the last pending timer was cancelled: a worker staying only for timers may retire. */
    @Override
    public void lastTimerCancelled() {
        runner.lastTimerCancelled();
    }

    // Statistics.

    /** Worker threads: 0 when callers run the pool; else the run-time parallelism. */
    int threads() {
        return runner.threads();
    }

    /** The threads right now: the runner's gauges, with the monitor's finds. */
    ThreadGauges threadGauges() {
        ThreadGauges gauges = runner.threadGauges();
        if (gauges != ThreadGauges.NONE) { // the shared all-zero snapshot of a pool with no threads
            gauges.detectedBlockedNow = monitor.blockedNow();
            gauges.blockedJobsDetected = (int) Math.min(monitor.blockedJobsDetected(), Integer.MAX_VALUE);
        }
        return gauges;
    }

    QueueWaitHistogram queueWaitHistogram() {
        return queueWaits.snapshot();
    }

    // Socket readiness.

    /** {@link ForagePool#awaitReadiness}, arguments not null: the pool's {@link PoolIo} checks the rest. */
    IoWait awaitReadiness(SelectableChannel channel, int op, ReadinessListener listener) {
        return io.awaitReadiness(currentWorker(), channel, op, listener);
    }

    // Exceptions.

    /**
     * A job's exception: to the pool's handler, else the thread's own. Throws nothing but a
     * {@link StackOverflowError} (a worker must survive): out of stack, neither the handler nor a report of its
     * failure can run, so the overflow unwinds instead, and {@link Worker}'s settling reports the job's failure
     * from a shallower frame (the recursion tests of {@code JoinAnyDepthTest} end there).
     */
    @Override
    public void handleUncaught(Thread thread, Throwable error) {
        try {
            Thread.UncaughtExceptionHandler h = handler != null ? handler : thread.getUncaughtExceptionHandler();
            if (h != null) {
                h.uncaughtException(thread, error);
            }
        } catch (StackOverflowError overflow) {
            throw overflow;
        } catch (Throwable handlerFailure) {
            // A failing handler must not kill the worker either, nor may both failures vanish: System.err gets
            // them, as the JVM reports a handler that throws on its own threads.
            HandlerFailure.report(thread, error, handlerFailure);
        }
    }

    // Life cycle.

    void shutdown() {
        if (lifecycle.startShutdown()) {
            runner.shutdownStarted(false);
            lifecycle.runShutdownActions();
        }
    }

    /** {@link ForagePool#whenShutdown}: an action's failure goes where a job's would. */
    void whenShutdown(Runnable action) {
        lifecycle.whenShutdown(action, uncaughtHandler());
    }

    /** {@link #handleUncaught} as a handler, for the failures of code that is not a job (actions, IO listeners). */
    private Thread.UncaughtExceptionHandler uncaughtHandler() {
        return new Thread.UncaughtExceptionHandler() {
            @Override
            public void uncaughtException(Thread thread, Throwable error) {
                handleUncaught(thread, error);
            }
        };
    }

    /** Shuts down, then removes and returns the jobs that never started: injected jobs and pending timers. */
    List<Runnable> shutdownNow() {
        boolean first = lifecycle.startShutdown();
        List<Runnable> never = new ArrayList<>();
        for (TimerTask t : timers.drainPending()) {
            never.add(submitted(t.job()));
        }
        Runnable job;
        while ((job = injector.poll()) != null) {
            never.add(submitted(job instanceof TimerTask ? ((TimerTask) job).job() : job));
        }
        runner.shutdownStarted(true);
        if (first) {
            lifecycle.runShutdownActions();
        }
        return never;
    }

    /** The job a user submitted, without the wrappers the pool queued: a queue-wait sample's, the decorator's. */
    private static Runnable submitted(Runnable queued) {
        return DecoratedJob.undecorated(QueueWaits.untimed(queued));
    }

    /**
     * Once true, the pool terminated and none of its threads is alive: the runner's, which it waits for, and the
     * monitor's, stopped and joined here.
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (currentWorker() != null && !lifecycle.isTerminated()) {
            throw new IllegalStateException("awaitTermination called on a worker of pool " + name
                    + ": it would wait for itself; call it from a thread outside the pool");
        }
        long nanos = Math.min(unit.toNanos(timeout), Long.MAX_VALUE >> 2);
        long deadline = System.nanoTime() + nanos;
        if (!runner.awaitTermination(nanos)) {
            return false;
        }
        monitor.stop();
        Thread t = monitor.thread(); // null if it never ran
        if (t != null) {
            t.join(Math.max(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()), 1L));
            return !t.isAlive();
        }
        return true;
    }

    boolean isShutdown() {
        return lifecycle.isShutdown();
    }

    boolean isTerminated() {
        return lifecycle.isTerminated();
    }

    /** The refusal of {@code job} after shutdown ({@link Lifecycle#rejected}). */
    RejectedExecutionException rejected(Runnable job) {
        return lifecycle.rejected(job);
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

    // LatchWaker: what every latch owned by one of our workers calls when it found its owner SLEEPING.

    /**
     * The owner may sleep on a latch just set: the protocol wakes it, from its own sleep or from the parker's
     * latch-ended park (the nap, the lone-job pause, the wait past the help bound), as Rayon's
     * {@code notify_worker_latch_is_set} is one call. Only on the slow path: a set that finds its owner awake calls
     * nothing.
     */
    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        sleep.notifyWorkerLatchIsSet(workerIndex);
    }

    // PoolProbe: what the sleep protocol may ask.

    @Override
    public int callingWorkerIndex() {
        Worker w = currentWorker();
        return w != null ? w.index : -1;
    }

    @Override
    public boolean hasUnclaimedWork() {
        return hasQueuedJobs() || timers.unwatched();
    }

    /** Volatile reads of the injector and of every deque: a job is queued somewhere. */
    boolean hasQueuedJobs() {
        if (!injector.isEmpty()) {
            return true;
        }
        for (int i = 0, n = slotsInUse; i < n; i++) {
            if (!workers[i].deque.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean hasVisibleWork() {
        return hasQueuedJobs() || timers.anyDue();
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * The extensions a pool was configured with, made as this constructor asks for them (in this order: IO, the
     * runner, {@code runPending}, the monitor), by the builder's assembly; the core names only their seams.
     */
    interface Extensions {
        PoolIo io(String name, int coreWorkers, Tuning tuning, Thread.UncaughtExceptionHandler handler);

        Runner runner(Registry registry, int extraSlots);

        PendingJobs pendingJobs(String name);

        PoolWatch monitor(Registry registry);
    }
}
