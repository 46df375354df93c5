package dev.forage.stress;

import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * PLACEHOLDER: only checks that the jcstress build wiring works (annotation processing, uber jar,
 * run at verify). Replace with real tests of the dispatcher's internals.
 */
@JCStressTest
@Outcome(id = {"1, 2", "2, 1"}, expect = Expect.ACCEPTABLE, desc = "Each actor saw a distinct increment.")
@State
public class PlaceholderTest {
    private final AtomicInteger counter = new AtomicInteger();

    @Actor
    public void actor1(II_Result r) {
        r.r1 = counter.incrementAndGet();
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = counter.incrementAndGet();
    }
}
