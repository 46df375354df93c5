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
 * {@code LatchSetVsSleep} end to end: a worker that really parks in S5 inside
 * {@code JecSleep.noWorkFound} for a {@link SpinLatch}, against {@code SpinLatch.set} from another thread, which
 * wakes it through {@code JecSleep.notifyWorkerLatchIsSet}. Pins the latch step pair of {@code docs/sleep.md},
 * "Latches", with the real lock hand-off: the owner holds its sleep lock from before {@code fallAsleep} until
 * it has set {@code isBlocked} and parks, the waker needs that lock to clear {@code isBlocked}, and it reads the owner's
 * {@code sleepIntent} (published before SLEEPING) to decide whether to take the lock at all.
 *
 * <p>The worker got sleepy (S1) before the race and nothing posts work, so once its latch is SLEEPING the owner
 * goes through S2 and S4 and blocks. Cannot hang: see {@link RaceIdleContext}; a lost wake-up shows up as the
 * owner ending its own block after the setter finished.
 *
 * <p>Result: r1 owner (0: did not block, it saw SET; 1: blocked and woken by the setter; 2: blocked and the
 * setter finished without waking it), r2 the setter saw SLEEPING and called the waker, r3 the arbiter found the
 * latch SET and no sleeper left in the counters.
 */
@JCStressTest
@Description("SpinLatch.set vs its owner blocking in JecSleep.noWorkFound: never a lost wake-up.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE, desc = "Set before SLEEPING: the owner does not block.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPING: the setter woke the blocked owner.")
@Outcome(id = "2, 0, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the owner blocked, the setter did not see SLEEPING and woke nobody.")
@Outcome(id = "2, 1, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the setter saw SLEEPING but its wake-up missed the blocked owner.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the counters left with a sleeper.")
@State
public class LatchSetVsJecSleep {
    private final LatchRace<JecSleep> race = new LatchRace<>(
            probe -> new JecSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(1),
                    RaceIdleContext.NO_UNCLAIMED_WORK), sleep -> sleep.isBlocked(0));

    public LatchSetVsJecSleep() {
        race.noWorkFound(); // S1 (roundsUntilSleepy = 0): the next call sleeps
    }

    @Actor
    public void owner() {
        race.noWorkFound(); // getSleepy, lock, fallAsleep, S2..S5
    }

    @Actor
    public void setter() {
        race.set();
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        race.record(r, sleep -> sleep.sleepingThreads() == 0);
    }
}
