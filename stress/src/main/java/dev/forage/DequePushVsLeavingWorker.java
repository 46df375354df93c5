package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * The hand-off rule's Dekker pair for internal jobs ({@code docs/sleep.md} section 3.6), on the real
 * {@link WorkDeque} and {@link JecCounters}: a worker pushes a job on its own deque and reads the counters (I1, I3
 * of {@code JecSleep.newInternalJobs}); an idle worker leaves the idle state with other work (E1, the decrement
 * of inactive) and looks for queued jobs (E2, {@code PoolProbe.hasUnclaimedWork}).
 *
 * <pre>
 *   pusher                                    leaving worker
 *   I1 push:  deque.push(job) (volatile bottom) E1 counters.subInactiveThread()
 *   I3 read:  counters (idle = 1: wake nobody)  E2 !deque.isEmpty()
 * </pre>
 * One other worker is asleep throughout. If the pusher saw the leaving worker idle it wakes nobody and counts on
 * it; then the leaving worker must see the job and wake the sleeper. Both missing strands the job while its
 * pusher is blocked in user code (found by {@code BarrierStressTest} in CI). The break that this pins is a
 * release-only ({@code lazySet}) store of {@code bottom}, which may be reordered after the counters read.
 */
@JCStressTest
@Description("Deque push + counters read vs leaving idle worker's decrement + deque check: never both miss.")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE, desc = "Both see each other: a sleeper is woken (perhaps twice over).")
@Outcome(id = "true, false", expect = Expect.ACCEPTABLE, desc = "The worker left first: the pusher sees no idle worker and wakes the sleeper.")
@Outcome(id = "false, true", expect = Expect.ACCEPTABLE, desc = "The pusher counted on the idle worker; it sees the job and hands it to the sleeper.")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "Stranded: the pusher counted on the idle worker, which left without seeing the job.")
@State
public class DequePushVsLeavingWorker {
    private static final Runnable JOB = () -> { };

    private final WorkDeque deque = new WorkDeque();
    private final JecCounters counters = new JecCounters();

    public DequePushVsLeavingWorker() {
        counters.addInactiveThread(); // the sleeper
        if (!counters.tryAddSleepingThread(counters.load())) {
            throw new IllegalStateException("set-up CAS failed with no other thread running");
        }
        counters.addInactiveThread(); // the idle worker that will leave
        counters.incrementJecIfSleepy(); // a previous post left the JEC odd: I3 below only reads
    }

    /** r1: the pusher's newJobs would wake the sleeper (sleepers > 0 and no idle worker to count on). */
    @Actor
    public void pusher(ZZ_Result r) {
        deque.push(JOB); // I1 (+ I2: the volatile write of bottom)
        long c = counters.incrementJecIfSleepy(); // I3
        r.r1 = JecCounters.sleepingThreads(c) > 0 && JecCounters.awakeButIdleThreads(c) < 1;
    }

    /** r2: the leaving worker's hand-off rule would wake the sleeper (it sees the job queued). */
    @Actor
    public void leavingWorker(ZZ_Result r) {
        int sleepers = counters.subInactiveThread(); // E1
        r.r2 = sleepers > 0 && !deque.isEmpty(); // E2
    }
}
