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
 * EMPER ({@link EmperSleep}) and a latch: {@code SpinLatch.set} from another thread against its owner
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
@Description("EMPER: SpinLatch.set vs its owner blocking on the hint pipe: never a lost wake-up.")
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
    private final LatchRace<EmperSleep> race =
            new LatchRace<>(probe -> new EmperSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(1), probe), null); // the first noWorkFound sleeps

    @Actor
    public void owner() {
        race.sleepThenLeave();
    }

    @Actor
    public void setter() {
        race.set();
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        race.record(r, sleep -> sleep.sleepersCount() == 0 && sleep.bufferedHints() == 0
                && race.idle.firstPlaceToLook() == IdleState.ANYWHERE);
    }
}
