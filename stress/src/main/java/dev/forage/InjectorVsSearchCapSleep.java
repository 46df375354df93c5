package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link SearchCapSleep} (the searching cap on top of the JEC): an injected job against the last searcher going
 * to sleep. Before the race the only worker was the one searcher; its failed search made it stop searching
 * (the searching count drops to 0: nobody searches any more) and get sleepy (S1). In the race it searches once
 * more and runs its final {@code noWorkFound} (the JEC's S2 CAS, S4 injector check, S5 block), while the poster
 * pushes into the injector and runs {@code newInjectedJobs}.
 *
 * <p>Pins the claim of {@code docs/sleep-strategies.md} section 5 that the cap is an optimization only: with
 * nobody searching, the job still reaches a worker, through the last search, the JEC's S2 or S4, or the
 * poster's wake-up of the sleeper. Also checks the cap's count afterwards: a worker woken from sleep (or sent
 * back by S2 or S4) becomes a searcher again, one that found the job leaves the idle state not searching.
 *
 * <p>Cannot hang: see {@link InjectorVsJecSleep} ({@link RaceIdleContext}).
 *
 * <p>Result: r1 where the job was seen (0 the last search, 1 S2 saw the JEC move, 2 S4 saw the job, 3 blocked
 * and woken by the poster, 4 blocked and the poster finished without waking it), r2 workers counted as sleeping
 * at the end, r3 workers counted as searching at the end.
 */
@JCStressTest
@Description("Searching cap: injector push + newInjectedJobs vs the last searcher going to sleep: never lost.")
@Outcome(id = "0, 0, 0", expect = Expect.ACCEPTABLE, desc = "The last search found the job.")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE,
        desc = "The post flipped the JEC after S1: S2 saw it; the worker searches again, as a searcher.")
@Outcome(id = "2, 0, 1", expect = Expect.ACCEPTABLE, desc = "Counted, then S4 saw the job; searches again.")
@Outcome(id = "3, 0, 1", expect = Expect.ACCEPTABLE, desc = "Blocked before the post: the poster woke it.")
@Outcome(id = "4, .*", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: blocked without seeing the job, and the poster finished without waking it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a sleeper left counted or a wrong searching count.")
@State
public class InjectorVsSearchCapSleep {
    // Built around a JEC of its own, so that the race reads that JEC's blocked flag (it parks outside its lock).
    private final InjectorRace<SearchCapSleep> race = new InjectorRace<>(
            probe -> new JecSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(1), probe),
            (jec, probe) -> new SearchCapSleep(jec, RaceIdleContext.NO_ROUNDS, 1, 1));

    public InjectorVsSearchCapSleep() {
        race.startLooking(); // the one searcher
        race.noWorkFound(); // stops searching (the last one) and gets sleepy (S1)
    }

    @Actor
    public void poster() {
        race.post();
    }

    @Actor
    public void sleeper() {
        race.searchThenSleep(); // the last search, then S2..S5
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = race.searchSawJob ? 0 : !race.context.counted ? 1 : race.jecSleepStep();
        r.r2 = race.sleep.sleepingThreads();
        r.r3 = race.sleep.searchingThreads();
    }
}
