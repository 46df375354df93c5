package dev.forage.testing;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * Hand-written Lincheck scenarios from Java (Lincheck's scenario DSL wants Kotlin function references): the
 * targeted races a random search takes long to find.
 */
public final class Scenarios {
    private final Class<?> testClass;

    public Scenarios(Class<?> testClass) {
        this.testClass = testClass;
    }

    /** A call of the test class's public operation {@code name} with {@code args} (ints only, which is all we use). */
    public Actor call(String name, Object... args) {
        Class<?>[] types = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            types[i] = int.class;
        }
        try {
            Method method = testClass.getMethod(name, types);
            return new Actor(method, new ArrayList<>(Arrays.asList(args)));
        } catch (NoSuchMethodException e) {
            throw new AssertionError("no operation " + name + " with " + args.length + " int arguments", e);
        }
    }

    /** A sequential prefix, one list of calls per parallel thread, then a sequential suffix. */
    public static ExecutionScenario scenario(List<Actor> init, List<List<Actor>> parallel, List<Actor> post) {
        return new ExecutionScenario(init, parallel, post, null);
    }

    /**
     * The bounded random search every Lincheck test here runs after its targeted scenarios: three threads of
     * three operations (toolchain.md pitfall 6: a wide search takes minutes; the targeted scenarios carry the
     * known races). Ten times more with {@code -Dforage.stress.long=true}.
     */
    public static ModelCheckingOptions randomSearch(Class<?> sequentialSpecification, int actorsBefore) {
        boolean longRun = Boolean.getBoolean("forage.stress.long");
        return new ModelCheckingOptions()
                // Long runs explore about seven times as many interleavings. Fifty times (150 x 5,000) outran
                // the watchdog's 180 s budget on 2 cores: a time-out, not a hang (the dump showed Lincheck
                // working); 60 x 2,500 took 130 and 140 s, so 40 x 2,500 leaves room for a loaded machine.
                .iterations(longRun ? 40 : 15)
                .invocationsPerIteration(longRun ? 2_500 : 1_000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(actorsBefore)
                .actorsAfter(2)
                .sequentialSpecification(sequentialSpecification);
    }
}
