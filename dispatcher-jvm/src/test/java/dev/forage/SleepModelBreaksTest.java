package dev.forage;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The model check of {@link SleepModelCheckTest} can fail: each deliberate break ({@link SleepModel.Break})
 * removes or moves one step of the proof, and the check must report the lost wake-up it allows. Each test runs
 * the scenario of the race that step guards and asserts that Lincheck fails with the property's message.
 *
 * <p>Under sequentially consistent interleavings, S4 alone is redundant: the worker loop searches once more
 * between S1 and S2, which sees every job posted before S1, and S2 fails on any post after S1 (the JEC moved). So
 * skipping S4 is caught only together with the search after S1 ({@link #finalCheckSkippedWithoutTheSearchAfterS1});
 * {@link #finalCheckSkippedAloneIsCoveredByTheJec} pins the redundancy. On weak memory the search may miss a job
 * and S4 is needed on its own (jcstress {@code InjectorVsJecSleep}, B3).
 */
@Watchdog.Budget(seconds = 120)
class SleepModelBreaksTest {
    /**
     * The most interleavings per scenario; Lincheck stops at the first failure, and each break's race needs only
     * two or three thread switches.
     */
    private static final int INVOCATIONS = 200;

    /** The smallest races: worker 0 goes to sleep while worker 1 posts and stays busy (it may block). */
    private static final ExecutionScenario INJECTED = SleepModelCheckTest.workers(
            List.of(SleepModelCheckTest.sleeps(0)), List.of(SleepModelCheckTest.injects()));
    private static final ExecutionScenario INTERNAL = SleepModelCheckTest.workers(
            List.of(SleepModelCheckTest.sleeps(0)), List.of(SleepModelCheckTest.pushes(1)));
    private static final ExecutionScenario LATCH = SleepModelCheckTest.workers(
            List.of(SleepModelCheckTest.sleeps(0)), List.of(SleepModelCheckTest.sets(0)));
    private static final ExecutionScenario READY = SleepModelCheckTest.workers(
            List.of(SleepModelCheckTest.sleeps(0)), List.of(SleepModelCheckTest.ready(0)));

    @Test
    void countersReadBeforeThePushLosesAnInjectedJob() {
        assertLost(PushFenceMissing.class, INJECTED, "a job in the injector");
    }

    @Test
    void countersReadBeforeThePushLosesAnInternalJob() {
        assertLost(PushFenceMissing.class, INTERNAL, "a job in worker 1's deque");
    }

    @Test
    void finalCheckSkippedWithoutTheSearchAfterS1() {
        assertLost(FinalCheckAndSearchMissing.class, INJECTED, "a job in the injector");
    }

    @Test
    void finalCheckSkippedAloneIsCoveredByTheJec() {
        SleepModelCheckTest.explore(SleepModelCheckTest.targeted(
                List.of(INJECTED, INTERNAL), SleepModelCheckTest.INVOCATIONS),
                FinalCheckMissing.class, "S4 skipped");
    }

    @Test
    void withoutTheHandOffRuleAJobIsLeftToASleeper() {
        // The scenario posts to the injector and to worker 2's deque; the first interleaving the check meets may
        // strand either (with the next slot in the model, the injector's job comes first).
        assertLost(HandOffMissing.class, SleepModelCheckTest.HAND_OFF, "a job in ");
    }

    @Test
    void aLatchSetWithoutTheWakeRuleLeavesItsOwnerAsleep() {
        assertLost(LatchWakeMissing.class, LATCH, "its latch is SET");
    }

    @Test
    void readinessThatTheParkerDoesNotReportIsLost() {
        assertLost(ReadinessUnreported.class, READY, "its selector found readiness");
    }

    /** Runs {@code scenario} on {@code broken} and asserts that the check fails with {@code symptom}. */
    private static void assertLost(Class<? extends SleepModelCheckTest> broken, ExecutionScenario scenario,
            String symptom) {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> SleepModelCheckTest.explore(
                        SleepModelCheckTest.targeted(List.of(scenario), INVOCATIONS).minimizeFailedScenario(false),
                        broken, broken.getSimpleName()));
        String message = String.valueOf(e.getMessage());
        System.out.println(broken.getSimpleName() + ": " + firstLines(message));
        assertTrue(message.contains("lost wake-up") && message.contains(symptom),
                () -> broken.getSimpleName() + " failed, but not with \"" + symptom + "\": " + message);
    }

    /** The failure's headline and the property's message, without the interleaving's trace. */
    private static String firstLines(String message) {
        int property = message.indexOf("lost wake-up");
        int end = message.indexOf('\n', Math.max(property, 0));
        return message.substring(Math.max(property, 0), end < 0 ? message.length() : end);
    }

    private static Set<SleepModel.Break> of(SleepModel.Break first, SleepModel.Break... rest) {
        return EnumSet.of(first, rest);
    }

    /** I3 before I1: the order a missing PushFence allows (a store-load reordering). */
    public static final class PushFenceMissing extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.COUNTERS_READ_BEFORE_PUSH);
        }
    }

    public static final class FinalCheckMissing extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.SKIP_FINAL_CHECK);
        }
    }

    public static final class FinalCheckAndSearchMissing extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.SKIP_FINAL_CHECK, SleepModel.Break.NO_SEARCH_AFTER_SLEEPY);
        }
    }

    public static final class HandOffMissing extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.NO_HAND_OFF);
        }
    }

    public static final class LatchWakeMissing extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.LATCH_SET_WITHOUT_WAKE);
        }
    }

    public static final class ReadinessUnreported extends SleepModelCheckTest {
        @Override
        protected Set<SleepModel.Break> breaks() {
            return of(SleepModel.Break.READINESS_NOT_REPORTED);
        }
    }
}
