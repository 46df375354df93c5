package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Selector takeover's exclusion ({@code docs/io.md} section 6, T1 and T4): worker A polls its own selector (a busy
 * worker's look, then its listeners) while neighbour B takes A's selector over. Both look at a wait whose pipe is
 * already readable; the drive lets one of them at a time touch A's keys and lists, so the listener runs exactly once,
 * on A or on B, and neither sees a broken selected-key set or list. Fresh reactors and pipe per sample.
 *
 * <p>Result: r1 how many times the listener ran, r2 who told it (1 A, 2 B, -1 an exception on either side).
 */
@JCStressTest
@Description("Owner poll vs a neighbour's takeover of the same selector: readiness is told exactly once.")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "A's poll saw the readiness first and told it.")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "B took A's selector over and told it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Told twice, never, or an exception: the drive did not exclude.")
@State
public class TakeoverVsOwnerPoll {
    private final TwoReactors pair = new TwoReactors(true);
    private final IoReactor a = pair.a;
    private final IoReactor b = pair.b;
    private final AtomicInteger told = new AtomicInteger();
    private volatile Thread threadA;
    private volatile int teller;
    private volatile boolean failed;

    public TakeoverVsOwnerPoll() {
        a.submit(pair.waitOnA(new ReadinessListener() {
            @Override
            public void ready(SelectableChannel channel) {
                told.incrementAndGet();
                teller = Thread.currentThread() == threadA ? 1 : 2;
            }

            @Override
            public void failed(Throwable error) {
                failed = true;
            }
        }));
    }

    @Actor
    public void owner() {
        threadA = Thread.currentThread();
        a.parker().bindCurrentThread();
        try {
            a.poll(); // drives A: selectNow, R2, then R3 outside the drive
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    @Actor
    public void neighbour() {
        b.parker().bindCurrentThread();
        try {
            if (b.tryDrive()) {
                try {
                    a.lendTo(b, System.nanoTime(), 0L); // T4 with no delay: whenever A is exposed
                } finally {
                    b.release();
                }
                b.runReady();
            }
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = told.get();
        r.r2 = failed ? -1 : teller;
        pair.close();
    }
}
