package guide;

import dev.forage.ForagePool;
import dev.forage.QueueFullPolicy;
import dev.forage.interop.ForageBlocking;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The blocks of docs/java.md after its opening program, each in a method that returns what it made. */
public final class JavaPage {
    private JavaPage() {
    }

    public static ExecutorService boundedQueue() {
        ForagePool pool = ForagePool.builder().queueCapacity(10_000).whenQueueFull(QueueFullPolicy.CALLER_RUNS).build();
        ExecutorService executor = ForageExecutorService.owning(pool);
        return executor;
    }

    /** The parallelism before each call: 4, then 8. */
    public static int[] resize() {
        ForageExecutorService executor = ForageExecutorService.owning(
                ForagePool.builder().threads(4).maxParallelism(16).build());
        int before = executor.pool().setParallelism(8);   // returns 4: four more workers start now
        int grown = executor.pool().setParallelism(before); // returns 8: four finish their current task and leave
        executor.close();
        return new int[] {before, grown};
    }

    public static Future<Report> blockingInsideATask(ExecutorService executor, Path path) {
        Future<Report> report = executor.submit(() -> {                    // a Callable: call may throw IOException
            byte[] raw = ForageBlocking.call(() -> Files.readAllBytes(path)); // a stand-in works meanwhile
            return Report.parse(raw);                                        // CPU work on the pool
        });
        return report;
    }

    public static Object[] blockingExecutor(ForagePool pool, Database jdbc, String sql, Path path) {
        ForageFuture<Report> report = ForageFutures
                .supplyBlockingAsync(() -> jdbc.query(sql), pool)   // blocking, compensated
                .thenApplyAsync(Report::of);                        // CPU work, on the pool

        CompletableFuture<byte[]> raw =                             // any CompletableFuture code
                CompletableFuture.supplyAsync(() -> read(path), pool.blockingExecutor());
        Executor database = pool.blockingExecutor(10);              // never more than 10 at once
        return new Object[] {report, raw, database};
    }

    public static ForagePool blockingSettings() {
        ForagePool pool = ForagePool.builder().threads(8).maxBlockingThreads(200)
                .blockingKeepAlive(10, TimeUnit.SECONDS).build();   // a JDBC-heavy service
        return pool;
    }

    static byte[] read(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
