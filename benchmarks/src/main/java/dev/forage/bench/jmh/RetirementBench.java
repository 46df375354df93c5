package dev.forage.bench.jmh;

import dev.forage.ForagePool;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first job after a quiet period: submit one job from outside and wait (parked) until it ran, with every
 * worker of the pool either asleep ({@code asleep}: Forage with {@code keepAliveForever()}, and a
 * {@code ForkJoinPool} whose keep-alive has not run out) or retired ({@code retired}: Forage with a 1 ms
 * keep-alive, whose threads have ended, so the job's post starts one; and a {@code ForkJoinPool} with a 1 ms
 * keep-alive, whose idle workers have ended too). The difference between the two states is the price of
 * retirement: one thread start. Sample mode, so the percentiles are in the output.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RetirementBench {
    @Param({"forage", "forkjoin"})
    public String subject;

    @Param({"asleep", "retired"})
    public String state;

    private java.util.concurrent.Executor pool;
    private final RoundTrip roundTrip = new RoundTrip();

    @Setup(Level.Trial)
    public void start() {
        boolean retire = state.equals("retired");
        pool = subject.equals("forage")
                ? (retire ? ForagePool.builder().threads(2).keepAlive(1, TimeUnit.MILLISECONDS)
                        : ForagePool.builder().threads(2).keepAliveForever()).name("jmh-retire").build()
                : new ForkJoinPool(2, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, false, 0, 256, 1, null,
                        retire ? 1 : 60_000, TimeUnit.MILLISECONDS);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        Pools.stop(pool);
    }

    /** Not measured: 20 ms away, so every worker is asleep, or (1 ms keep-alive) its thread has ended. */
    @Setup(Level.Invocation)
    public void idle() {
        RoundTrip.idle(20_000);
    }

    @Benchmark
    public boolean firstJob() {
        return roundTrip.run(pool);
    }
}
