package dev.forage;

import java.util.function.Function;
import java.util.function.Predicate;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * The pool-side fake of the latch races ({@code LatchSetVs*Sleep}): a one-worker pool with no work anywhere (an
 * empty {@link Injector} behind the probe and the context), the strategy under test, and the owner's
 * {@link SpinLatch}, whose waker ({@link RecordingWaker}) records that the setter saw SLEEPING. Holds the owner's
 * and the setter's bodies and the arbiter's encoding, so that each test only says which {@link Sleep} it builds,
 * what happens before the race and what "settled" means for that strategy, and its outcome lines.
 *
 * <p>The arbiter's result is always {@code r1} the owner (0 did not block, 1 blocked and woken by the setter, 2
 * blocked and the setter finished without waking it: lost), {@code r2} the setter saw SLEEPING and called the
 * waker (1) or not (0), {@code r3} the latch is SET and the strategy's own end check holds.
 *
 * @param <S> the strategy under test
 */
final class LatchRace<S extends Sleep> {
    private final Injector empty = new Injector();
    /** No work anywhere: only the latch wakes the owner. */
    final RaceProbe probe = new RaceProbe(empty);
    final S sleep;
    final RaceIdleContext context;
    final RecordingWaker waker;
    final SpinLatch latch;
    final IdleState idle;

    /**
     * {@code blockedFlag}: how the context asks whether the owner is still blocked; {@code null} for strategies
     * that ask {@link RaceIdleContext#parkNanos} under their sleep lock and only while blocked.
     */
    LatchRace(Function<RaceProbe, S> build, Predicate<S> blockedFlag) {
        this.sleep = build.apply(probe);
        this.context = blockedFlag == null
                ? new RaceIdleContext(empty)
                : new RaceIdleContext(empty, () -> blockedFlag.test(sleep));
        this.waker = new RecordingWaker(sleep);
        this.latch = new SpinLatch(waker, 0);
        this.idle = sleep.startLooking(0);
    }

    /** One failed search's step: {@code noWorkFound} (before the race, it makes the owner sleepy). */
    void noWorkFound() {
        sleep.noWorkFound(idle, latch, context);
    }

    // ---- actor bodies ----

    /** The owner's sleep step, then, as the worker loop does once its latch is set, leaving the idle state. */
    void sleepThenLeave() {
        noWorkFound();
        if (latch.probe()) {
            sleep.workFound(idle);
        }
    }

    /** The setter: set the latch, and say so to the owner's context as its last action. */
    void set() {
        latch.set();
        context.otherActorDone = true;
    }

    // ---- the arbiter ----

    /** Fills the common result; {@code settled}: the strategy's own end check (counts, hints, word). */
    void record(IIZ_Result r, Predicate<S> settled) {
        r.r1 = !context.blocked() ? 0 : context.selfWoke ? 2 : 1;
        r.r2 = waker.called ? 1 : 0;
        r.r3 = latch.probe() && settled.test(sleep);
    }
}
