package dev.forage;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ForagePool#blockingExecutor()}: runs tasks that block, at most {@code parallelism} at once, each inside a
 * blocking section of the worker that runs it, so the pool keeps its parallelism ({@link Compensation}).
 *
 * <p>The shape is kotlinx's {@code LimitedDispatcher}: tasks wait in a FIFO queue; up to {@code parallelism}
 * <i>drainers</i> run on the pool, each one blocking section that takes tasks from the queue until it is empty.
 * A drainer is an ordinary pool job, so one submitted from a worker goes on that worker's own deque and, when the
 * submitter then finishes its job (a coroutine that suspends into {@code withContext}), runs next on the same
 * thread: switching into the blocking executor costs no thread hop.
 *
 * <p>Bounded as the injector is ({@link QueueBound}): at most the pool's {@code queueCapacity} tasks wait in the
 * queue, counted by {@link #waiting}, and a task that finds it full is refused, or, under
 * {@link QueueFullPolicy#CALLER_RUNS}, run by an outside caller itself (a worker's is refused: it never runs a
 * task inline). Without the bound a producer that outruns the blocking calls would fill the heap while the
 * pool's own queues refuse.
 *
 * <p>No lost task: a drainer leaves only after it gave back its permit and then found the queue empty, or took a
 * permit again ({@link Drainer#run}); a submitter queues its task before it looks for a permit. One of the two
 * sees the other's write (both are volatile read-modify-writes or queue operations), so a queued task always has a
 * drainer.
 */
final class BlockingExecutor implements Executor {
    private final Registry registry;
    private final Lifecycle lifecycle;
    private final QueueBound queueBound;
    private final int parallelism;
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Tasks in {@link #queue}, or about to be added: at most the pool's queue capacity. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Drainers submitted and not yet finished: at most {@link #parallelism}. */
    private final AtomicInteger drainers = new AtomicInteger();

    BlockingExecutor(Registry registry, int parallelism) {
        this.registry = registry;
        this.lifecycle = registry.lifecycle;
        this.queueBound = registry.queueBound;
        this.parallelism = parallelism;
    }

    int parallelism() {
        return parallelism;
    }

    /** Tasks waiting for a drainer (a snapshot, for tests). */
    int queued() {
        return queue.size();
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("pool " + registry.name + ": blockingExecutor().execute(null); pass the "
                    + "task to run");
        }
        if (parallelism == 0) {
            throw new RejectedExecutionException("pool " + registry.name + " has maxBlockingThreads 0, rejected "
                    + TaskNames.brief(task) + "; allowed: a pool built with maxBlockingThreads of 1 or more");
        }
        if (lifecycle.isShutdown()) {
            // As for execute: submissions stop at shutdown, from the pool's own workers too, even while drainers
            // still run.
            throw lifecycle.rejected(task);
        }
        Runnable job = registry.decorate(task); // on the submitting thread, before anything is queued
        if (waiting.incrementAndGet() > queueBound.injectorCapacity) {
            waiting.decrementAndGet();
            if (registry.currentWorker() != null) {
                throw QueueBound.full(registry.name, task, QUEUE_NAME, queueBound.injectorCapacity);
            }
            registry.refusedFromOutside(job, QUEUE_NAME);
            return;
        }
        queue.add(job);
        if (!tryReserve()) {
            return; // every drainer is busy; each takes from the queue before it leaves
        }
        try {
            registry.execute(new Drainer());
        } catch (RejectedExecutionException e) {
            drainers.decrementAndGet();
            // Our task is still queued unless a running drainer took it, and then it runs: only a task that no
            // drainer can reach is refused.
            if (queue.remove(job)) {
                waiting.decrementAndGet();
                throw e;
            }
        }
    }

    private boolean tryReserve() {
        while (true) {
            int n = drainers.get();
            if (n >= parallelism) {
                return false;
            }
            if (drainers.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** One permit's worth of draining, inside one blocking section. */
    private final class Drainer implements Runnable {
        @Override
        public void run() {
            Worker w = registry.currentWorker();
            if (w == null) {
                // Off the pool: a drainer that shutdownNow handed back, run by its caller. No worker to compensate.
                drain();
                return;
            }
            w.enterBlocking();
            try {
                drain();
            } finally {
                w.exitBlocking();
            }
        }

        private void drain() {
            while (true) {
                Runnable task = queue.poll();
                if (task != null) {
                    waiting.decrementAndGet();
                } else {
                    drainers.decrementAndGet();
                    // A submitter that queued after our poll and found no permit counts on us: look again.
                    if (queue.isEmpty() || !tryReserve()) {
                        return;
                    }
                    continue;
                }
                try {
                    task.run();
                } catch (Throwable t) {
                    registry.handleUncaught(Thread.currentThread(), t);
                }
                Thread.interrupted(); // as between any two jobs: an interrupt meant for one task is not the next's
            }
        }

        @Override
        public String toString() {
            return "BlockingExecutor.Drainer[pool " + registry.name + "]";
        }
    }

    private static final String QUEUE_NAME = "the blocking executor's queue";

    @Override
    public String toString() {
        return "ForagePool.blockingExecutor[pool " + registry.name + ", parallelism " + parallelism + "]";
    }
}
