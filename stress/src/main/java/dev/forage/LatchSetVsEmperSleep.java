package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * Seed 003 ({@link EmperSleep}) and a latch: {@code SpinLatch.set} from another thread against its owner
 * counting itself as a sleeper and blocking on the hint pipe. A setter that finds the latch SLEEPING calls
 * {@code notifyWorkerLatchIsSet}, which takes the pipe's lock and wakes the owner directly (no hint); the woken
 * owner withdraws its read, giving its count back. Then, as the worker loop does when its latch is set, it
 * leaves the idle state ({@code workFound}).
 *
 * <p>Pins P5 of {@code docs/sleep-strategies.md} section 6 (the latch hand-off of section 2 with the pipe's
 * lock): the owner takes the pipe's lock before SLEEPING and holds it until it waits, so the setter's wake-up
 * cannot come too early; and the withdrawal leaves the count at 0, so no later notifier claims a worker that is
 * not waiting (P1, P2).
 *
 * <p>Cannot hang: see {@link InjectorVsEmperSleep}.
 *
 * <p>Result: r1 owner (0: did not block; 1: blocked and woken by the setter; 2: blocked, and the setter finished
 * without waking it), r2 the setter saw SLEEPING and called the waker, r3 the arbiter found the latch SET, the
 * sleepers count 0, no buffered hint and no hint left for the owner.
 */
@JCStressTest
@Description("Seed 003: SpinLatch.set vs its owner blocking on the hint pipe: never a lost wake-up.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE, desc = "Set before SLEEPING: the owner does not block.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPING: the setter woke the blocked owner.")
@Outcome(id = "2, 0, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the owner blocked, the setter did not see SLEEPING and woke nobody.")
@Outcome(id = "2, 1, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the setter saw SLEEPING but its wake-up missed the blocked owner.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the count left with a withdrawn sleeper, or an "
        + "owner that saw SLEEPING published and still did not block (it holds the pipe's lock until it waits).")
@State
public class LatchSetVsEmperSleep {
    private final RaceProbe probe = new RaceProbe(new Injector()); // no work anywhere: only the latch wakes
    private final EmperSleep sleep = new EmperSleep(1, probe, 0); // the first noWorkFound sleeps
    private final RaceIdleContext context = new RaceIdleContext(new Injector());
    private final RecordingWaker waker = new RecordingWaker(sleep);
    private final SpinLatch latch = new SpinLatch(waker, 0);
    private final IdleState idle = sleep.startLooking(0);

    @Actor
    public void owner() {
        sleep.noWorkFound(idle, latch, context);
        if (latch.probe()) {
            sleep.workFound(idle); // the worker loop leaves the idle state once its latch is set
        }
    }

    @Actor
    public void setter() {
        latch.set();
        context.otherActorDone = true;
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r1 = !context.blocked() ? 0 : context.selfWoke ? 2 : 1;
        r.r2 = waker.called ? 1 : 0;
        r.r3 = latch.probe() && sleep.sleepersCount() == 0 && sleep.bufferedHints() == 0
                && idle.takeHint() == IdleState.NO_HINT;
    }
}
