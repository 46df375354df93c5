package dev.forage;

import java.util.concurrent.locks.ReentrantLock;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Rayon RFC #5, appendix A, at the level of the latch's decisions: {@code SpinLatch.set} against its owner falling
 * asleep. Pins the latch step pair of {@code docs/sleep.md}, "Latches": the owner's
 * {@code getSleepy} (UNSET to SLEEPY), lock, {@code fallAsleep} (SLEEPY to SLEEPING), block, against the setter's
 * swap to SET and, only if the swap returned SLEEPING, lock and signal.
 *
 * <p>The owner's "block" is modelled without blocking: holding its sleep lock, it marks itself blocked and then
 * releases the lock, which is what {@code JecSleep}'s S5 does before it parks. The setter's {@link LatchWaker} takes the same lock
 * and clears the mark, as {@code JecSleep.wakeSpecificThread} clears {@code isBlocked}. The arbiter then sees
 * whether the owner would still be asleep with nobody left to wake it. The waker also records whether it had to
 * wait for the owner's lock: the hand-off where the setter saw SLEEPING before the owner had blocked, which the
 * lock turns into a wake-up after the block instead of a lost signal before it.
 *
 * <p>Result: r1 owner (0: getSleepy failed, the latch was SET; 1: fallAsleep failed; 2: blocked), r2 the setter
 * saw SLEEPING and called the waker, r3 the waker found the owner's lock held, r4 the owner is still blocked at
 * the end (a lost wake-up).
 */
@JCStressTest
@Description("Latch set vs owner falling asleep (Rayon RFC #5, appendix A): never a lost wake-up.")
@Outcome(id = "0, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "Set before getSleepy: the owner never tries to sleep.")
@Outcome(id = "1, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPY: fallAsleep fails, the owner stays up.")
@Outcome(id = "2, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "Set while SLEEPING: the setter woke the blocked owner.")
@Outcome(id = "2, 1, 1, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "Lock hand-off: the setter saw SLEEPING before the owner blocked, waited for its lock, then woke it.")
@Outcome(id = "2, 0, 0, 1", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the owner blocked, the setter saw a state other than SLEEPING and woke nobody.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. a signal sent before the owner blocked.")
@State
public class LatchSetVsSleep {
    /** The owner's sleep lock ({@code JecSleep.WorkerSleepState.lock} in the pool). */
    private final ReentrantLock ownerLock = new ReentrantLock();
    /** Guarded by {@link #ownerLock}: the owner is blocked and nobody has woken it. */
    private boolean ownerBlocked;
    private boolean wakerCalled;
    private boolean wakerWaitedForLock;

    private final SpinLatch latch = new SpinLatch(new LatchWaker() {
        @Override
        public void notifyWorkerLatchIsSet(int workerIndex) {
            wakerCalled = true;
            if (!ownerLock.tryLock()) {
                wakerWaitedForLock = true;
                ownerLock.lock();
            }
            try {
                ownerBlocked = false; // the signal
            } finally {
                ownerLock.unlock();
            }
        }
    }, 0);

    @Actor
    public void owner(IIII_Result r) {
        if (!latch.getSleepy()) {
            r.r1 = 0;
            return;
        }
        ownerLock.lock();
        try {
            if (!latch.fallAsleep()) {
                r.r1 = 1;
                return;
            }
            // Committed: the owner blocks. JecSleep's S5 sets isBlocked under the lock, unlocks, then parks;
            // the unlock below stands for that.
            ownerBlocked = true;
            r.r1 = 2;
        } finally {
            ownerLock.unlock();
        }
    }

    @Actor
    public void setter(IIII_Result r) {
        latch.set();
        r.r2 = wakerCalled ? 1 : 0;
        r.r3 = wakerWaitedForLock ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        ownerLock.lock();
        try {
            r.r4 = ownerBlocked ? 1 : 0;
        } finally {
            ownerLock.unlock();
        }
        if (!latch.probe()) {
            throw new IllegalStateException("latch not SET after set(): " + latch);
        }
    }
}
