package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The nap of {@code JecSleep} (docs/sleep.md section 3.7): after a sleep attempt that found work posted since
 * the worker got sleepy, the worker's next attempt is a bounded park during which it stays counted as idle, not
 * as a sleeper, so a busy neighbour's posts need not wake it; a latch set during the nap wakes it at once; a whole
 * nap with nothing posted ends in a real sleep, and the naps stop.
 *
 * <p>One worker of a two-worker strategy is driven step by step on a thread of the test's own; the test thread
 * plays the busy neighbour that posts. The naps that must end through a latch are ten minutes long, so a lost
 * latch wake-up is a hang that the watchdog turns into a failure with a thread dump, not a slow pass.
 */
@Watchdog.Budget(seconds = 60)
class JecNapTest {
    private final TestProbe probe = new TestProbe();

    /** Worker 0 searches and fails: its steps, one {@code noWorkFound} per failed search. */
    private static final class Stepper {
        final JecSleep sleep;
        final SpinLatch latch;
        final JecSleepTest.Context context = new JecSleepTest.Context();
        final JecSleep.JecIdleState idle;

        Stepper(JecSleep sleep) {
            this.sleep = sleep;
            this.latch = new SpinLatch(sleep, 0);
            this.idle = sleep.startLooking(0);
        }

        void failedSearch() {
            sleep.noWorkFound(idle, latch, context);
        }

        /** Runs failed searches on a thread of its own until the latch is set, then leaves the idle state. */
        Thread searchUntilLatchSet(String name) {
            Thread t = new Thread(() -> {
                while (!latch.probe()) {
                    failedSearch();
                }
                sleep.workFound(idle);
            }, name);
            t.start();
            return t;
        }

        /** S1, a post by the neighbour, then the sleep attempt: S2 fails and the worker has seen posts. */
        void failASleepAttempt() {
            failedSearch(); // S1: sleepy
            sleep.newInternalJobs(1, true); // the neighbour pushes a job it will pop itself: the JEC moves
            failedSearch(); // S2 finds the JEC moved
        }
    }

    @Test
    void aFailedSleepAttemptMakesTheNextAttemptANapAsAnIdleWorker() throws Exception {
        // A nap that lasts until an unpark, as a ten-minute one would (the tunable stops at a millisecond).
        CountingParker[] parkers = {new CountingParker(), new CountingParker()};
        parkers[0].untilUnparked = true;
        JecSleep sleep = new JecSleep(napping(Tunable.NAP_NANOS.max), parkers, probe);
        Stepper worker = new Stepper(sleep);
        worker.failASleepAttempt();
        assertTrue(worker.idle.sawPosts, "a failed S2 is the evidence of posts the worker did not find");
        assertEquals(0, worker.context.stats.get(PoolCounter.SLEEPS), "a failed S2 does not sleep");

        Thread napper = worker.searchUntilLatchSet("napper");
        Poll.until("worker 0 naps", () -> worker.context.stats.get(PoolCounter.NAPS) == 1
                && napper.getState() == Thread.State.WAITING, sleep::toString);
        assertEquals(0, sleep.sleepingThreads(), "a napper is not a sleeper: posts have nobody to wake");
        assertEquals(1, sleep.idleThreads(), "a napper stays counted as idle");
        assertEquals(0, worker.context.stats.get(PoolCounter.SLEEPS), "it napped instead of sleeping");

        sleep.newInternalJobs(1, true); // a post during the nap: nobody sleeps, so nobody is woken
        assertEquals(0, sleep.sleepingThreads());

        // A latch set during a nap that only an unpark ends ends it at once; a lost latch wake-up hangs here (watchdog).
        worker.latch.set();
        napper.join();
        assertEquals(0, worker.context.stats.get(PoolCounter.SLEEPS), "it never slept");
        assertEquals(0, sleep.idleThreads(), "workFound un-counted it");
    }

    @Test
    void aWholeNapWithNothingPostedEndsInASleepAndTheNapsStop() throws Exception {
        JecSleep sleep = new JecSleep(napping(TimeUnit.MILLISECONDS.toNanos(1)), ThreadParker.forWorkers(2), probe);
        Stepper worker = new Stepper(sleep);
        worker.failASleepAttempt();
        Thread sleeper = worker.searchUntilLatchSet("sleeper");
        Poll.until("worker 0 sleeps after one quiet nap", () -> worker.context.stats.get(PoolCounter.SLEEPS) == 1
                && sleep.isBlocked(0), sleep::toString);
        assertEquals(1, worker.context.stats.get(PoolCounter.NAPS), "exactly one nap before the sleep");
        assertEquals(1, sleep.sleepingThreads(), "a sleeper again: posts wake it as usual");
        worker.latch.set();
        sleeper.join();
        assertFalse(worker.idle.sawPosts, "a quiet nap clears the evidence: the next idle spell sleeps at once");
    }

    @Test
    void theEvidenceOutlivesTheIdleSpellThatFoundIt() throws Exception {
        // A busy neighbour that pops its own posts keeps doing so while this worker runs the odd job it found, so
        // a new idle spell still naps first. Without this, the two workers of a ping-pong, which swap roles each
        // time the chain moves, would start every idle spell without evidence and sleep at once.
        JecSleep sleep = new JecSleep(napping(TimeUnit.MILLISECONDS.toNanos(1)), ThreadParker.forWorkers(2), probe);
        Stepper worker = new Stepper(sleep);
        worker.failASleepAttempt();
        sleep.workFound(worker.idle); // found a job: the idle spell ends
        assertTrue(sleep.startLooking(0) == worker.idle, "JecSleep reuses one idle state per worker");
        assertTrue(worker.idle.sawPosts, "a new idle spell keeps the evidence");
        Thread sleeper = worker.searchUntilLatchSet("sleeper");
        Poll.until("worker 0 sleeps", () -> sleep.isBlocked(0), sleep::toString);
        assertEquals(1, worker.context.stats.get(PoolCounter.NAPS), "the new spell napped once before sleeping");
        worker.latch.set();
        sleeper.join();
    }

    @Test
    void withNapsOffAFailedAttemptIsFollowedByARealSleep() throws Exception {
        JecSleep sleep = new JecSleep(napping(0L), ThreadParker.forWorkers(2), probe);
        Stepper worker = new Stepper(sleep);
        worker.failASleepAttempt();
        Thread sleeper = worker.searchUntilLatchSet("sleeper");
        Poll.until("worker 0 sleeps", () -> sleep.isBlocked(0), sleep::toString);
        assertEquals(0, worker.context.stats.get(PoolCounter.NAPS), "napNanos = 0: no nap");
        worker.latch.set();
        sleeper.join();
    }

    @Test
    void aNegativeNapIsRejectedWithTheAllowedRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().tune(Tunable.NAP_NANOS, -1L));
        assertTrue(e.getMessage().contains("napNanos must be between 0 and 1000000, was -1"), e.getMessage());
    }

    /** The defaults, with idle rounds and the ramp-up off (sleepy at the first failed search) and this nap. */
    private static Tuning napping(long napNanos) {
        return Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0).with(Tunable.WAKE_ON_WORK_FOUND, 0)
                .with(Tunable.NAP_NANOS, napNanos);
    }
}
