package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * The same race as {@link InjectorVsSleeper}, end to end through the real {@link JecSleep}: the poster runs
 * {@code Injector.push} then {@code JecSleep.newInjectedJobs} (I1..I3 and the wake-up), the sleeper gets sleepy
 * (S1) and then runs the worker's final {@code noWorkFound} (S2..S5: whole-word CAS, final injector check, block
 * parked on its real flag). Pins I1..I3 against S1..S5 of {@code docs/sleep.md}, including the waker's side (the
 * poster decrements the count and clears the flag under the sleeper's lock, then unparks it).
 *
 * <p>Before the race the JEC is odd (a previous post), so a poster that reads the counters before the
 * sleeper's S1 writes nothing and sees no sleeper: only S4 can then save the job. The worker's extra search
 * between S1 and S2 is left out on purpose, so S4 alone must find the job, which makes the test stricter than the
 * real worker loop. A pool with one worker, so every wake-up targets the sleeper.
 *
 * <p>S1 is done here with the same one-line update as {@code JecSleep.announceSleepy}, not through a first
 * {@code noWorkFound} call, because that call then yields the CPU: the microseconds of the yield let the poster's
 * store drain to memory long before S4, so a poster whose push lacked its StoreLoad fence went unnoticed. Without
 * the yield the test catches that broken push (see stress/README.md). S2..S5 are JecSleep's own code.
 *
 * <p>Cannot hang: see {@link RaceIdleContext}. A lost wake-up shows up as {@code selfWoke}, not as a hang.
 *
 * <p>Result: r1 counted (reached S4), r2 S4 saw the job, r3 blocked (S5), r4 self-woke after the poster finished
 * (lost wake-up), r5 the arbiter found the counters back at "one idle worker, no sleeper".
 */
@JCStressTest
@Description("Injector push + newInjectedJobs vs JecSleep.noWorkFound: a worker never sleeps through an injected job.")
@Outcome(id = "false, false, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "The poster flipped the JEC after S1: S2 saw it and the worker searches again.")
@Outcome(id = "true, true, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "Counted, then S4 saw the job: the worker undid its count and stays up.")
@Outcome(id = "true, false, true, false, true", expect = Expect.ACCEPTABLE,
        desc = "Counted before the post: it blocked and the poster woke it.")
@Outcome(id = "true, false, true, true, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: blocked without seeing the job, and the poster finished without waking it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the counters left with a sleeper nobody wakes.")
@State
public class InjectorVsJecSleep {
    private final InjectorRace<JecSleep> race =
            new InjectorRace<>(probe -> new JecSleep(RaceIdleContext.NO_ROUNDS,
                    ThreadParker.forWorkers(1), RaceIdleContext.NO_UNCLAIMED_WORK), (jec, probe) -> jec);

    public InjectorVsJecSleep() {
        race.sleep.newInternalJobs(1, true); // a previous post: the JEC is odd, nobody sleeps
        race.startLooking();
    }

    @Actor
    public void poster() {
        race.post(); // I1; I2, I3, and the wake-up if I3 saw a sleeper
    }

    @Actor
    public void sleeper() {
        // S1 alone, JecSleep's own step, without the rest of the noWorkFound around it.
        race.sleep.announceSleepy((JecSleep.JecIdleState) race.idle); // the next noWorkFound goes to sleep
        race.noWorkFound(); // S2..S5
    }

    @Arbiter
    public void arbiter(ZZZZZ_Result r) {
        RaceIdleContext context = race.context;
        r.r1 = context.counted;
        r.r2 = context.sawInjectedJob;
        r.r3 = context.blocked();
        r.r4 = context.selfWoke;
        long c = race.sleep.word().load();
        r.r5 = JecCounters.sleepingThreads(c) == 0 && JecCounters.inactiveThreads(c) == 1;
    }
}
