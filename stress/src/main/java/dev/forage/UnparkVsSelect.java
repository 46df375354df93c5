package dev.forage;

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
 * The IO parker's wake-up race ({@code docs/io.md}, "The waker against the sleeper entering select"): a waker's
 * {@link SelectorParker#unpark()} (U1 set the permit, U2 read where the owner blocks and wake it there) against the
 * owner's {@link SelectorParker#park} (P1 publish SELECTING, P2 re-read the permit, P3 select). Either P2 sees the
 * permit, or U2 sees SELECTING and calls {@code selector.wakeup()}, which ends a select in progress or makes the next
 * one return at once: the park never runs its whole length. A fresh reactor (selector) and parker per sample, so no permit
 * is left over from an earlier one.
 *
 * <p>The park is one second, about a million times longer than the race, and the outcome is judged on the park
 * itself: a park that ran its whole length is a lost wake-up (nothing else ends a select on a selector with no
 * channels early, and the unpark always comes before the park ends). A broken run is slow but ends.
 *
 * <p>Result: r1 the park returned before its deadline, r2 the selector is still open (the parker did not close it).
 */
@JCStressTest
@Description("SelectorParker.unpark vs the owner entering select: an unpark is never lost.")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE,
        desc = "The permit (unpark before P2) or the wakeup (unpark during the select) ended the park at once.")
@Outcome(id = "false, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the select ran its whole second although the waker had unparked.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class UnparkVsSelect {
    private static final long PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IoReactor reactor = new IoReactor("stress", 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
    private final SelectorParker parker = reactor.parker();
    private long parkedNanos = -1;

    @Actor
    public void sleeper() {
        parker.bindCurrentThread();
        long start = System.nanoTime();
        parker.park(PARK_NANOS); // P1..P3
        parkedNanos = System.nanoTime() - start;
    }

    @Actor
    public void waker() {
        parker.unpark(); // U1, U2
    }

    @Arbiter
    public void arbiter(ZZ_Result r) {
        r.r1 = parkedNanos >= 0 && parkedNanos < PARK_NANOS;
        r.r2 = reactor.selector.isOpen();
        reactor.closeSelector();
    }
}
