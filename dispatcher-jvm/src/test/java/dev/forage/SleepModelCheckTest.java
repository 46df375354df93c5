package dev.forage;

import dev.forage.testing.Scenarios;
import dev.forage.testing.Watchdog;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Model check of the whole sleep protocol ({@code docs/sleep.md}, "The model check"): the real {@link JecSleep}
 * (and the searching cap around it) in a three-worker pool ({@link SleepModel}), every interleaving of its
 * shared-memory steps that Lincheck's model checker reaches within the bounds below, and after each one the
 * property: no posted job, set latch or socket readiness is left while a worker sleeps and none is woken, every
 * job is taken at most once, and the counters match the workers' states.
 *
 * <p><b>Why Lincheck.</b> Its model-checking mode runs the real code on real threads and switches between them
 * at every shared-memory access (volatile and plain fields, atomics, locks), so it explores the protocol's own
 * atomic steps without a seam in the main code; an explorer of our own would need a hook at every one of them.
 * What Lincheck cannot express directly is a thread that blocks for good in a correct run (a worker asleep with
 * nothing to do), which its deadlock detection would report: so {@link SleepModel}'s parker records the block
 * and ends the operation, and the property is checked when every thread is done ({@link #check}). Lincheck
 * interleaves sequentially consistently, which is exactly the JMM's guarantee for the volatile accesses the
 * proof uses (section 4.2); the weak-memory side (a release store where a volatile one is needed) is jcstress's
 * ({@code stress/README.md}).
 *
 * <p>Operations take the worker that runs them from the calling thread ({@link ThreadIdGen}), so a worker's own
 * steps (its search and sleep, pushes on its own deque) always run on one thread; the other events may come from
 * any thread. {@link SleepModelBreaksTest} runs the same check over deliberately broken variants and asserts that
 * it fails on each.
 */
@Param(name = "worker", gen = IntGen.class, conf = "0:2")
@Watchdog.Budget(seconds = 120)
public class SleepModelCheckTest {
    private static final Scenarios S = new Scenarios(SleepModelCheckTest.class);
    private static final boolean LONG_RUN = Boolean.getBoolean("forage.stress.long");
    /** Interleavings run (one model each), for the report that {@link #explore} prints. */
    static final AtomicLong INTERLEAVINGS = new AtomicLong();

    private final SleepModel model = new SleepModel(protocol(), breaks());

    public SleepModelCheckTest() {
        INTERLEAVINGS.incrementAndGet();
    }

    /** The protocol under test; a subclass checks another. */
    protected SleepModel.Protocol protocol() {
        return SleepModel.Protocol.JEC;
    }

    /** The deliberate breaks; none here. */
    protected Set<SleepModel.Break> breaks() {
        return EnumSet.noneOf(SleepModel.Break.class);
    }

    @Operation
    public void searchThenSleep(@Param(gen = ThreadIdGen.class) int thread) {
        model.searchThenSleep(worker(thread));
    }

    @Operation
    public void postToDeque(@Param(gen = ThreadIdGen.class) int thread) {
        model.postToDeque(worker(thread));
    }

    /**
     * The worker a thread plays. Lincheck numbers the parallel threads from 1 in random scenarios (0 is its main
     * thread); the targeted scenarios pass the worker itself. Either way one thread is one worker.
     */
    private static int worker(int thread) {
        return Math.floorMod(thread, SleepModel.WORKERS);
    }

    @Operation
    public void postToInjector() {
        model.postToInjector();
    }

    @Operation
    public void setLatch(@Param(name = "worker") int worker) {
        model.setLatch(worker);
    }

    @Operation
    public void wake(@Param(name = "worker") int worker) {
        model.wake(worker);
    }

    @Operation
    public void scheduleDueTimer() {
        model.scheduleDueTimer();
    }

    @Operation
    public void ioReady(@Param(name = "worker") int worker) {
        model.ioReady(worker);
    }

    /** The property, when every thread is done. */
    @Validate
    public void check() {
        model.check();
    }

    /**
     * Every operation returns nothing, so any sequential order explains the results: the property is
     * {@link #check}, not linearizability.
     */
    public static final class Spec {
        public void searchThenSleep(int worker) {
        }

        public void postToDeque(int worker) {
        }

        public void postToInjector() {
        }

        public void setLatch(int worker) {
        }

        public void wake(int worker) {
        }

        public void scheduleDueTimer() {
        }

        public void ioReady(int worker) {
        }
    }

    // ---- Scenarios ----------------------------------------------------------------------------------------

    /** A worker's search and sleep, on its own thread. */
    static Actor sleeps(int worker) {
        return S.call("searchThenSleep", worker);
    }

    static Actor pushes(int worker) {
        return S.call("postToDeque", worker);
    }

    static Actor injects() {
        return S.call("postToInjector");
    }

    static Actor sets(int worker) {
        return S.call("setLatch", worker);
    }

    static Actor wakes(int worker) {
        return S.call("wake", worker);
    }

    static Actor timer() {
        return S.call("scheduleDueTimer");
    }

    static Actor ready(int worker) {
        return S.call("ioReady", worker);
    }

    /** Three worker threads, thread {@code i} being worker {@code i}. */
    static ExecutionScenario workers(List<Actor> w0, List<Actor> w1, List<Actor> w2) {
        return Scenarios.scenario(List.of(), List.of(w0, w1, w2), List.of());
    }

    /** Two worker threads (workers 0 and 1); worker 2 is busy elsewhere throughout. */
    static ExecutionScenario workers(List<Actor> w0, List<Actor> w1) {
        return Scenarios.scenario(List.of(), List.of(w0, w1), List.of());
    }

    /** Pair A: an injected job against two workers falling asleep; the third posts, then sleeps too. */
    static final ExecutionScenario INJECTED_JOB = workers(
            List.of(sleeps(0)), List.of(sleeps(1)), List.of(injects(), sleeps(2)));
    /** Pair B: a worker pushes on its own deque and stays busy (it may block in user code); two fall asleep. */
    static final ExecutionScenario INTERNAL_JOB = workers(
            List.of(sleeps(0)), List.of(sleeps(1)), List.of(pushes(2)));
    /**
     * Pair C: worker 1 is counted idle by both posts and leaves with the injected job; the job worker 2 pushed
     * must go to worker 0 (the hand-off rule).
     */
    static final ExecutionScenario HAND_OFF = workers(
            List.of(sleeps(0)), List.of(sleeps(1)), List.of(injects(), pushes(2)));
    /** Pair D: latches set against their owners going to sleep, and a wake with nothing behind it. */
    static final ExecutionScenario LATCHES = workers(
            List.of(sleeps(0)), List.of(sleeps(1)), List.of(sets(0), wakes(1), sets(1)));
    /** Pair E and the watch: due timers against two sleepers, one of which takes the watch. */
    static final ExecutionScenario TIMERS = workers(
            List.of(sleeps(0)), List.of(sleeps(1), sleeps(1)), List.of(timer(), timer()));
    /** Socket readiness against the worker it is for falling asleep, beside a post. */
    static final ExecutionScenario READINESS = workers(
            List.of(sleeps(0)), List.of(sleeps(1)), List.of(ready(0), injects()));

    static final List<ExecutionScenario> TARGETED =
            List.of(INJECTED_JOB, INTERNAL_JOB, HAND_OFF, LATCHES, TIMERS, READINESS);

    /** Lincheck's options for {@code scenarios}, each explored for at most {@code invocations} interleavings. */
    static ModelCheckingOptions targeted(List<ExecutionScenario> scenarios, int invocations) {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(invocations)
                .sequentialSpecification(Spec.class);
        for (ExecutionScenario s : scenarios) {
            options.addCustomScenario(s);
        }
        return options;
    }

    /** Runs {@code options} over {@code testClass} and prints how many interleavings it explored. */
    static void explore(ModelCheckingOptions options, Class<?> testClass, String what) {
        long before = INTERLEAVINGS.get();
        long start = System.nanoTime();
        try {
            options.check(testClass);
        } finally {
            System.out.printf("%s: %d interleavings in %d ms%n", what, INTERLEAVINGS.get() - before,
                    (System.nanoTime() - start) / 1_000_000);
        }
    }

    /**
     * Interleavings per targeted scenario. Each one runs the whole protocol under Lincheck's instrumentation,
     * about 0.05 to 0.2 s on 2 loaded cores, so the default keeps the class under a minute; ten times more with
     * {@code -Dforage.stress.long=true}.
     */
    static final int INVOCATIONS = LONG_RUN ? 300 : 30;

    @Test
    void noLostWakeUpInTheTargetedRaces() {
        explore(targeted(TARGETED, INVOCATIONS), getClass(), getClass().getSimpleName() + " targeted");
    }

    /** Random scenarios: three workers, two operations each, any mix of the events. */
    @Test
    void noLostWakeUpInRandomScenarios() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(LONG_RUN ? 20 : 2)
                .invocationsPerIteration(20)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(0)
                .actorsAfter(0)
                .sequentialSpecification(Spec.class);
        explore(options, getClass(), getClass().getSimpleName() + " random");
    }

    /** The searching cap blocks in the JEC's S5, so the same model runs it unchanged; a few races, briefly. */
    @Test
    void noLostWakeUpUnderTheSearchingCap() {
        explore(targeted(List.of(INJECTED_JOB, HAND_OFF, LATCHES), INVOCATIONS / 3), SearchCap.class,
                "SearchCap targeted");
    }

    /** {@link SearchCapSleep} around the same JEC. */
    public static final class SearchCap extends SleepModelCheckTest {
        @Override
        protected SleepModel.Protocol protocol() {
            return SleepModel.Protocol.SEARCH_CAP;
        }
    }
}
