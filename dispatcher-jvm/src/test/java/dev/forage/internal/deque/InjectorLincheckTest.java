package dev.forage.internal.deque;

import dev.forage.testing.Watchdog;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
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
    private final Injector injector = new Injector();

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
        options.addCustomScenario(scenario(
                List.of(),
                List.of(List.of(aPush(1), aPoll()), List.of(aPush(2), aIsEmpty()), List.of(aPoll(), aIsEmpty())),
                List.of(aPoll(), aIsEmpty())));
        // The last job raced by two consumers while a producer adds one (the lagging tail).
        options.addCustomScenario(scenario(
                List.of(aPush(1)),
                List.of(List.of(aPoll(), aPoll()), List.of(aPoll(), aPush(3)), List.of(aPush(2), aIsEmpty())),
                List.of(aPoll(), aPoll())));
        options.check(getClass());
    }

    @Test
    void randomSearch() {
        new ModelCheckingOptions()
                .iterations(Boolean.getBoolean("forage.stress.long") ? 100 : 15)
                .invocationsPerIteration(Boolean.getBoolean("forage.stress.long") ? 5_000 : 1_000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(2)
                .sequentialSpecification(Spec.class)
                .check(getClass());
    }

    private static ExecutionScenario scenario(List<Actor> init, List<List<Actor>> parallel, List<Actor> post) {
        return new ExecutionScenario(init, parallel, post, null);
    }

    private static Actor aPush(int job) {
        return new Actor(method("push", int.class), Arrays.asList(job));
    }

    private static Actor aPoll() {
        return new Actor(method("poll"), List.of());
    }

    private static Actor aIsEmpty() {
        return new Actor(method("isEmpty"), List.of());
    }

    private static Method method(String name, Class<?>... parameters) {
        try {
            return InjectorLincheckTest.class.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
