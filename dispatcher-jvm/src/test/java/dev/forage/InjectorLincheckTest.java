package dev.forage;

import dev.forage.testing.Scenarios;
import dev.forage.testing.Watchdog;
import java.util.ArrayDeque;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Model checking: the injector is a linearizable FIFO queue, any thread pushing, polling, and asking
 * {@code isEmpty} (the read the sleep protocol's final check relies on); and a closable one: once {@code close}
 * has taken effect, outside pushes are refused and workers' pushes still queue (shutdown's admission). A batch
 * poll ({@code pollBatch}) takes the oldest jobs as one step: as many as the specification's head block still
 * holds, up to two.
 */
@Param(name = "job", gen = IntGen.class, conf = "1:50")
@Watchdog.Budget(seconds = 180)
public class InjectorLincheckTest {
    private static final Scenarios S = new Scenarios(InjectorLincheckTest.class);

    private final Injector injector = newInjector();

    /** The injector under test; subclasses check other block sizes, with their {@link #spec()}. */
    protected Injector newInjector() {
        return new Injector();
    }

    /** The sequential specification of {@link #newInjector()}'s block size. */
    protected Class<? extends Spec> spec() {
        return Spec.class;
    }

    @Operation
    public void push(@Param(name = "job") int job) {
        injector.push(new Job(job));
    }

    @Operation
    public boolean pushFromOutside(@Param(name = "job") int job) {
        return injector.pushFromOutside(new Job(job)) != Injector.REJECTED;
    }

    @Operation
    public void close() {
        injector.close();
    }

    @Operation
    public Integer poll() {
        Runnable r = injector.poll();
        return r == null ? null : Job.idOf(r);
    }

    /** Up to two of the oldest jobs, as "id,id" ("" when none): two once two are queued and fit in the block. */
    @Operation
    public String pollBatch() {
        Runnable[] into = new Runnable[2];
        int n = injector.pollBatch(into, 2, 1, 2);
        StringBuilder ids = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ids.append(i == 0 ? "" : ",").append(Job.idOf(into[i]));
        }
        return ids.toString();
    }

    @Operation
    public boolean isEmpty() {
        return injector.isEmpty();
    }

    /** The sequential specification, for blocks of {@link Injector#DEFAULT_BLOCK_SIZE}. */
    public static class Spec {
        private final ArrayDeque<Integer> jobs = new ArrayDeque<>();
        private final int slotsPerBlock;
        /** Jobs taken so far: where the head is in its block. */
        private long taken;
        private boolean closed;

        public Spec() {
            this(Injector.DEFAULT_BLOCK_SIZE);
        }

        protected Spec(int blockSize) {
            slotsPerBlock = blockSize - 1;
        }

        public void push(int job) {
            jobs.addLast(job);
        }

        public boolean pushFromOutside(int job) {
            if (closed) {
                return false;
            }
            jobs.addLast(job);
            return true;
        }

        public void close() {
            closed = true;
        }

        public Integer poll() {
            Integer job = jobs.pollFirst();
            if (job != null) {
                taken++;
            }
            return job;
        }

        public String pollBatch() {
            long leftInBlock = slotsPerBlock - taken % slotsPerBlock;
            long n = Math.min(Math.min(2, jobs.size()), leftInBlock); // at least 2 queued: a batch, else one
            StringBuilder ids = new StringBuilder();
            for (int i = 0; i < n; i++) {
                ids.append(i == 0 ? "" : ",").append(poll());
            }
            return ids.toString();
        }

        public boolean isEmpty() {
            return jobs.isEmpty();
        }
    }

    @Test
    void targetedScenarios() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(0)
                .sequentialSpecification(spec());
        // Two producers racing for the tail, a consumer and an emptiness check.
        options.addCustomScenario(Scenarios.scenario(
                List.of(),
                List.of(
                        List.of(S.call("push", 1), S.call("poll")),
                        List.of(S.call("push", 2), S.call("isEmpty")),
                        List.of(S.call("poll"), S.call("isEmpty"))),
                List.of(S.call("poll"), S.call("isEmpty"))));
        // The last job raced by two consumers while a producer adds one (the lagging tail).
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1)),
                List.of(
                        List.of(S.call("poll"), S.call("poll")),
                        List.of(S.call("poll"), S.call("push", 3)),
                        List.of(S.call("push", 2), S.call("isEmpty"))),
                List.of(S.call("poll"), S.call("poll"))));
        // Shutdown's admission: the close races two outside pushes and a worker's, then a look, as the drain does.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1)),
                List.of(
                        List.of(S.call("pushFromOutside", 2), S.call("pushFromOutside", 3)),
                        List.of(S.call("close"), S.call("isEmpty")),
                        List.of(S.call("poll"), S.call("push", 4))),
                List.of(S.call("poll"), S.call("poll"), S.call("pushFromOutside", 5))));
        // A batch poll races a single poll and a producer for the same jobs, then an emptiness check.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1), S.call("push", 2)),
                List.of(
                        List.of(S.call("pollBatch"), S.call("isEmpty")),
                        List.of(S.call("poll"), S.call("pollBatch")),
                        List.of(S.call("push", 3), S.call("push", 4))),
                List.of(S.call("pollBatch"), S.call("poll"))));
        options.check(getClass());
    }

    @Test
    void randomSearch() {
        Scenarios.randomSearch(spec(), 1).check(getClass());
    }
}
