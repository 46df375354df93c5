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
 * {@code isEmpty} (the read the sleep protocol's final check relies on).
 */
@Param(name = "job", gen = IntGen.class, conf = "1:50")
@Watchdog.Budget(seconds = 180)
public class InjectorLincheckTest {
    private static final Scenarios S = new Scenarios(InjectorLincheckTest.class);

    private final Injector injector = newInjector();

    /** The injector under test; subclasses check other block sizes. */
    protected Injector newInjector() {
        return new Injector();
    }

    @Operation
    public void push(@Param(name = "job") int job) {
        injector.push(new Job(job));
    }

    @Operation
    public Integer poll() {
        Runnable r = injector.poll();
        return r == null ? null : Job.idOf(r);
    }

    @Operation
    public boolean isEmpty() {
        return injector.isEmpty();
    }

    /** The sequential specification. */
    public static final class Spec {
        private final ArrayDeque<Integer> jobs = new ArrayDeque<>();

        public void push(int job) {
            jobs.addLast(job);
        }

        public Integer poll() {
            return jobs.pollFirst();
        }

        public boolean isEmpty() {
            return jobs.isEmpty();
        }
    }

    @Test
    void targetedScenarios() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(0)
                .sequentialSpecification(Spec.class);
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
        options.check(getClass());
    }

    @Test
    void randomSearch() {
        Scenarios.randomSearch(Spec.class, 1).check(getClass());
    }
}
