package dev.forage;

import java.util.function.BooleanSupplier;

/**
 * The {@link IdleContext} of a worker that sleeps inside a jcstress actor. It makes a real {@link JecSleep}
 * block on its real condition, yet can never hang the run, whether or not the protocol is right:
 *
 * <ul>
 *   <li>While the other actor (the one that should wake the sleeper) is still running, {@link #parkNanos}
 *       returns a short slice, so the sleeper waits on its condition and a signal ends the wait at once.</li>
 *   <li>Once the other actor has finished ({@link #otherActorDone}), {@link #parkNanos} returns 0: "a timer is
 *       due", so JecSleep's S5 loop breaks and the sleeper undoes its own sleeping count.</li>
 * </ul>
 * When {@code parkNanos} sees the other actor done, it decides whether the sleeper was left blocked: the other
 * actor's wake-up, if any, came before its last write, so a sleeper whose blocked flag is still set then was not
 * woken: a lost wake-up, recorded in {@link #selfWoke}. The flag comes from {@code stillBlocked}: JecSleep parks
 * outside its lock and reads its volatile {@code isBlocked} before each park, so the context asks for that flag
 * itself. Strategies that wait on a condition call {@code parkNanos} with their lock held and only while their
 * flag is set, so for them being asked at all means "still blocked". No clock decides anything: the slice only
 * bounds how often the sleeper re-reads {@code otherActorDone}.
 */
final class RaceIdleContext implements IdleContext {
    /** How long one wait lasts before the sleeper re-reads {@link #otherActorDone}. */
    private static final long SLICE_NANOS = 100_000L;

    private final Injector injector;
    /** Another worker's deque that the final check also looks at, or null (jobs only in the injector). */
    private final WorkDeque deque;
    private final BooleanSupplier stillBlocked;
    private final WorkerStatistics stats = new WorkerStatistics();

    /** Written by the other actor as its last action. */
    volatile boolean otherActorDone;
    /** S4 ran, so the sleeper counted itself (JecSleep calls hasQueuedJobs only after the S2 CAS). */
    boolean counted;
    /** What S4 saw: a job in the injector, or (only when the injector looked empty) one in the deque. */
    boolean sawInjectedJob;
    boolean sawDequeJob;
    /** The sleeper ended its block itself, after the other actor had finished without waking it. */
    boolean selfWoke;

    /** For strategies that call {@link #parkNanos} under their sleep lock, only while blocked. */
    RaceIdleContext(Injector injector) {
        this(injector, () -> true);
    }

    /** {@code stillBlocked}: the sleeper's own blocked flag (a volatile read), e.g. {@code JecSleep.isBlocked}. */
    RaceIdleContext(Injector injector, BooleanSupplier stillBlocked) {
        this(injector, null, stillBlocked);
    }

    /**
     * For a race whose jobs may also sit in another worker's deque: the final check looks at the injector, then
     * at {@code deque}, in the order of {@code Registry.hasQueuedJobs}.
     */
    RaceIdleContext(Injector injector, WorkDeque deque, BooleanSupplier stillBlocked) {
        this.injector = injector;
        this.deque = deque;
        this.stillBlocked = stillBlocked;
    }

    @Override
    public boolean hasQueuedJobs() {
        counted = true;
        sawInjectedJob = !injector.isEmpty();
        sawDequeJob = !sawInjectedJob && deque != null && !deque.isEmpty();
        return sawInjectedJob || sawDequeJob;
    }

    @Override
    public long parkNanos() {
        if (otherActorDone) {
            selfWoke = stillBlocked.getAsBoolean();
            return 0L;
        }
        return SLICE_NANOS;
    }

    @Override
    public void wakeupWithoutWork() {
        stats.wakeupWithoutWork();
    }

    @Override
    public WorkerStatistics statistics() {
        return stats;
    }

    /** S5 was reached: the sleeper blocked on its condition. */
    boolean blocked() {
        return stats.get(PoolCounter.SLEEPS) > 0;
    }

    /**
     * The pool's default tuning with no idle rounds (a worker gets sleepy at its first failed search, so its next
     * {@code noWorkFound} is the sleep step) and no ramp-up: the tuning of every one-worker race.
     */
    static final Tuning NO_ROUNDS =
            Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0).with(Tunable.WAKE_ON_WORK_FOUND, 0);

    /** Rayon's pre-RFC-5 module made quick: sleepy at round 0, asleep at round 1. */
    static final Tuning PRE_RFC5_ASLEEP_AT_1 = Tuning.DEFAULTS.with(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY, 0)
            .with(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP, 1).checked();

    /**
     * The pool probe of these one-worker races. The hand-off rule of {@code JecSleep.workFound} only matters when
     * another worker sleeps, which never happens with one worker, so the probe answers "nothing visible".
     */
    static final PoolProbe NO_UNCLAIMED_WORK = new PoolProbe() {
        @Override
        public int callingWorkerIndex() {
            return 0;
        }

        @Override
        public boolean hasVisibleWork() {
            return false;
        }

        @Override
        public boolean hasUnclaimedWork() {
            return false;
        }
    };
}
