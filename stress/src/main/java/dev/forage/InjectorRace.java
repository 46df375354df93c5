package dev.forage;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The pool-side fake of the injector races ({@code InjectorVs*Sleep}, {@link InjectorVsSpinForWork}): a one-worker
 * pool whose only work is one job in a real {@link Injector}, the strategy under test, the worker's
 * {@link SpinLatch} and {@link IdleState}, a {@link RaceProbe} and a {@link RaceIdleContext}. It holds the actor
 * bodies the tests share (the poster; the sleeper in its three shapes) and the arbiter's common encodings, so that
 * each test only says which {@link Sleep} it builds, what happens before the race, and its outcome lines.
 *
 * <p>jcstress runs the two actors once each per sample on a fresh instance, then the arbiter, which reads plain
 * fields: the actors' writes happen before it.
 *
 * @param <S> the strategy under test
 */
final class InjectorRace<S extends Sleep> {
    /** The one job the poster injects. */
    static final Runnable JOB = () -> { };

    final Injector injector = new Injector();
    /** The one-worker pool's probe: looks see the injector's job (EMPER's last look, the spin phase). */
    final RaceProbe probe = new RaceProbe(injector);
    final S sleep;
    final SpinLatch latch;
    final RaceIdleContext context;
    /** The worker's idle state; {@link #startLooking} sets it, before the race. */
    IdleState idle;
    /** The worker loop's own search (between getting sleepy and the sleep step) found the job. */
    boolean searchSawJob;
    /** The hint the worker's next search would look at first ({@link #sleepThenTakeHint}). */
    int hint;

    /**
     * For strategies that block under their sleep lock, asking {@link RaceIdleContext#parkNanos} only while
     * blocked ({@link SleepyWorkerSleep}, {@link EmperSleep}).
     */
    InjectorRace(Function<RaceProbe, S> build) {
        this.sleep = build.apply(probe);
        this.latch = new SpinLatch(sleep, 0);
        this.context = new RaceIdleContext(injector);
    }

    /**
     * For strategies that block in a {@link JecSleep}'s S5, which parks outside its lock: the context reads that
     * JEC's own blocked flag. {@code wrap} builds the strategy under test around it (the identity for the JEC).
     */
    InjectorRace(Function<RaceProbe, JecSleep> jec, BiFunction<JecSleep, RaceProbe, S> wrap) {
        JecSleep inner = jec.apply(probe);
        this.sleep = wrap.apply(inner, probe);
        this.latch = new SpinLatch(sleep, 0);
        this.context = new RaceIdleContext(injector, () -> inner.isBlocked(0));
    }

    /** Before the race: the worker starts looking for work (a failed search). */
    void startLooking() {
        idle = sleep.startLooking(0);
    }

    /** One failed search's step: {@code noWorkFound} (before the race, it makes the worker sleepy). */
    void noWorkFound() {
        sleep.noWorkFound(idle, latch, context);
    }

    // ---- actor bodies ----

    /** The poster: push into the injector, announce it, and say so to the sleeper's context as its last action. */
    void post() {
        injector.push(JOB);
        sleep.newInjectedJobs(1, true);
        context.otherActorDone = true;
    }

    /** The sleepy worker's last search (as the worker loop does between getting sleepy and sleeping), then sleep. */
    void searchThenSleep() {
        if (!injector.isEmpty()) {
            searchSawJob = true;
            sleep.workFound(idle);
            return;
        }
        noWorkFound();
    }

    /** The sleep step straight away, then take the hint as the next search would. */
    void sleepThenTakeHint() {
        noWorkFound();
        hint = idle.firstPlaceToLook();
    }

    /** The worker loop from a first failed search: search, {@code noWorkFound}, until the job is found. */
    void searchUntilFound() {
        while (injector.isEmpty()) {
            noWorkFound();
        }
        sleep.workFound(idle);
    }

    // ---- the arbiter's encodings ----

    /** 0 did not block, 1 blocked and woken, 2 blocked and the poster finished without waking it (lost). */
    int blockOutcome() {
        return !context.blocked() ? 0 : context.selfWoke ? 2 : 1;
    }

    /**
     * How a JEC sleep step ended: 2 S4 saw the job, 3 blocked and woken by the poster, 4 blocked and the poster
     * finished without waking it (lost); -1 it ended before S4 (or never ran).
     */
    int jecSleepStep() {
        if (context.blocked()) {
            return context.selfWoke ? 4 : 3;
        }
        return context.counted && context.sawInjectedJob ? 2 : -1;
    }
}
