package dev.forage.interop;

import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Blocking work (file or socket I/O, a JDBC call, a lock held elsewhere) from pool jobs without starving the
 * pool, in the spirit of {@code ForkJoinPool.managedBlock}.
 *
 * <pre>{@code
 * ForageFuture<Report> report = ForageFutures.supplyAsync(() -> {
 *     byte[] raw = ForageBlocking.call(() -> Files.readAllBytes(path));   // the worker is not blocked
 *     return Report.parse(raw);                                          // CPU work on the worker
 * }, pool);
 * }</pre>
 *
 * <h2>How it works</h2>
 * Called on a worker of any Forage pool, the blocking call runs on a separate, bounded, elastic set of
 * <i>blocking threads</i> (daemon threads named {@code forage-blocking-N}, created on demand and ended after
 * 60 s idle), while the worker keeps running other jobs of its pool; the call's completion wakes exactly that
 * worker. Called on any other thread, the call simply runs inline. Either way the caller sees the call's own
 * result and exception, unchanged; interrupts travel with the call (the worker's interrupt is forwarded to the
 * blocking thread, and one that the call did not consume comes back).
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li>At most {@link #maxThreads()} blocking threads exist (system property
 *       {@value #MAX_THREADS_PROPERTY}, default {@value #DEFAULT_MAX_THREADS}); calls beyond that wait in a FIFO
 *       queue until a blocking thread is free (their workers keep helping meanwhile).</li>
 *   <li>There is no compensation in the {@code ForkJoinPool} sense: the pool never adds workers. None is
 *       needed for throughput, because the waiting worker is not blocked, but the worker can only return from
 *       this call once the jobs it picked up meanwhile finished (helping runs them on its stack), so a call's
 *       result may be consumed later than it arrived.</li>
 *   <li>Every call costs a hand-over to another thread and back: use it for calls that block, not for short
 *       ones.</li>
 *   <li>The exception of a call that failed on a blocking thread carries that thread's stack trace.</li>
 * </ul>
 */
public final class ForageBlocking {
    /** The system property that sets {@link #maxThreads()}. */
    public static final String MAX_THREADS_PROPERTY = "forage.blocking.maxThreads";
    /** The default of {@link #maxThreads()}, as for kotlinx.coroutines' {@code Dispatchers.IO}. */
    public static final int DEFAULT_MAX_THREADS = 64;

    private ForageBlocking() {
    }

    /**
     * Runs {@code blocking} and returns its result, without blocking a pool worker: on a worker it runs on a
     * blocking thread while the worker runs other jobs; elsewhere it runs inline.
     *
     * <pre>{@code
     * String row = ForageBlocking.call(() -> jdbc.queryForString(sql));
     * }</pre>
     *
     * @throws Exception whatever {@code blocking} throws, unchanged
     */
    public static <T> T call(Callable<T> blocking) throws Exception {
        Checks.notNull(blocking, "ForageBlocking.call", "blocking");
        if (!Waiting.onWorker()) {
            return blocking.call();
        }
        return BlockingCall.callElsewhere(blocking, BlockingThreads.EXECUTOR);
    }

    /**
     * Runs {@code blocking} without blocking a pool worker, as {@link #call}.
     *
     * <pre>{@code
     * ForageBlocking.run(() -> socket.getOutputStream().write(bytes));   // checked exceptions: use call
     * }</pre>
     *
     * @throws RuntimeException or {@link Error}: whatever {@code blocking} throws, unchanged
     */
    public static void run(Runnable blocking) {
        Checks.notNull(blocking, "ForageBlocking.run", "blocking");
        try {
            call(Executors.callable(blocking));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("a Runnable threw a checked exception", e); // cannot happen
        }
    }

    /** The most blocking threads that exist at once; further calls queue. */
    public static int maxThreads() {
        return BlockingThreads.MAX_THREADS;
    }

    /** The shared blocking threads, created on first use. */
    private static final class BlockingThreads {
        static final int MAX_THREADS = readMaxThreads();
        static final ThreadPoolExecutor EXECUTOR = create();

        private static int readMaxThreads() {
            String value = System.getProperty(MAX_THREADS_PROPERTY);
            if (value == null) {
                return DEFAULT_MAX_THREADS;
            }
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("system property " + MAX_THREADS_PROPERTY + "=" + value
                    + " is not allowed; it must be a whole number >= 1 (default " + DEFAULT_MAX_THREADS + ")");
        }

        private static ThreadPoolExecutor create() {
            final AtomicInteger number = new AtomicInteger();
            ThreadFactory factory = job -> {
                Thread t = new Thread(job, "forage-blocking-" + number.getAndIncrement());
                t.setDaemon(true);
                return t;
            };
            // Core == max with core timeout: grows to MAX_THREADS on demand, queues beyond, shrinks when idle.
            ThreadPoolExecutor executor = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, 60L, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<Runnable>(), factory);
            executor.allowCoreThreadTimeOut(true);
            return executor;
        }
    }
}
