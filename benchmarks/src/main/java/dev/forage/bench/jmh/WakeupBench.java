package dev.forage.bench.jmh;

import java.util.concurrent.Executor;
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
 * Wake-up round trip: submit one job from outside and wait (parked) until it ran. With {@code idleMicros} > 0
 * the benchmark thread first stays away that long, so the workers are asleep and the score includes waking one;
 * with 0 the workers are still searching. Sample mode, so the percentiles are in the output.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class WakeupBench {
    @Param({"forage", "forkjoin", "fixed"})
    public String subject;

    @Param({"2"})
    public int threads;

    @Param({"0", "1000"})
    public int idleMicros;

    private Executor pool;
    private final RoundTrip roundTrip = new RoundTrip();

    @Setup(Level.Trial)
    public void start() {
        pool = Pools.start(subject, threads);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        Pools.stop(pool);
    }

    /** Not measured: lets the workers fall asleep (Level.Invocation is fine for operations this long). */
    @Setup(Level.Invocation)
    public void idle() {
        if (idleMicros > 0) {
            RoundTrip.idle(idleMicros);
        }
    }

    @Benchmark
    public boolean roundTrip() {
        return roundTrip.run(pool);
    }
}
