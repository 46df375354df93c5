package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.Subject.Kind;
import dev.forage.bench.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {
    private static final Subject FORAGE = Subjects.primaryForage();
    private static final Subject FJP = Subjects.byId("forkjoin");
    private static final Subject FIXED = Subjects.byId("fixed");
    private static final List<Subject> SUBJECTS = List.of(FORAGE, FJP, FIXED);

    private static void put(RunData d, String scenario, Subject s, String metric, double... values) {
        Double[] boxed = new Double[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        d.add(ResultLine.result(scenario, s.id(), 2, metric, List.of(boxed)));
    }

    private static Targets.Verdict only(RunData d, String scenario) {
        List<Targets.Verdict> v = Targets.evaluate(d, List.of(Scenarios.byId(scenario)), SUBJECTS);
        assertEquals(1, v.size());
        return v.get(0);
    }

    @Test
    void bestAnchorIsTheLowestMedianAmongNonForageSubjects() {
        RunData d = new RunData();
        put(d, "submit-1m", FORAGE, "time", 1.0);
        put(d, "submit-1m", FJP, "time", 50, 52, 54);
        put(d, "submit-1m", FIXED, "time", 10, 200, 300); // median 200 despite the low min
        assertEquals(FJP, d.bestAnchor("submit-1m", "time", SUBJECTS));
    }

    @Test
    void throughputPassesAtTheLimitAndMissesAbove() {
        RunData d = new RunData();
        put(d, "submit-1m", FJP, "time", 50);
        put(d, "submit-1m", FORAGE, "time", 50);
        Targets.Verdict v = only(d, "submit-1m");
        assertEquals("PASS", v.verdict);
        assertEquals(1.0, v.ratio, 1e-12);

        RunData worse = new RunData();
        put(worse, "submit-1m", FJP, "time", 50);
        put(worse, "submit-1m", FORAGE, "time", 51);
        Targets.Verdict w = only(worse, "submit-1m");
        assertEquals("MISS", w.verdict);
        assertEquals(1.02, w.ratio, 1e-12);
    }

    @Test
    void fibJoinIsJudgedOnTheMedianOfForageAgainstTheBestAnchor() {
        RunData d = new RunData();
        put(d, "fib-join", FJP, "time", 1.4, 1.5, 9.0);
        put(d, "fib-join", FORAGE, "time", 1.0, 1.3, 1.2);
        Targets.Verdict v = only(d, "fib-join");
        assertEquals(1.2 / 1.5, v.ratio, 1e-12);
        assertEquals("PASS", v.verdict);
    }

    @Test
    void coroutineTargetsAreNotMeasurableWithoutAForageDispatcher() {
        RunData d = new RunData();
        put(d, "launch-1m", FJP, "time", 250);
        Targets.Verdict v = only(d, "launch-1m");
        if (FORAGE.capabilities().contains(Subject.Capability.COROUTINES)) {
            assertEquals("n/a", v.verdict); // Forage not run in this synthetic data
            assertTrue(v.note.contains("not run"), v.note);
        } else {
            assertEquals("n/a", v.verdict);
            assertTrue(v.note.contains("cannot run"), v.note);
        }
    }

    @Test
    void launchTargetUsesTheTighterLimit() {
        RunData d = new RunData();
        put(d, "launch-1m", FJP, "time", 100);
        put(d, "launch-1m", FORAGE, "time", 90);
        Targets.Verdict v = only(d, "launch-1m");
        assertEquals("≤ 0.8", v.limit);
        if (FORAGE.capabilities().contains(Subject.Capability.COROUTINES)) {
            assertEquals("MISS", v.verdict); // 0.9 > 0.8
        }
    }

    @Test
    void idlePassesOnlyAtZero() {
        RunData d = new RunData();
        put(d, "idle", FJP, "cpu", 0, 0);
        put(d, "idle", FORAGE, "cpu", 0, 0, 5);
        assertEquals("PASS", only(d, "idle").verdict);
        RunData busy = new RunData();
        put(busy, "idle", FORAGE, "cpu", 3, 4);
        assertEquals("MISS", only(busy, "idle").verdict);
    }

    @Test
    void wakeupOutsideJudgesP50AgainstForkJoinPoolAndP99AgainstTheBestAnchor() {
        RunData d = new RunData();
        put(d, "wakeup-outside", FJP, "p50", 9);
        put(d, "wakeup-outside", FJP, "p99", 100);
        put(d, "wakeup-outside", FIXED, "p50", 5);
        put(d, "wakeup-outside", FIXED, "p99", 80);
        put(d, "wakeup-outside", FORAGE, "p50", 8);
        put(d, "wakeup-outside", FORAGE, "p99", 97);
        List<Targets.Verdict> v = Targets.evaluate(d, List.of(Scenarios.byId("wakeup-outside")), SUBJECTS);
        assertEquals(2, v.size());
        assertEquals("PASS", v.get(0).verdict); // 8 <= 9 (ForkJoinPool), although the fixed pool has 5
        assertEquals(8.0 / 9, v.get(0).ratio, 1e-12);
        assertEquals("MISS", v.get(1).verdict); // 97 > 1.2 * 80
        assertEquals(97.0 / 80, v.get(1).ratio, 1e-12);
    }

    @Test
    void wideLowLoadHasASecondTargetAgainstRayonPreRfc5ThatIsNotMeasurableWithoutIt() {
        RunData d = new RunData();
        put(d, "lowload-1ms-w8", FJP, "cpu", 1.25);
        put(d, "lowload-1ms-w8", FORAGE, "cpu", 1.2);
        List<Targets.Verdict> v = Targets.evaluate(d, List.of(Scenarios.byId("lowload-1ms-w8")), SUBJECTS);
        assertEquals(2, v.size());
        assertEquals("PASS", v.get(0).verdict);
        assertEquals("n/a", v.get(1).verdict);
        assertTrue(v.get(1).note.contains("Rayon's pre-RFC-5"), v.get(1).note);
    }

    @Test
    void aSubjectThatCannotRunAScenarioIsShownAsADash() {
        RunData d = new RunData();
        put(d, "fib-join", FJP, "time", 1.4);
        Subject fixed = Subject.of("fixed", "fixed pool", Kind.FIXED_POOL);
        String table = Report.resultsTable(d, List.of(Scenarios.byId("fib-join")), List.of(FJP, fixed));
        assertTrue(table.contains("| 1.40 (1.40–1.40) ×1.00 | – |"), table);
    }

    @Test
    void cellsShowTheSpreadOfThePerForkMediansAndTheVerdictItsSlowestFork() {
        RunData d = new RunData();
        put(d, "fib-join", FJP, "time", 2.0, 2.0, 2.0);
        put(d, "fib-join", FORAGE, "time", 1.0, 1.1, 9.0); // fork median 1.1
        put(d, "fib-join", FORAGE, "time", 3.0, 3.1, 0.5); // fork median 3.0: the slow shape
        String table = Report.resultsTable(d, List.of(Scenarios.byId("fib-join")), List.of(FORAGE, FJP));
        // pooled median of the six samples 0.5 1.0 1.1 3.0 3.1 9.0 is 2.05; forks span 1.10 to 3.00
        assertTrue(table.contains("**2.05** (1.10–3.00)"), table);
        Targets.Verdict v = only(d, "fib-join");
        assertEquals(1.5, v.slowestForkRatio, 1e-9);
    }

    @Test
    void twoProfilesShareOneTableWithAProfileColumn() {
        RunData full = new RunData();
        put(full, "fib-join", FJP, "time", 2.0);
        RunData quick = new RunData();
        put(quick, "fib-join", FJP, "time", 4.0);
        List<Report.Profile> profiles = List.of(new Report.Profile("full", full, List.of()),
                new Report.Profile("short", quick, List.of()));
        String table = Report.resultsTable(profiles, List.of(Scenarios.byId("fib-join")), List.of(FJP));
        assertTrue(table.contains("| scenario | profile | metric |"), table);
        assertTrue(table.contains("| full | time per op, ms | 2.00 (2.00–2.00) ×1.00 |"), table);
        assertTrue(table.contains("| short | time per op, ms | 4.00 (4.00–4.00) ×1.00 |"), table);
    }
}
