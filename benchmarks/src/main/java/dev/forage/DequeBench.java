package dev.forage;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The queues on the hot paths, single-threaded (the owner's push/pop, an uncontended steal) and with an owner and
 * a thief racing. The injector is set beside {@link ConcurrentLinkedQueue}, the JDK's Michael-Scott queue.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class DequeBench {
    private static final Runnable JOB = () -> { };

    private final WorkDeque deque = new WorkDeque();
    private final Injector injector = new Injector();
    private final ConcurrentLinkedQueue<Runnable> clq = new ConcurrentLinkedQueue<>();

    /** Owner: push then pop (LIFO), the fork-join fast path when nobody steals. */
    @Benchmark
    @Group("pushPop")
    public Runnable pushPop() {
        deque.push(JOB);
        return deque.pop();
    }

    /** Push then steal from the same thread: the cost of the thief's CAS without contention. */
    @Benchmark
    @Group("pushSteal")
    public Runnable pushSteal() {
        deque.push(JOB);
        return deque.steal();
    }

    @Benchmark
    @Group("injectorPushPoll")
    public Runnable injectorPushPoll() {
        injector.push(JOB);
        return injector.poll();
    }

    @Benchmark
    @Group("clqOfferPoll")
    public Runnable clqOfferPoll() {
        clq.offer(JOB);
        return clq.poll();
    }

    /**
     * Owner pushing and popping while a thief steals: the deque holds at most one job, so every steal is the
     * last-item race against the owner's pop.
     */
    @Benchmark
    @Group("contended")
    @GroupThreads(1)
    public Runnable owner() {
        deque.push(JOB);
        return deque.pop();
    }

    @Benchmark
    @Group("contended")
    @GroupThreads(1)
    public Runnable thief() {
        return deque.steal();
    }
}
