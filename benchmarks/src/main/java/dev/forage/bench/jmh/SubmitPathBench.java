package dev.forage.bench.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Pieces of the outside-submission path, priced alone so that {@code DispatchBench.outside} can be read as a
 * sum: the admission counter's increment and decrement around each outside push (Registry.inject), against a
 * plain volatile read of the same word (what a shutdown check alone would cost).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SubmitPathBench {
    private final AtomicLong control = new AtomicLong();

    /** getAndIncrement + getAndDecrement, as each outside submission does today. */
    @Benchmark
    public long admissionRmwPair() {
        long c = control.getAndIncrement();
        control.getAndDecrement();
        return c;
    }

    /** A volatile read of the same word. */
    @Benchmark
    public long admissionRead() {
        return control.get();
    }
}
