package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;

/**
 * Blocking work (file or socket I/O, a JDBC call, a lock held elsewhere) inside pool jobs without starving the
 * pool: a <i>blocking section</i> of the caller's own pool, in the manner of {@code ForkJoinPool.managedBlock}.
 * The Java face of {@link ForagePool#managedBlock(Callable)}.
 *
 * <pre>{@code
 * Future<Report> report = executor.submit(() -> {                      // a Callable: call may throw IOException
 *     byte[] raw = ForageBlocking.call(() -> Files.readAllBytes(path));   // another thread works meanwhile
 *     return Report.parse(raw);                                          // CPU work on the pool
 * });
 * }</pre>
 *
 * <h2>How it works</h2>
 * The call runs inline, on the calling thread. Called on a worker of a Forage pool, that worker's pool lets
 * another thread run in the worker's place until the call returns, so the pool keeps {@link ForagePool#parallelism()}
 * workers running; the blocked worker keeps its deque, which the others drain meanwhile. Called on any other
 * thread, the call simply runs. Either way the caller sees the call's own result and exception, unchanged, and
 * interrupts reach the call directly (it runs on the thread that {@code shutdownNow} or {@code cancel(true)}
 * interrupts).
 *
 * <h2>Configuration, per pool</h2>
 * Each pool bounds its own stand-in threads on its builder:
 * {@link dev.forage.ForagePoolBuilder#maxBlockingThreads(int) maxBlockingThreads} (default 64 or the thread count,
 * whichever is larger; 0 turns compensation off) and
 * {@link dev.forage.ForagePoolBuilder#blockingKeepAlive blockingKeepAlive} (how long an idle stand-in waits for the
 * next section; default 60 s).
 * <pre>{@code
 * ForagePool pool = ForagePool.builder().threads(8).maxBlockingThreads(200).build();   // a JDBC-heavy service
 * }</pre>
 * Beyond {@code maxBlockingThreads} workers blocked at once, and on a single-threaded pool, a call still runs, but
 * without a stand-in: the pool runs with fewer workers until it returns. {@link dev.forage.PoolStatistics} shows
 * it all: {@code blockedWorkers()}, {@code compensatingThreads()}, {@code spareThreads()},
 * {@code mostBlockedWorkers()} and the counters {@code blockingSections()} and {@code compensations()}.
 *
 * <h2>Cost</h2>
 * No thread hop: the call and its stack trace stay on the caller's thread. Entering a section may wake or start a
 * stand-in thread, so use it around calls that block for long, not around short CPU work. Sections nest: an inner
 * one costs a field increment. For {@code CompletableFuture} code that only blocks, hand the task to the pool's
 * blocking executor instead ({@link ForageFutures#supplyBlockingAsync(java.util.function.Supplier, ForagePool)},
 * {@link ForagePool#blockingExecutor()}).
 */
public final class ForageBlocking {
    private ForageBlocking() {
    }

    /**
     * Runs {@code blocking} on the calling thread and returns its result; on a worker of a Forage pool, as a
     * blocking section of that pool (another thread runs in the worker's place meanwhile), elsewhere just so.
     *
     * <pre>{@code
     * String row = ForageBlocking.call(() -> jdbc.queryForString(sql));
     * }</pre>
     *
     * @return what {@code blocking} returned
     * @throws Exception whatever {@code blocking} throws, unchanged
     * @throws NullPointerException if {@code blocking} is null
     */
    public static <T> T call(Callable<T> blocking) throws Exception {
        Checks.notNull(blocking, "ForageBlocking.call", "blocking");
        return ForagePool.managedBlock(blocking);
    }

    /**
     * Runs {@code blocking} on the calling thread, as {@link #call}; for code without checked exceptions.
     *
     * <pre>{@code
     * ForageBlocking.run(() -> lock.lock());   // checked exceptions (I/O): use call
     * }</pre>
     *
     * @throws RuntimeException or {@link Error}: whatever {@code blocking} throws, unchanged (a checked exception
     *         that it throws by a "sneaky throw" passes unchanged too; nothing is wrapped)
     * @throws NullPointerException if {@code blocking} is null
     */
    public static void run(Runnable blocking) {
        Checks.notNull(blocking, "ForageBlocking.run", "blocking");
        try {
            ForagePool.managedBlock(Executors.callable(blocking));
        } catch (Exception e) {
            throw ForageBlocking.<RuntimeException>unchanged(e);
        }
    }

    /** Rethrows {@code e} as it is: a RuntimeException, or a checked exception that a Runnable threw anyway. */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E unchanged(Exception e) throws E {
        throw (E) e;
    }
}
