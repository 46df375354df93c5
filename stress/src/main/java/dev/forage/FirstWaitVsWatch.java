package dev.forage;

import java.nio.channels.SelectableChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Selector takeover's watch race ({@code docs/io.md} section 6, T3): worker A registers its first wait (its
 * reactor's registered channels go from none to one, published when A releases the drive) while its neighbour B
 * enters a select, publishing SELECTING (P1) and then reading its neighbours' channels to choose its bound. Either B
 * reads A's channel and bounds its select, or A's release reads B selecting without watching and wakes it: B never
 * sleeps its whole deadline while A's channel is unwatched. Fresh reactors, takeover and pipe per
 * sample ({@link TwoReactors}).
 *
 * <p>B parks for one second, about a million times the race; A's thread never parks, so A stays exposed. Result: r1
 * B's park returned before its deadline, r2 A's wait is still pending (nobody fired it: the pipe stays empty).
 */
@JCStressTest
@Description("A neighbour's first wait vs a worker entering select: the worker watches it or is woken.")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE,
        desc = "B bounded its select by the takeover delay, or A's first wait woke it.")
@Outcome(id = "false, true", expect = Expect.FORBIDDEN,
        desc = "B slept its whole second without watching although A's channel was exposed.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class FirstWaitVsWatch {
    private static final long PARK_NANOS = TimeUnit.SECONDS.toNanos(1);
    private final TwoReactors pair = new TwoReactors(false);
    private final IoReactor a = pair.a;
    private final IoReactor b = pair.b;
    private final IoWait wait = pair.waitOnA(new ReadinessListener() {
        @Override
        public void ready(SelectableChannel channel) {
        }

        @Override
        public void failed(Throwable error) {
        }
    });
    private long parkedNanos = -1;

    @Actor
    public void neighbour() {
        b.parker().bindCurrentThread();
        long start = System.nanoTime();
        b.parker().park(PARK_NANOS); // P0..P4, T3 at P3
        parkedNanos = System.nanoTime() - start;
    }

    @Actor
    public void owner() {
        a.parker().bindCurrentThread();
        a.submit(wait); // R1 under the drive; the release publishes the first registered channel (T3)
    }

    @Arbiter
    public void arbiter(ZZ_Result r) {
        r.r1 = parkedNanos >= 0 && parkedNanos < PARK_NANOS;
        r.r2 = wait.isPending();
        pair.close();
    }
}
