package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * EMPER ({@link EmperSleep}): {@code NotifyAnywhere} for an injected job against a worker that counts itself
 * as a sleeper and blocks. The poster pushes into the injector (P) and runs {@code newInjectedJobs}: the CAS loop
 * on the sleepers count (N), which claims a counted sleeper or, finding none, leaves a pending notification (the
 * count goes negative), then the hint write under the pipe's lock. The worker runs its sleep step: latch to
 * SLEEPY, the pipe's lock, latch to SLEEPING, {@code countSleeper} (C), and then either consumes a pending
 * notification, or posts its read, looks once for visible work (V), and blocks until a hint. Afterwards it takes
 * its hint as its next search would ({@code takeWakeHint}).
 *
 * <p>Pins P4 of {@code docs/sleep-strategies.md} section 6 for one worker: N before C leaves a pending
 * notification that C consumes; C before N means N finds the worker counted and writes it a hint, which the pipe
 * delivers once the worker waits (it holds the pipe's lock from C until then); and V after P sees the job. It
 * also checks P1 and P2 at the end: the count is 0, or -1 when the worker withdrew its read after seeing the job
 * itself and the poster's notification is left pending for the next worker about to sleep; no hint was buffered.
 *
 * <p>Cannot hang: {@link SharedLockSleepState#await} asks {@link RaceIdleContext#parkNanos} before each wait; once the poster
 * has finished it gets 0 and the worker ends its own block (then withdraws its read), recorded as
 * {@code selfWoke}. The one unbounded wait is {@code HintPipe.cancelRead}'s, for a hint a notifier has claimed
 * and not yet written; a correct poster always writes it (a broken one that claims without writing would hang
 * there, see stress/README.md).
 *
 * <p>Result: r1 blocked (0 no, 1 blocked and woken, 2 blocked and the poster finished without waking it), r2 the
 * last look (0 did not run, 1 saw nothing, 2 saw the job), r3 the hint the worker's next search gets (-2 the
 * injector, -1 none), r4 the sleepers count at the end, r5 hints buffered with no read posted.
 */
@JCStressTest
@Description("EMPER: injector push + NotifyAnywhere vs a worker counting itself and blocking: never lost.")
@Outcome(id = "0, 0, -2, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "N before C: the worker consumed the pending notification and searches the injector first.")
@Outcome(id = "0, 2, -1, -1, 0", expect = Expect.ACCEPTABLE,
        desc = "C, V saw the job, withdrew; N came after and left its notification pending for the next sleeper.")
@Outcome(id = "0, 2, -2, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "C, N claimed the worker, V saw the job: the withdrawal waited for the hint already on its way.")
@Outcome(id = "1, 1, -2, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "C, V before P, blocked: N claimed it and the hint woke it.")
@Outcome(id = "2, 1, -1, 0, 0", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: blocked without seeing the job, and the poster woke nobody.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a count off by one or a buffered hint.")
@State
public class InjectorVsEmperSleep {
    private final InjectorRace<EmperSleep> race =
            new InjectorRace<>(probe -> new EmperSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(1), probe)); // the first noWorkFound sleeps

    public InjectorVsEmperSleep() {
        race.startLooking();
    }

    @Actor
    public void poster() {
        race.post(); // P; N and the hint
    }

    @Actor
    public void sleeper() {
        race.sleepThenTakeHint(); // C, V, the block; then what the next search looks at first
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = race.blockOutcome();
        r.r2 = !race.probe.looked ? 0 : race.probe.sawWork ? 2 : 1;
        r.r3 = race.hint;
        r.r4 = race.sleep.sleepersCount();
        r.r5 = race.sleep.bufferedHints();
    }
}
