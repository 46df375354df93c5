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
 * A batch moved from the injector to a worker's deque against a worker going to sleep ({@code docs/sleep.md}
 * section 3.9), on the real {@link Injector}, {@link WorkDeque} and {@link JecSleep}. Two jobs wait in the
 * injector. Worker A takes both with one claim ({@code Injector.pollBatch}), keeps the first, pushes the second
 * on its deque ({@code WorkDeque.pushAll}) and posts it ({@code JecSleep.newInternalJobs}: I1 is the deque's
 * volatile store of {@code bottom}, I3 its read of the counters). Worker B is sleepy (S1) and runs its sleep step
 * (S2..S5), whose final check (S4) looks at the injector and then at A's deque, as {@code Registry.hasQueuedJobs}
 * does.
 *
 * <p>S4 can look at the injector after A's claim and at the deque before A's push: the second job is then in A's
 * hands, and B blocks. Only A's post can then wake B; without it, the second job would wait behind the first,
 * which may block. The JEC is odd before the race (a previous post), so I3 writes nothing and sees B only once
 * B's S2 has counted it sleeping; S2 comes before S4, and A's store of {@code bottom} before I3, so either S4 sees
 * the job or I3 sees the sleeper.
 *
 * <p>Cannot hang: see {@link RaceIdleContext}. A lost wake-up shows up as {@code selfWoke}, not as a hang.
 *
 * <p>Result: r1 S4 ran, r2 S4 saw a job (in the injector or the deque), r3 B blocked (S5), r4 B woke itself after
 * A finished (lost wake-up), r5 the arbiter found the counters back at "one idle worker, no sleeper".
 */
@JCStressTest
@Description("Injector batch moved to a deque + post vs JecSleep.noWorkFound: a sleeper never misses the moved job.")
@Outcome(id = "false, false, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "A's post flipped the JEC after S1: S2 saw it and B searches again.")
@Outcome(id = "true, true, false, false, true", expect = Expect.ACCEPTABLE,
        desc = "S4 saw a job, in the injector before the claim or in the deque after the push: B stays up.")
@Outcome(id = "true, false, true, false, true", expect = Expect.ACCEPTABLE,
        desc = "S4 ran while the job was in A's hands: B blocked, and A's post woke it.")
@Outcome(id = "true, false, true, true, true", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: B blocked while the job was in A's hands, and A's post did not wake it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the counters left with a sleeper nobody wakes.")
@State
public class BatchMoveVsJecSleep {
    private final Injector injector = new Injector();
    private final WorkDeque deque = new WorkDeque();
    /** Worker 0 is B, the sleeper; worker 1 is A, which only posts. */
    private final JecSleep sleep = new JecSleep(RaceIdleContext.NO_ROUNDS, ThreadParker.forWorkers(2),
            RaceIdleContext.NO_UNCLAIMED_WORK);
    private final RaceIdleContext context = new RaceIdleContext(injector, deque, () -> sleep.isBlocked(0));
    private final SpinLatch latch = new SpinLatch(sleep, 0);
    private final IdleState idle;
    private final Runnable[] batch = new Runnable[2];

    public BatchMoveVsJecSleep() {
        injector.push(() -> { });
        injector.push(() -> { });
        sleep.newInternalJobs(1, true); // a previous post: the JEC is odd, nobody sleeps
        idle = sleep.startLooking(0);
    }

    @Actor
    public void mover() {
        int n = injector.pollBatch(batch, 2, 1, 2);
        if (n > 1) {
            boolean wasEmpty = deque.pushAll(batch, 1, n);
            sleep.newInternalJobs(n - 1, wasEmpty);
        }
        context.otherActorDone = true;
    }

    @Actor
    public void sleeper() {
        sleep.announceSleepy((JecSleep.JecIdleState) idle); // S1 alone, as InjectorVsJecSleep does (no yield)
        sleep.noWorkFound(idle, latch, context); // S2..S5
    }

    @Arbiter
    public void arbiter(ZZZZZ_Result r) {
        r.r1 = context.counted;
        r.r2 = context.sawInjectedJob || context.sawDequeJob;
        r.r3 = context.blocked();
        r.r4 = context.selfWoke;
        long c = sleep.word().load();
        r.r5 = JecCounters.sleepingThreads(c) == 0 && JecCounters.inactiveThreads(c) == 1;
    }
}
