package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * The Dekker pair of the proof sketch of Rayon's sleep module (the jobs event counter), on the real {@link Injector} and {@link JecCounters}; pins the step
 * pair I1..I3 (poster) against S2..S4 (sleeper) of {@code docs/sleep.md} (labels as in {@link JecSleep}).
 *
 * <pre>
 *   poster                                   sleeper
 *   I1 PushJob:      injector.push(job)      S2 IncSleepers: counters.tryAddSleepingThread(load())
 *   I2 PushFence                             S3 SleepFence
 *   I3 ReadSleepers: counters read           S4 ReadJob:     injector.isEmpty()
 * </pre>
 * Either fence comes first in the total order, so at least one side sees the other's write: the poster sees
 * the sleeper (and would wake it), or the sleeper sees the job (and stays awake). Both missing is the lost
 * wake-up: a job in the injector and a worker asleep that nobody will wake.
 *
 * <p>The JEC is made odd before the race ("a previous post already flagged new work"), so the poster's I3 is
 * a pure read that writes nothing ({@code incrementJecIfSleepy} finds the JEC odd) and the sleeper's CAS cannot
 * fail: the JEC gives no protection here, exactly the case (as after a rollover) that the fence pair exists
 * for. In Java the fences are the volatile accesses themselves: the push's CAS and the counters' load, the
 * sleeper's CAS and the injector's volatile reads of its head and tail indices.
 */
@JCStressTest
@Description("Injector push + counters read vs sleeper CAS + injector check: never both miss (the fences of Rayon's sleep module).")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE, desc = "Both saw each other: the poster wakes, the sleeper stays up.")
@Outcome(id = "true, false", expect = Expect.ACCEPTABLE, desc = "SharedLockSleepState came first: it sleeps, the poster wakes it.")
@Outcome(id = "false, true", expect = Expect.ACCEPTABLE, desc = "Poster came first: the sleeper sees the job and stays up.")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "Lost wake-up: poster saw no sleeper, sleeper saw no job.")
@State
public class InjectorVsSleeper {
    private static final Runnable JOB = () -> { };

    private final Injector injector = new Injector();
    private final JecCounters counters = new JecCounters();

    public InjectorVsSleeper() {
        counters.addInactiveThread(); // the sleeper is idle
        counters.incrementJecIfSleepy(); // a previous post left the JEC odd: I3 below only reads
    }

    /** r1: the poster's I3 saw a sleeper (so newInjectedJobs would try to wake one). */
    @Actor
    public void poster(ZZ_Result r) {
        injector.push(JOB); // I1 (+ I2: the push publishes with a volatile CAS)
        long c = counters.incrementJecIfSleepy(); // I3: the read inside newInjectedJobs
        r.r1 = JecCounters.sleepingThreads(c) > 0;
    }

    /** r2: the sleeper's S4 saw the job (so it would not block). */
    @Actor
    public void sleeper(ZZ_Result r) {
        long c = counters.load();
        if (!counters.tryAddSleepingThread(c)) { // S2 (+ S3: the CAS is a volatile read-modify-write)
            // Nobody else writes the word once the JEC is odd: a failure here is a bug of its own.
            throw new IllegalStateException("sleeper CAS failed although nothing else writes the counters");
        }
        r.r2 = !injector.isEmpty(); // S4
    }
}
