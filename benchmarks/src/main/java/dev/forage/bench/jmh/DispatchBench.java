package dev.forage.bench.jmh;

import java.util.concurrent.Executor;
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
 * The cost of one dispatch, submitted from outside the pool (the injector path) and from inside (a worker's own
 * deque), including running the empty job. Batches of {@value #BATCH} jobs, and of {@value #LARGE_BATCH} in the
 * {@code *Large} variants; the score is per job. The caller waits for each batch, so the workers may fall asleep
 * between batches: a batch's start and end (wake-ups, the last jobs, the caller's unpark) are spread over its
 * jobs, 100 times thinner in the large variants, and the difference between the two scores is that per-batch
 * share. With {@code -prof gc}, {@code gc.alloc.rate.norm} is the bytes allocated per dispatch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class DispatchBench {
    static final int BATCH = 1000;
    static final int LARGE_BATCH = 100_000;

    @Param({"forage", "forkjoin", "fixed"})
    public String subject;

    @Param({"2"})
    public int threads;

    private Executor pool;
    private Batches batches;
    private Runnable insideBatch;
    private Runnable insideLargeBatch;

    @Setup(Level.Trial)
    public void start() {
        pool = Pools.start(subject, threads);
        batches = new Batches(pool);
        insideBatch = batches.batchOf(BATCH);
        insideLargeBatch = batches.batchOf(LARGE_BATCH);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        Pools.stop(pool);
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

    @Benchmark
    @OperationsPerInvocation(LARGE_BATCH)
    public void outsideLarge() {
        batches.fromOutside(LARGE_BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(LARGE_BATCH)
    public void insideLarge() {
        batches.fromInside(LARGE_BATCH, insideLargeBatch);
    }
}
