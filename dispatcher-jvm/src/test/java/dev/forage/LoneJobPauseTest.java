package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lone-job pause of the search policy ({@link Parker#parkUntilSet}, docs/sleep.md section 4.6): a worker that left a
 * neighbour's only job parks briefly as an idle worker, outside the sleep protocol (not as a sleeper and not as a
 * napper), so that neither the neighbour's next push nor jobs piling up end it, while a latch set during it ends it
 * at once. The pool's part is {@link Registry#notifyWorkerLatchIsSet}, which tells both the protocol and the pause;
 * {@link #waker} does the same here.
 *
 * <p>Worker 0 pauses on a thread of the test's own; the test thread plays the busy neighbour. The pauses that
 * must end through the latch are ten minutes long, so a lost latch wake-up is a hang that the watchdog turns into
 * a failure with a thread dump, not a slow pass. The parkers count their unparks, so "nobody ended the pause" is
 * a count, not a wait.
 */
@Watchdog.Budget(seconds = 60)
class LoneJobPauseTest {
    private static final long LONG_PAUSE = TimeUnit.MINUTES.toNanos(10);

    private final TestProbe probe = new TestProbe();
    private final CountingParker[] parkers = {new CountingParker(), new CountingParker()};

    @Test
    void thePauseIsAnIdleParkThatPostsDoNotEndAndALatchSetDoes() throws Exception {
        JecSleep sleep = new JecSleep(tuning(Tuning.DEFAULTS.get(Tunable.NAP_NANOS)), parkers, probe);
        SpinLatch latch = new SpinLatch(waker(sleep), 0);
        Thread pauser = startPauser(sleep, latch);

        assertEquals(0, sleep.sleepingThreads(), "a pause is not a sleep: posts find nobody to wake");
        assertEquals(1, sleep.idleThreads(), "a pausing worker stays counted as idle");
        assertEquals(0, sleep.nappers(), "a pause is not a nap: jobs piling up do not end it");
        sleep.newInternalJobs(1, true); // the neighbour's next push, to its emptied deque
        sleep.newInternalJobs(1, false); // and the one after: jobs pile up
        assertEquals(0, parkers[0].unparks.get(), "neither push ended the pause");

        // A latch set during a ten-minute pause ends it at once; a lost latch wake-up hangs here (watchdog).
        latch.set();
        pauser.join();
        assertTrue(parkers[0].unparks.get() >= 1, "the latch's setter unparked the pausing worker");
        assertEquals(0, sleep.idleThreads(), "workFound un-counted it");
    }

    @Test
    void aNapperIsStillEndedByJobsPilingUpWhileAnotherWorkerPauses() throws Exception {
        // Worker 0 pauses; worker 1 naps (a failed sleep attempt, then a sleep attempt with posts seen). A pile-up
        // must reach the napper, not the pausing worker that sits first in the array. The napper's parker makes
        // every nap last until an unpark, as a ten-minute one would (the tunable stops at a millisecond).
        JecSleep sleep = new JecSleep(tuning(Tunable.NAP_NANOS.max), parkers, probe);
        parkers[1].untilUnparked = true;
        SpinLatch pauseLatch = new SpinLatch(waker(sleep), 0);
        Thread pauser = startPauser(sleep, pauseLatch);

        SpinLatch napLatch = new SpinLatch(sleep, 1);
        IdleState napIdle = sleep.startLooking(1);
        JecSleepTest.Context context = new JecSleepTest.Context();
        sleep.noWorkFound(napIdle, napLatch, context); // S1
        sleep.newInternalJobs(1, true); // a post the napper's searches do not find
        sleep.noWorkFound(napIdle, napLatch, context); // S2 fails: posts seen
        Thread napper = new Thread(() -> {
            while (!napLatch.probe()) {
                sleep.noWorkFound(napIdle, napLatch, context); // S1 again, then ten-minute naps
            }
            sleep.workFound(napIdle);
        }, "napper");
        napper.start();
        Poll.until("worker 1 naps", () -> sleep.nappers() == 1 && napper.getState() == Thread.State.WAITING,
                sleep::toString);

        sleep.newInternalJobs(1, false); // jobs pile up: wakeNapper unparks one napper, on this thread
        assertEquals(1, parkers[1].unparks.get(), "the pile-up unparked the napper");
        assertEquals(0, parkers[0].unparks.get(), "and not the pausing worker");

        napLatch.set();
        pauseLatch.set();
        napper.join();
        pauser.join();
    }

    @Test
    void aPauseWhoseLatchIsAlreadySetDoesNotPark() {
        SpinLatch latch = new SpinLatch(index -> parkers[0].latchSet(), 0);
        latch.set();
        parkers[0].parkUntilSet(latch, LONG_PAUSE, false); // would park for ten minutes if it ignored the latch
        assertEquals(-1L, parkers[0].lastLatchParkNanos(), "the latch was SET before SLEEPING: no park");
        assertSame(null, parkers[0].parkedThread);
    }

    @Test
    void aNegativeOrTooLongPauseIsRejectedWithTheAllowedRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().tune(Tunable.LONE_JOB_PAUSE_NANOS, -1L));
        assertTrue(e.getMessage().contains("loneJobPauseNanos must be between 0 and 1000000, was -1"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().tune(Tunable.LONE_JOB_PAUSE_NANOS, 1_000_001L));
        assertTrue(e.getMessage().contains("loneJobPauseNanos must be between 0 and 1000000, was 1000001"),
                e.getMessage());
    }

    /** What the pool's registry does for a latch of one of its workers: tell the protocol, which ends the pause. */
    private static LatchWaker waker(JecSleep sleep) {
        return sleep::notifyWorkerLatchIsSet;
    }

    /** The defaults, with idle rounds and the ramp-up off, and this nap. */
    private static Tuning tuning(long napNanos) {
        return Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0).with(Tunable.WAKE_ON_WORK_FOUND, 0)
                .with(Tunable.NAP_NANOS, napNanos);
    }

    /**
     * Worker 0 starts looking (counted idle by {@code sleep}) and pauses, on a thread of its own, until
     * {@code latch} is set, as its search policy does after leaving lone jobs beside a producer; returns once it
     * is parked in its first pause.
     */
    private Thread startPauser(JecSleep sleep, SpinLatch latch) {
        IdleState idle = sleep.startLooking(0);
        Thread pauser = new Thread(() -> {
            while (!latch.probe()) {
                parkers[0].parkUntilSet(latch, LONG_PAUSE, false);
            }
            sleep.workFound(idle);
        }, "pauser");
        pauser.start();
        Poll.until("worker 0 pauses", () -> pauser.getState() == Thread.State.TIMED_WAITING, sleep::toString);
        return pauser;
    }
}
