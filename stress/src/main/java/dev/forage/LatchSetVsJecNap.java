package dev.forage;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * The nap's latch race ({@code docs/sleep.md} section 3.7): a worker that naps in {@code JecSleep.noWorkFound}
 * (it saw a neighbour's posts, so its sleep attempt is a bounded park as an idle worker) against
 * {@code SpinLatch.set} from another thread. The napper publishes {@code napper} and then CASes its latch to
 * SLEEPING; the setter swaps in SET and, if it saw SLEEPING, {@code notifyWorkerLatchIsSet} finds the worker not
 * blocked and unparks {@code napper}. Either the napper's CAS fails or the setter sees SLEEPING and then the thread.
 *
 * <p>The nap is one second ({@link StretchingParker}), about a million times longer than the race, and the outcome is judged on the park
 * itself ({@code JecSleep.lastNapParkNanos}, timed around the parker's park only): a park that ran its
 * whole length is a lost wake-up, because a park only happens after {@code fallAsleep} succeeded, which means
 * the setter's swap came later, saw SLEEPING, and unparked the thread, so the park returns within
 * microseconds (or at once, on the permit). A broken run is slow (one second per lost wake-up) but ends.
 *
 * <p>The actor threads are reused from one sample to the next, so an unpark that reached the owner's thread after
 * its nap had ended stays as a permit and ends a later nap at once: "parked, the setter did not see SLEEPING"
 * is that case, and it is allowed (docs/sleep.md section 3.7: a spare permit at most shortens a park).
 *
 * <p>Result: r1 the owner parked (1) or its latch was SET before it could fall asleep (0), r2 the setter saw
 * SLEEPING and called the waker, r3 no park ran its whole length, the latch is SET, no sleeper is counted and
 * the owner is still counted idle.
 */
@JCStressTest
@Description("SpinLatch.set vs its owner napping in JecSleep.noWorkFound: the set always ends the nap.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE, desc = "Set before SLEEPING: the owner does not park.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPING: the setter ended the nap.")
@Outcome(id = "1, 1, false", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the setter saw SLEEPING but the owner's park ran its whole length.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The park returned before the set (a spare permit from an earlier unpark of this thread, which "
                + "the park contract allows), so the owner was awake again when the setter looked.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a sleeper counted or the owner not idle.")
@State
public class LatchSetVsJecNap {
    private static final long NAP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LatchRace<JecSleep> race = new LatchRace<>(
            probe -> new JecSleep(RaceIdleContext.NO_ROUNDS, new Parker[] {new StretchingParker(NAP_NANOS)},
                    RaceIdleContext.NO_UNCLAIMED_WORK), sleep -> sleep.isBlocked(0));

    public LatchSetVsJecNap() {
        ((JecSleep.JecIdleState) race.idle).sawPosts = true; // a neighbour pops its own posts: the next attempt is a nap
        race.noWorkFound(); // S1 (roundsUntilSleepy = 0): the next call naps
    }

    @Actor
    public void owner() {
        race.noWorkFound(); // getSleepy, napper, fallAsleep, park, wakeUp
    }

    @Actor
    public void setter() {
        race.set();
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        JecSleep sleep = race.sleep;
        WorkerStatistics counters = race.context.statistics();
        long parked = sleep.lastNapParkNanos(0);
        r.r1 = parked >= 0 ? 1 : 0;
        r.r2 = race.waker.called ? 1 : 0;
        r.r3 = parked < NAP_NANOS && race.latch.probe() && sleep.sleepingThreads() == 0 && sleep.idleThreads() == 1
                && counters.get(PoolCounter.NAPS) == 1 && counters.get(PoolCounter.SLEEPS) == 0;
    }
}
