package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every tunable is a per-pool setting ({@link Tunable}, {@link Tuning}): each refuses a value outside its range
 * with a message that names it and says what is allowed, and two pools of one JVM built with different values
 * really behave differently, which a JVM-global constant could not do.
 */
@Watchdog.Budget(seconds = 60)
class TuningTest {
    @ParameterizedTest
    @EnumSource(Tunable.class)
    void everyTunableRefusesValuesOutsideItsRangeAndSaysWhatIsAllowed(Tunable t) {
        String allowed = t.settingName + " must be between " + t.min + " and " + t.max;
        for (long bad : new long[] {t.min - 1, t.max + 1}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ForagePool.builder().tune(t, bad));
            assertTrue(e.getMessage().contains(allowed + ", was " + bad), e.getMessage());
            assertTrue(e.getMessage().contains(t.property), "names the property that sets the default: "
                    + e.getMessage());
        }
        ForagePool.builder().tune(t, t.min).tune(t, t.max); // the bounds themselves are allowed
        assertEquals(t.defaultValue, Tuning.DEFAULTS.get(t));
        assertTrue(t.defaultValue >= t.min && t.defaultValue <= t.max, t + "'s default lies in its range");
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        // The values docs/sleep.md and the Tunable comments give; a system property would change them, and the
        // test JVM sets none.
        assertEquals(0, Tuning.DEFAULTS.get(Tunable.ROUNDS_UNTIL_SLEEPY));
        assertEquals(0, Tuning.DEFAULTS.get(Tunable.WAKE_ON_WORK_FOUND));
        assertEquals(20_000, Tuning.DEFAULTS.get(Tunable.NAP_NANOS));
        assertEquals(20_000, Tuning.DEFAULTS.get(Tunable.LONE_JOB_PAUSE_NANOS));
        assertEquals(4, Tuning.DEFAULTS.get(Tunable.INJECTED_STREAM_ROUNDS));
        assertEquals(32, Tuning.DEFAULTS.get(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY));
        assertEquals(64, Tuning.DEFAULTS.get(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP));
        assertEquals(50_000, Tuning.DEFAULTS.get(Tunable.SPIN_FOR_WORK_NANOS));
        assertEquals(64, Tuning.DEFAULTS.get(Tunable.SPIN_CHECKS_PER_YIELD));
        assertEquals(61, Tuning.DEFAULTS.get(Tunable.FAIRNESS_INTERVAL));
        assertEquals(8, Tuning.DEFAULTS.get(Tunable.MAX_HELP_DEPTH));
        assertEquals(64, Tuning.DEFAULTS.get(Tunable.TIMER_CHECK_INTERVAL));
        assertEquals(100, Tuning.DEFAULTS.get(Tunable.JFR_LONG_JOB_MILLIS));
        assertEquals(32, Tuning.DEFAULTS.get(Tunable.IO_POLL_INTERVAL));
        assertEquals(250, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS));
    }

    @Test
    void thePreRfc5RoundsMustLeaveOneSearchBetweenSleepyAndAsleep() {
        ForagePoolBuilder b = ForagePool.builder().threads(1).sleepProtocol(SleepProtocol.RAYON_PRE_RFC5)
                .tune(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY, 64); // asleep stays 64
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("preRfc5RoundsUntilAsleep (64) must be more than "
                + "preRfc5RoundsUntilSleepy (64)"), e.getMessage());
        try (ForagePool pool = b.tune(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP, 65).name(Pools.uniqueName()).build()) {
            assertEquals(65, pool.registry().tuning.get(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP));
        }
    }

    @Test
    void longJobThresholdTakesWholeMillisecondsInRangeAndSaysWhatIsAllowed() {
        ForagePoolBuilder b = ForagePool.builder();
        assertEquals(5, b.longJobThreshold(5, TimeUnit.MILLISECONDS).settings.tuning.get(Tunable.JFR_LONG_JOB_MILLIS));
        assertEquals(2000, b.longJobThreshold(2, TimeUnit.SECONDS).settings.tuning.get(Tunable.JFR_LONG_JOB_MILLIS));
        assertEquals(0, b.longJobThreshold(0, TimeUnit.NANOSECONDS).settings.tuning.get(Tunable.JFR_LONG_JOB_MILLIS));
        for (Runnable bad : new Runnable[] {
                () -> b.longJobThreshold(-1, TimeUnit.MILLISECONDS),
                () -> b.longJobThreshold(1500, TimeUnit.MICROSECONDS),
                () -> b.longJobThreshold(Integer.MAX_VALUE + 1L, TimeUnit.MILLISECONDS)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad::run);
            assertTrue(e.getMessage().contains("longJobThreshold must be a whole number of milliseconds from 0 to "
                    + Integer.MAX_VALUE + " ms"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> b.longJobThreshold(1, null));
    }

    /**
     * The fairness interval, per pool: worker 0 of a pool with interval 1 takes the injector's job before its own
     * newest at its first local take; a pool with the default interval, built in the same JVM, pops its own newest.
     * A JVM-global constant would give both pools the same answer.
     */
    @Test
    void twoPoolsWithDifferentFairnessIntervalsTakeDifferentJobsFirst() throws Exception {
        Runnable injected = () -> { };
        Runnable own = () -> { };
        LoneJobTest.onHeldWorkers(ForagePool.builder().tune(Tunable.FAIRNESS_INTERVAL, 1), pool -> {
            Worker w = pool.registry().workers[0];
            pool.registry().injector.push(injected);
            w.deque.push(own);
            assertSame(injected, w.takeLocalJob(0), "interval 1: every take looks at the injector first");
            assertSame(own, w.takeLocalJob(0));
        });
        LoneJobTest.onHeldWorkers(ForagePool.builder(), pool -> {
            Worker w = pool.registry().workers[0];
            pool.registry().injector.push(injected);
            w.deque.push(own);
            assertSame(own, w.takeLocalJob(0), "interval 61: the newest own job first");
            assertSame(injected, w.search(false, false, IdleState.ANYWHERE));
        });
    }

    /**
     * The stream rounds, per pool: after draining two outside jobs, a worker of a pool with 3 stream rounds holds
     * off the protocol for three failed searches; one of a pool with 0 hands the first failed search to it.
     */
    @Test
    void twoPoolsWithDifferentStreamRoundsHoldOffTheProtocolDifferently() throws Exception {
        for (int rounds : new int[] {3, 0}) {
            LoneJobTest.onHeldWorkers(ForagePool.builder().tune(Tunable.INJECTED_STREAM_ROUNDS, rounds), pool -> {
                Worker w = pool.registry().workers[0];
                SpinLatch latch = new SpinLatch(pool.registry(), 0);
                pool.registry().injector.push(() -> { });
                pool.registry().injector.push(() -> { });
                w.takeBeforeIdling();
                w.takeBeforeIdling(); // two outside jobs drained: a stream
                w.startSpell();
                int heldOff = 0;
                while (w.holdOff(latch)) {
                    heldOff++;
                }
                assertEquals(rounds, heldOff, "stream rounds before the protocol's turn");
            });
        }
    }

    /**
     * The lone-job pause, per pool: beside a producer, a worker of a pool with a pause parks; one of a pool with
     * the pause off (0) yields and does not park. Driven step by step on held workers.
     */
    @Test
    void twoPoolsWithDifferentLoneJobPausesTreatAProducerDifferently() throws Exception {
        for (long pauseNanos : new long[] {1_000L, 0L}) {
            LoneJobTest.onHeldWorkers(ForagePool.builder().tune(Tunable.LONE_JOB_PAUSE_NANOS, pauseNanos), pool -> {
                Worker producer = pool.registry().workers[0];
                Worker thief = pool.registry().workers[1];
                SpinLatch latch = new SpinLatch(pool.registry(), 1);
                Runnable job = () -> { };
                producer.deque.push(job);
                assertNull(thief.stealFromOthers(true), "a lone job: left");
                producer.deque.push(job);
                producer.deque.push(job);
                assertSame(job, thief.stealFromOthers(true), "the job left, under more: a producer");
                thief.stealFromOthers(true); // two left at the producer: the oldest taken
                assertNull(thief.stealFromOthers(true), "the last one is a lone job: left");
                assertTrue(thief.holdOff(latch), "left a lone job: the policy holds off the protocol");
                if (pauseNanos > 0) {
                    assertTrue(thief.parker.lastLatchParkNanos() >= 0, "beside a producer this pool pauses");
                } else {
                    assertEquals(-1L, thief.parker.lastLatchParkNanos(), "this pool's pause is off: a yield, no park");
                }
            });
        }
    }

    @Test
    void aBaselineProtocolYieldsInsteadOfPausing() {
        try (ForagePool jec = ForagePool.builder().threads(1).name(Pools.uniqueName()).build();
                ForagePool emper = ForagePool.builder().threads(1).sleepProtocol(SleepProtocol.EMPER)
                        .name(Pools.uniqueName()).build()) {
            assertTrue(jec.registry().pausesBesideProducers);
            assertTrue(!emper.registry().pausesBesideProducers, "the lock-based baselines keep the yield");
        }
    }
}
