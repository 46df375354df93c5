package dev.forage;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A scope of spawned jobs: {@link ForagePool#scope(ScopeBody)} returns only after the body and every job
 * spawned into the scope (directly or by other spawned jobs) finished. Jobs may borrow anything the body can
 * see, since they all end before the scope does.
 *
 * <pre>{@code
 * int[] squares = new int[n];
 * pool.scope(s -> {
 *     for (int i = 0; i < n; i++) {
 *         int k = i;
 *         s.spawn(() -> squares[k] = k * k);
 *     }
 *     return null;
 * });
 * }</pre>
 *
 * <p>Failures: if the body or any job throws, the scope still waits for every job, then rethrows the first
 * failure with the others attached as {@linkplain Throwable#getSuppressed() suppressed}. A failing job does
 * not cancel its siblings.
 */
public final class Scope {
    private final Registry registry;
    /** Final but for {@link AsyncScope}, whose latch needs the scope first; set before the scope is shared. */
    private CountLatch latch;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Set by {@link #cancel()}; read by every member before its body and by every spawn. */
    private volatile boolean cancelled;

    Scope(Registry registry, CountLatch latch) {
        this.registry = registry;
        this.latch = latch;
    }

    /**
     * Spawns a job into this scope. From a worker of the scope's pool it goes to that worker's deque; from
     * any other thread, to the pool's injector. After {@link #cancel()} the job is not queued.
     *
     * @throws NullPointerException if {@code job} is null
     * @throws IllegalStateException if the scope already ended
     */
    public void spawn(Runnable job) {
        if (job == null) {
            throw new NullPointerException("Scope.spawn: job must not be null");
        }
        spawnJob(new ScopeJob(this, null, job));
    }

    /**
     * Spawns jobs that receive this scope, so that they can spawn more jobs into it; one job per task, in the
     * given order. After {@link #cancel()} nothing is queued.
     *
     * <pre>{@code
     * s.spawn(inner -> inner.spawn(() -> leaf()));
     * }</pre>
     *
     * <p>A variable-arity method, not {@code spawn(ScopeTask)}: with two single-argument overloads of different
     * lambda arity, Kotlin cannot choose for {@code s.spawn { work() }} (its lambda fits both). Kotlin never
     * passes a trailing lambda to a vararg parameter, so there that call means {@link #spawn(Runnable)}; Java
     * chooses by the lambda's arity, as before.
     *
     * @throws NullPointerException if {@code tasks} or one of its elements is null (the tasks before it were
     *     spawned)
     * @throws IllegalStateException if the scope already ended
     */
    public void spawn(ScopeTask... tasks) {
        if (tasks == null) {
            throw new NullPointerException("Scope.spawn: tasks must not be null");
        }
        for (int i = 0; i < tasks.length; i++) {
            ScopeTask task = tasks[i];
            if (task == null) {
                throw new NullPointerException("Scope.spawn: task " + i + " of " + tasks.length
                        + " must not be null");
            }
            spawnJob(new ScopeJob(this, task, null));
        }
    }

    /**
     * Cancels the scope: jobs spawned into it that have not started yet never run, and {@code spawn} queues
     * nothing from now on. Jobs already running are not interrupted; they can stop early by checking
     * {@link #isCancelled()}. The scope still ends only after every job that started has finished, so its
     * owner still sees no job outlive it. Idempotent; callable from any thread.
     *
     * <pre>{@code
     * AtomicReference<Path> hit = new AtomicReference<>();
     * pool.scope(s -> {
     *     for (Path file : files) {
     *         s.spawn(() -> {
     *             if (!s.isCancelled() && contains(file, needle) && hit.compareAndSet(null, file)) {
     *                 s.cancel(); // the files not read yet need not be
     *             }
     *         });
     *     }
     *     return null;
     * });
     * }</pre>
     */
    public void cancel() {
        cancelled = true;
    }

    /** Whether {@link #cancel()} was called: a long job of this scope can check it and stop early. */
    public boolean isCancelled() {
        return cancelled;
    }

    /** One more member's count: what {@link #spawn} takes before it queues the job. */
    void countIn() {
        latch.increment();
    }

    private void spawnJob(ScopeJob job) {
        if (cancelled) {
            return; // it would never run
        }
        try {
            latch.increment();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("Scope.spawn called after the scope ended; spawn only from the "
                    + "scope's body or from jobs spawned into it", e);
        }
        try {
            registry.fork(job);
        } catch (RuntimeException e) {
            // Rejected (the pool shut down): the job will never run, so it must not keep the scope open.
            latch.set();
            throw e;
        }
    }

    /** {@link AsyncScope}'s constructor: the latch, before anything sees this scope. */
    void bindLatch(CountLatch latch) {
        this.latch = latch;
    }

    void recordFailure(Throwable t) {
        if (!failure.compareAndSet(null, t)) {
            Throwable first = failure.get();
            if (first != t) {
                synchronized (first) {
                    first.addSuppressed(t);
                }
            }
        }
    }

    Throwable failure() {
        return failure.get();
    }

    /** A spawned job: runs, records a failure, and counts itself out of the scope. */
    static final class ScopeJob extends Member implements TaskWrapper {
        private final ScopeTask task;
        private final Runnable job;

        ScopeJob(Scope scope, ScopeTask task, Runnable job) {
            super(scope);
            this.task = task;
            this.job = job;
        }

        @Override
        void body() {
            if (task != null) {
                task.run(scope);
            } else {
                job.run();
            }
        }

        @Override
        public Object wrappedTask() {
            return task != null ? task : job;
        }

        @Override
        public String toString() {
            return "ScopeJob[" + (task != null ? task : job) + "]";
        }
    }

    /**
     * A job that holds one count of a scope: it runs its body, records the body's failure in the scope, and counts
     * itself out; the last count out sets the scope's latch. Each step leaves a mark in a plain field, so that
     * {@link #abandon} (the worker's recovery when a throwable cut {@link #run()} short or kept it from starting)
     * finishes exactly the steps that did not happen: the scope is never left one count short, nor counted out
     * twice.
     */
    abstract static class Member extends WaitedJob {
        final Scope scope;
        private boolean ran;
        private boolean countedOut;
        private boolean last;

        Member(Scope scope) {
            this.scope = scope;
        }

        /** The member's own work; what it throws becomes the scope's failure. */
        abstract void body() throws Throwable;

        @Override
        public final void run() {
            try {
                if (!scope.cancelled) {
                    body(); // a member that starts after cancel() never runs its body, only counts out
                }
            } catch (Throwable t) {
                scope.recordFailure(t);
            }
            ran = true;
            countOut();
        }

        private void countOut() {
            if (!countedOut) {
                last = scope.latch.countDown();
                countedOut = true;
            }
            if (last) {
                // Hazard: once set, the scope's owner may return; nothing may follow.
                scope.latch.inner().set();
            }
        }

        @Override
        final boolean abandon(Throwable cause) {
            boolean recorded = false;
            if (!ran) {
                scope.recordFailure(cause);
                ran = true;
                recorded = true;
            }
            if (!countedOut) {
                last = scope.latch.countDown();
                countedOut = true;
            }
            if (last) {
                scope.latch.setAndWake();
            }
            return recorded;
        }
    }
}
