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
 * Rayon's pre-RFC-5 sleep module ({@link SleepyWorkerSleep}) and a latch: {@code SpinLatch.set} from another thread against its owner
 * falling asleep on it. A setter that finds the latch SLEEPING calls {@code notifyWorkerLatchIsSet}, which
 * tickles: the swap of the word and, if the asleep bit was set, the wake-up of every sleeper under the one lock.
 * The owner is the sleepy worker (before the race) and runs its last {@code noWorkFound}: latch to SLEEPY, the
 * lock, latch to SLEEPING, the word's CAS, the block. Then, as the worker loop does when its latch is set, it
 * leaves the idle state ({@code workFound}).
 *
 * <p>Pins two things: the latch hand-off of {@code docs/sleep-strategies.md} section 2 with the pre-RFC-5 module's lock (the
 * owner is never left blocked on a set latch), and that the owner never keeps the sleepy slot after its latch
 * was set: the pre-RFC-5 module allows one sleepy worker at a time, so a slot left taken stops every worker from ever
 * getting sleepy again, and the idle pool spins instead of sleeping until some unrelated job tickles.
 *
 * <p>Cannot hang: see {@link InjectorVsSleepyWorkerSleep}.
 *
 * <p>Result: r1 owner (0: did not block; 1: blocked and woken by the setter's tickle; 2: blocked, and the setter
 * finished without waking it), r2 the setter saw SLEEPING and called the waker, r3 the arbiter found the latch
 * SET, the word AWAKE (nobody sleepy, nobody asleep) and nobody counted asleep.
 */
@JCStressTest
@Description("Rayon pre-RFC-5 sleep: SpinLatch.set vs its owner falling asleep; no lost wake-up, no sleepy slot left taken.")
@Outcome(id = "0, 0, true", expect = Expect.ACCEPTABLE,
        desc = "Set before SLEEPING: the owner does not sleep and releases the sleepy slot on leaving.")
@Outcome(id = "0, 1, true", expect = Expect.ACCEPTABLE,
        desc = "Set while SLEEPING, before the sleep CAS: the tickle cleared the sleepy slot, so the CAS failed.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Set while asleep: the tickle woke the owner.")
@Outcome(id = "0, 0, false", expect = Expect.FORBIDDEN,
        desc = "The owner saw its latch SET and left, but kept the sleepy slot: nobody can get sleepy any more.")
@Outcome(id = "2, 0, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the owner fell asleep, the setter did not see SLEEPING and woke nobody.")
@Outcome(id = "2, 1, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the setter saw SLEEPING, but its tickle missed the sleeping owner.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class LatchSetVsSleepyWorkerSleep {
    private final LatchRace<SleepyWorkerSleep> race =
            new LatchRace<>(probe -> new SleepyWorkerSleep(RaceIdleContext.PRE_RFC5_ASLEEP_AT_1, ThreadParker.forWorkers(1)), null); // sleepy at round 0, asleep at 1

    public LatchSetVsSleepyWorkerSleep() {
        race.noWorkFound(); // get_sleepy; the next noWorkFound sleeps
    }

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
        race.record(r, sleep -> sleep.word() == SleepyWorkerWord.AWAKE && sleep.sleepingThreads() == 0);
    }
}
