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
 * The lone-job pause of {@code JecSleep.leftLoneJob} (docs/sleep.md section 4.6): a worker that left a
 * neighbour's only job parks briefly as an idle worker, not as a sleeper and not as a napper, so that neither the
 * neighbour's next push nor jobs piling up end it, while a latch set during it ends it at once.
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
        JecSleep sleep = new JecSleep(parkers, 0, 0, Tuning.NAP_NANOS, LONG_PAUSE, probe);
        SpinLatch latch = new SpinLatch(sleep, 0);
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
        // must reach the napper, not the pausing worker that sits first in the array.
        JecSleep sleep = new JecSleep(parkers, 0, 0, LONG_PAUSE, LONG_PAUSE, probe);
        SpinLatch pauseLatch = new SpinLatch(sleep, 0);
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
        Poll.until("worker 1 naps", () -> sleep.nappers() == 1 && napper.getState() == Thread.State.TIMED_WAITING,
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
    void withThePauseOffTheWorkerYieldsAndReturns() {
        JecSleep sleep = new JecSleep(parkers, 0, 0, Tuning.NAP_NANOS, 0L, probe);
        SpinLatch latch = new SpinLatch(sleep, 0);
        IdleState idle = sleep.startLooking(0);
        sleep.leftLoneJob(idle, latch); // would park for good if 0 meant "no limit"
        assertSame(null, parkers[0].parkedThread, "loneJobPauseNanos = 0: no park");
    }

    @Test
    void aNegativePauseIsRejectedWithTheAllowedRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JecSleep(parkers, 0, 0, Tuning.NAP_NANOS, -1L, probe));
        assertTrue(e.getMessage().contains("loneJobPauseNanos -1") && e.getMessage().contains("allowed"),
                e.getMessage());
    }

    /**
     * Worker 0 leaves lone jobs and pauses, on a thread of its own, until {@code latch} is set; returns once it
     * is parked in its first pause.
     */
    private static Thread startPauser(JecSleep sleep, SpinLatch latch) {
        IdleState idle = sleep.startLooking(0);
        Thread pauser = new Thread(() -> {
            while (!latch.probe()) {
                sleep.leftLoneJob(idle, latch);
            }
            sleep.workFound(idle);
        }, "pauser");
        pauser.start();
        Poll.until("worker 0 pauses", () -> pauser.getState() == Thread.State.TIMED_WAITING, sleep::toString);
        return pauser;
    }

    /** A {@link ThreadParker} that counts its unparks and remembers who parked. */
    private static final class CountingParker implements Parker {
        private final ThreadParker inner = new ThreadParker();
        final AtomicInteger unparks = new AtomicInteger();
        volatile Thread parkedThread;

        @Override
        public void bindCurrentThread() {
            inner.bindCurrentThread();
        }

        @Override
        public void park(long nanos) {
            parkedThread = Thread.currentThread();
            inner.park(nanos);
        }

        @Override
        public void unpark() {
            unparks.incrementAndGet();
            inner.unpark();
        }

        @Override
        public boolean eventsFound() {
            return inner.eventsFound();
        }
    }
}
