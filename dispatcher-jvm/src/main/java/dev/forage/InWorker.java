package dev.forage;

/**
 * Which pool is the caller on: decided here for every entry point, in the shape of Rayon's {@code in_worker}. The
 * calling thread is
 * <ul>
 *   <li>a worker of this pool: the operation runs on it, inline (a job it submits goes where its runner puts it);</li>
 *   <li>a worker of another Forage pool ({@code in_worker_cross}): the operation is injected here, and the caller
 *       keeps running its own pool's jobs until the operation's latch, owned by the caller, is set;</li>
 *   <li>no pool's worker ({@code in_worker_cold}): the operation is injected, and the caller blocks.</li>
 * </ul>
 * A thread finds its worker through {@link #current()}: a {@link ForageThread} carries it in a field, a thread of a
 * custom factory in a thread local. The structured calls (join, scope, install, scopeAsync) sit beside the
 * decision. Each writes the worker case first: join is the fork-join hot path, and only a call from outside
 * allocates the operation object that carries it into the pool.
 */
final class InWorker {
    /** Set for threads made by a custom thread factory; {@link ForageThread}s are found by type. */
    private static final ThreadLocal<Worker> CUSTOM_THREAD_WORKER = new ThreadLocal<>();
    private static volatile boolean customThreadsExist;

    private InWorker() {
    }

    /** The worker running on the calling thread, of any pool, or null. */
    static Worker current() {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            return ((ForageThread) t).worker;
        }
        return customThreadsExist ? CUSTOM_THREAD_WORKER.get() : null;
    }

    /** The worker of {@code registry}'s pool running on the calling thread, or null. */
    static Worker of(Registry registry) {
        Worker w = current();
        return w != null && w.registry == registry ? w : null;
    }

    /**
     * Makes {@code w} the calling thread's worker (what {@link #current()} returns) and returns the previous one,
     * for {@link #unbind}: a worker's thread as it starts, a thread while it drives a single-threaded pool.
     */
    static Worker bind(Worker w) {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            ForageThread ft = (ForageThread) t;
            Worker previous = ft.worker;
            ft.worker = w;
            return previous;
        }
        customThreadsExist = true;
        Worker previous = CUSTOM_THREAD_WORKER.get();
        CUSTOM_THREAD_WORKER.set(w);
        return previous;
    }

    /** Restores the binding that {@link #bind} returned. */
    static void unbind(Worker previous) {
        Thread t = Thread.currentThread();
        if (t instanceof ForageThread) {
            ((ForageThread) t).worker = previous;
        } else if (previous == null) {
            CUSTOM_THREAD_WORKER.remove();
        } else {
            CUSTOM_THREAD_WORKER.set(previous);
        }
    }

    /**
     * Rayon's {@code in_worker}: runs {@code op} on a worker of {@code registry}'s pool and returns its result.
     * From outside, {@code op} runs inside the pool's task decorator, captured on the calling thread; {@code task}
     * is the user's object behind it, which diagnostics name ({@link TaskWrapper}).
     */
    static <T> T call(Registry registry, Object task, Runner.WorkerOp<T> op) {
        Worker w = current();
        if (w != null && w.registry == registry) {
            return op.run(w);
        }
        // w: a worker of another pool (cross), or null (cold); the runner knows how its callers wait.
        return registry.inWorkerOutside(w, task, op);
    }

    /** {@link ForagePool#join}, arguments checked. */
    static <A, B> JoinResult<A, B> join(Registry registry, final Computation<A> a, final Computation<B> b) {
        Worker w = of(registry);
        if (w != null) {
            return Join.onWorker(w, a, b);
        }
        return call(registry, a, new Runner.WorkerOp<JoinResult<A, B>>() {
            @Override
            public JoinResult<A, B> run(Worker worker) {
                return Join.onWorker(worker, a, b);
            }
        });
    }

    /** {@link ForagePool#scope}, argument checked. */
    static <T> T scope(Registry registry, final ScopeBody<T> body) {
        Worker w = of(registry);
        if (w != null) {
            return ScopeRun.onWorker(w, body);
        }
        return call(registry, body, new Runner.WorkerOp<T>() {
            @Override
            public T run(Worker worker) {
                return ScopeRun.onWorker(worker, body);
            }
        });
    }

    /** {@link ForagePool#install}, argument checked. */
    static <T> T install(Registry registry, final Computation<T> computation) {
        if (of(registry) != null) {
            return computation.compute();
        }
        return call(registry, computation, new Runner.WorkerOp<T>() {
            @Override
            public T run(Worker worker) {
                return computation.compute();
            }
        });
    }

    /**
     * {@link ForagePool#scopeAsync}, arguments checked: on a worker of this pool the body runs here, before this
     * returns; from any other thread it is submitted as a job (refused after shutdown, as any outside job).
     */
    static <T> void scopeAsync(Registry registry, ScopeBody<T> body, ScopeListener<? super T> listener) {
        AsyncScope<T> scope = new AsyncScope<>(registry, body, listener);
        if (of(registry) != null) {
            scope.run();
        } else {
            registry.execute(registry.decorate(scope));
        }
    }
}
