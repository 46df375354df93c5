package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.bench.scenario.YieldTurns;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.CoroutineDispatcher;
import org.junit.jupiter.api.Test;

/**
 * The yield row's fairness count ({@link YieldTurns}), which the run details show next to the timings: it must
 * tell a {@code yield()} that lets the other coroutines take turns from one that resumes the same coroutine again.
 */
class YieldTurnsTest {
    private static final int EACH = 200;

    @Test
    void forageYieldLetsTheOtherCoroutinesRunBetweenTwoResumes() throws Exception {
        Guard.within(60, "forage yield turns", () -> {
            try (Running r = Subjects.byId("forage-jec").open(2)) {
                assertEquals(1, YieldTurns.measure(r.requireDispatcher(), EACH),
                        "ForageDispatcher.dispatchYield must queue the coroutine behind the others on its worker");
            }
        });
    }

    @Test
    void theCountSeesAYieldThatResumesTheSameCoroutineAgain() throws Exception {
        Guard.within(60, "lifo yield turns", () -> {
            try (Running r = Subjects.byId("forage-jec").open(2)) {
                // Forage's plain dispatch (no dispatchYield): the coroutine goes on top of its worker's deque,
                // which the worker pops next.
                int turns = YieldTurns.measure(new LifoDispatcher(r.foragePool()), EACH);
                assertTrue(turns > 1, "a LIFO re-dispatch gave runs of " + turns);
            }
        });
    }

    @Test
    void onAForkJoinPoolYieldResumesTheSameCoroutine() throws Exception {
        // What docs/benchmarks.md says about the yield row's ForkJoinPool anchor; if a JDK changes it, so must
        // the docs.
        Guard.within(60, "forkjoin yield turns", () -> {
            try (Running r = Subjects.byId("forkjoin").open(2)) {
                int turns = YieldTurns.measure(r.requireDispatcher(), EACH);
                assertTrue(turns > 1, "ForkJoinPool's yield() gave runs of " + turns);
            }
        });
    }

    /** Dispatches through {@link ForagePool#execute} and inherits dispatchYield = dispatch. */
    private static final class LifoDispatcher extends CoroutineDispatcher {
        private final ForagePool pool;

        LifoDispatcher(ForagePool pool) {
            this.pool = pool;
        }

        @Override
        public void dispatch(CoroutineContext context, Runnable block) {
            pool.execute(block);
        }
    }
}
