package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * marl's spin phase in front of the JEC ({@link SpinForWork} over {@link JecSleep}, as {@code MARL_SPIN}):
 * an injected job against a worker that spins, then goes through the JEC's sleep step. The worker runs the
 * worker loop from its first failed search: search the injector, {@code noWorkFound}, again, until it finds the
 * job. Its first {@code noWorkFound} calls spin ({@code SPIN_NANOS}: 64 looks for visible work, then a yield, per
 * call); once the time is spent the JEC takes over (S1, one more search, S2, S4, S5). The poster pushes and runs
 * {@code newInjectedJobs} at any point of that.
 *
 * <p>Pins the claim of {@code docs/sleep-strategies.md} section 7 that the spin phase only delays the inner
 * strategy: a post during the spin is seen by a look, and a post after it is handled by the JEC exactly as
 * without the spin (the spin must hand the JEC its events).
 *
 * <p>Cannot hang: see {@link InjectorVsJecSleep} ({@link RaceIdleContext}); the loop ends because the job is in
 * the injector once the poster has finished.
 *
 * <p>Result: r1 what found the job (0 a look of the spin phase, 1 a search, in the spin phase or the JEC's rounds,
 * without a look seeing it, 2 the JEC's S4, 3 the worker blocked and the poster woke it, 4 the worker blocked and
 * the poster finished without waking it), r2 workers counted as sleeping at the end.
 */
@JCStressTest
@Description("Spin-for-work over the JEC: injector push + newInjectedJobs vs spin, then sleep: never lost.")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "Posted during the spin: a look saw it.")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "A search found it before any look did.")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "Posted after the spin: the JEC's S4 saw it.")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "Posted after the worker blocked: the poster woke it.")
@Outcome(id = "4, .*", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: blocked after the spin without seeing the job, and the poster woke nobody.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a sleeper left counted.")
@State
public class InjectorVsSpinForWork {
    /** Short, so that the race also reaches the JEC's sleep step often; correctness never depends on it. */
    private static final long SPIN_NANOS = 2_000L;

    private final InjectorRace<SpinForWork> race = new InjectorRace<>(probe -> new JecSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(1), probe),
            (jec, probe) -> new SpinForWork(jec, RaceIdleContext.NO_ROUNDS, 1, SPIN_NANOS, probe));

    public InjectorVsSpinForWork() {
        race.startLooking();
    }

    @Actor
    public void poster() {
        race.post();
    }

    @Actor
    public void worker() {
        race.searchUntilFound();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        int step = race.jecSleepStep();
        r.r1 = step >= 0 ? step : race.probe.sawWork ? 0 : 1;
        r.r2 = race.sleep.sleepingThreads();
    }
}
