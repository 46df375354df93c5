package dev.forage.bench;

import dev.forage.ForagePool;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import kotlinx.coroutines.CoroutineDispatcher;

/**
 * A started {@link Subject}: the handles a scenario drives. Exactly one of {@link #foragePool()} and
 * {@link #forkJoinPool()} is set for subjects that can fork-join; {@link #dispatcher()} is null for subjects
 * without coroutine support. {@link #close()} stops private pools (shared ones are left alone).
 */
public final class Running implements AutoCloseable {
    private final Subject subject;
    private final int threads;
    private final Executor executor;
    private final CoroutineDispatcher dispatcher;
    private final String threadPrefix;
    private final ForagePool foragePool;
    private final ForkJoinPool forkJoinPool;
    private final Runnable closer;

    private Running(Subject subject, int threads, Executor executor, CoroutineDispatcher dispatcher,
            String threadPrefix, ForagePool foragePool, ForkJoinPool forkJoinPool, Runnable closer) {
        this.subject = subject;
        this.threads = threads;
        this.executor = executor;
        this.dispatcher = dispatcher;
        this.threadPrefix = threadPrefix;
        this.foragePool = foragePool;
        this.forkJoinPool = forkJoinPool;
        this.closer = closer;
    }

    static Running forage(Subject s, int threads, ForagePool pool, CoroutineDispatcher dispatcher, String prefix) {
        return new Running(s, threads, pool, dispatcher, prefix, pool, null, pool::close);
    }

    static Running forkJoin(Subject s, int threads, ForkJoinPool pool, CoroutineDispatcher dispatcher,
            String prefix, Runnable closer) {
        return new Running(s, threads, pool, dispatcher, prefix, null, pool, closer);
    }

    static Running dispatcher(Subject s, int threads, Executor executor, CoroutineDispatcher dispatcher,
            String prefix, Runnable closer) {
        return new Running(s, threads, executor, dispatcher, prefix, null, null, closer);
    }

    public Subject subject() {
        return subject;
    }

    /** The number of workers this scheduler was built with. */
    public int threads() {
        return threads;
    }

    public Executor executor() {
        return executor;
    }

    /** The coroutine dispatcher, or null. */
    public CoroutineDispatcher dispatcher() {
        return dispatcher;
    }

    /** Every worker thread of this scheduler, and no other thread, has a name starting with this. */
    public String threadPrefix() {
        return threadPrefix;
    }

    /** The Forage pool, or null. */
    public ForagePool foragePool() {
        return foragePool;
    }

    /** The ForkJoinPool, or null. */
    public ForkJoinPool forkJoinPool() {
        return forkJoinPool;
    }

    /** Fails with a clear message when a scenario asks for something the subject lacks. */
    public CoroutineDispatcher requireDispatcher() {
        if (dispatcher == null) {
            throw new IllegalStateException(subject.id() + " has no coroutine dispatcher");
        }
        return dispatcher;
    }

    @Override
    public void close() {
        closer.run();
    }
}
