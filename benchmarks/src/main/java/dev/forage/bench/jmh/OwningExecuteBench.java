package dev.forage.bench.jmh;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the Java executor adds to a dispatch: {@code execute} of an empty job on the pool itself
 * ({@code pool}), on an executor that owns the pool ({@code owning}: the pool's own admission plus one read of
 * its shutdown state), on a view over the pool ({@code view}: a dispatch object, its claim, the view's count
 * and its set of live tasks, so that the view can withdraw and await its own tasks), and on a
 * {@code ForkJoinPool} for scale. Batches of {@value #BATCH} jobs from outside the pool (the injector) and
 * from a worker (its own deque), shaped as {@link DispatchBench}; the score is per job, running it included.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class OwningExecuteBench {
    static final int BATCH = 1000;

    @Param({"pool", "owning", "view", "forkjoin"})
    public String subject;

    @Param({"2"})
    public int threads;

    private ForagePool forage;
    private ForkJoinPool forkJoin;
    private ForageExecutorService executor;
    /** What the batch is executed on: the subject. */
    private Executor target;
    private Batches batches;
    private Runnable insideBatch;

    @Setup(Level.Trial)
    public void start() {
        target = open();
        batches = new Batches(target);
        insideBatch = batches.batchOf(BATCH);
    }

    private Executor open() {
        switch (subject) {
            case "forkjoin":
                forkJoin = new ForkJoinPool(threads);
                return forkJoin;
            case "pool":
                forage = ForagePool.builder().threads(threads).name("jmh-pool").build();
                return forage;
            case "owning":
                forage = ForagePool.builder().threads(threads).name("jmh-owning").build();
                executor = ForageExecutorService.owning(forage);
                return executor;
            case "view":
                forage = ForagePool.builder().threads(threads).name("jmh-view").build();
                executor = ForageExecutorService.viewOf(forage);
                return executor;
            default:
                throw new IllegalArgumentException("unknown subject '" + subject
                        + "'; allowed: pool, owning, view, forkjoin");
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        if (executor != null) {
            executor.close();
        }
        if (forage != null) {
            forage.close();
        }
        if (forkJoin != null) {
            forkJoin.shutdown();
            forkJoin.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void outside() {
        batches.fromOutside(BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void inside() {
        batches.fromInside(BATCH, insideBatch);
    }
}
