package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * Rayon's pre-RFC-5 sleep module ({@link SleepyWorkerSleep}): a tickle against the sleepy worker's last search, its sleep CAS and its
 * block. The poster pushes a job into the injector (E) and tickles ({@code newInjectedJobs}: the load L, then
 * the swap and, if the asleep bit was set, the wake-up of every sleeper under the one lock). The worker is
 * already the sleepy one (G, done before the race); it searches once more, as the worker loop does between
 * getting sleepy and sleeping, and then runs {@code noWorkFound}: latch to SLEEPY, the lock, latch to SLEEPING,
 * the word's CAS from "I am sleepy" to the asleep bit (F), and the block on its condition.
 *
 * <p>Pins the "G before L" half of the pre-RFC-5 module's argument ({@code docs/sleep-strategies.md}, section 3): the
 * search sees E; or the tickle's swap comes before F, so F fails and the worker does not sleep; or F comes
 * before the swap, which then sees the asleep bit and wakes the sleeper under the lock it holds until it
 * waits. One worker, so the tickle has exactly one sleeper to wake.
 *
 * <p>Cannot hang: {@link SharedLockSleepState#await} asks {@link RaceIdleContext#parkNanos} before each wait, only while
 * its {@code blocked} flag (cleared by a waker under the lock) is set; once the poster has finished it gets 0
 * and the worker ends its own block, recorded as {@code selfWoke}.
 *
 * <p>Result: r1 the last search saw the job, r2 the worker blocked, r3 it ended its block itself after the
 * poster finished (lost wake-up), r4 the arbiter found the word back at AWAKE and nobody counted asleep.
 */
@JCStressTest
@Description("Rayon pre-RFC-5 sleep: injector push + tickle vs the sleepy worker's last search, sleep CAS and block.")
@Outcome(id = "true, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "The search after getting sleepy saw the job (and its workFound released the sleepy slot).")
@Outcome(id = "false, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "The tickle cleared the sleepy worker before its sleep CAS: the CAS failed, it searches again.")
@Outcome(id = "false, true, false, true", expect = Expect.ACCEPTABLE,
        desc = "Asleep before the tickle: the tickle saw the asleep bit and woke it.")
@Outcome(id = "false, true, true, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: asleep without seeing the job, and the tickle woke nobody.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the word left with a sleepy or asleep worker.")
@State
public class InjectorVsSleepyWorkerSleep {
    private final InjectorRace<SleepyWorkerSleep> race =
            new InjectorRace<>(probe -> new SleepyWorkerSleep(RaceIdleContext.PRE_RFC5_ASLEEP_AT_1, ThreadParker.forWorkers(1))); // sleepy at round 0, asleep at 1

    public InjectorVsSleepyWorkerSleep() {
        race.startLooking();
        race.noWorkFound(); // G: get_sleepy; the next noWorkFound sleeps
    }

    @Actor
    public void poster() {
        race.post(); // E; L, the swap, the wake-up
    }

    @Actor
    public void sleeper() {
        race.searchThenSleep(); // the last search, then F and the block
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
        r.r1 = race.searchSawJob;
        r.r2 = race.context.blocked();
        r.r3 = race.context.selfWoke;
        r.r4 = race.sleep.word() == SleepyWorkerWord.AWAKE && race.sleep.sleepingThreads() == 0;
    }
}
