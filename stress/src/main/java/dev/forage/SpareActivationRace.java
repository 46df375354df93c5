package dev.forage;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * Compensation's activation race ({@code docs/sleep.md}, "Blocking sections and compensation"): a blocking
 * section that begins and ends at once (an activation, then a release, of the one extra slot) against the slot's
 * spare thread waiting for its next activation ({@link Compensation#awaitActivation}). The spare may see the slot
 * SPARE (and park), ACTIVE, or already LEAVING again; in every case it must go back to its loop: a spare that
 * keeps waiting for a slot that was handed to it is a stand-in lost, and a pool whose {@code close()} waits for
 * it until its keep-alive ends.
 *
 * <p>A lost activation cannot hang the run: the spare's keep-alive is {@value #KEEP_ALIVE_MILLIS} ms, after which
 * it gives the slot up (FREE). Giving up is correct only before the activation: the activator then finds the
 * slot FREE and starts a new thread ({@code starts == 1}).
 *
 * <p>Result: r1 the spare went back to its loop (1) or gave up (0), r2 threads the activator started, r3 the
 * slot's final state is consistent with the two (LEAVING after a spare that went back to its loop or a new
 * thread; the monitor's counts back at zero).
 */
@JCStressTest
@Description("Compensation: an activation and release of an extra slot vs its spare thread waiting: never lost.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE,
        desc = "The spare saw the activation (ACTIVE or already LEAVING) and went back to its loop.")
@Outcome(id = "0, 1, true", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The spare's keep-alive ended first (slot FREE); the activation started a new thread.")
@Outcome(id = "0, 0, .*", expect = Expect.FORBIDDEN,
        desc = "Lost activation: the slot was handed to the spare, which kept waiting until its keep-alive.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class SpareActivationRace {
    static final long KEEP_ALIVE_MILLIS = 50;

    /** A pool whose extra slot no thread of its own ever uses: it only lends the race a slot's worker. */
    private static final Registry POOL = ForagePool.builder().threads(1).maxBlockingThreads(1)
            .name("spare-activation-race").daemon(true).buildRegistry();

    static {
        POOL.start();
    }

    private int starts;
    private final Compensation compensation = new Compensation(POOL, slot -> {
        starts++; // under the monitor; no real thread: the race is between the activator and the waiting spare
        return true;
    }, 1, 1, TimeUnit.MILLISECONDS.toNanos(KEEP_ALIVE_MILLIS));
    private final Compensation.Slot slot = compensation.slot(0);
    private boolean wentBack;

    public SpareActivationRace() {
        synchronized (compensation) {
            slot.state = Compensation.SPARE; // as runExtra leaves it before awaitActivation
        }
    }

    @Actor
    public void spare() {
        synchronized (compensation) {
            slot.thread = Thread.currentThread(); // as start() does before the thread runs
        }
        wentBack = compensation.awaitActivation(slot);
    }

    @Actor
    public void section() {
        compensation.blockedOne();
        compensation.unblockedOne();
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r1 = wentBack ? 1 : 0;
        r.r2 = starts;
        ThreadGauges gauges = compensation.snapshot();
        r.r3 = slot.state == Compensation.LEAVING && gauges.blockedWorkers == 0 && gauges.compensatingThreads == 0;
    }
}
