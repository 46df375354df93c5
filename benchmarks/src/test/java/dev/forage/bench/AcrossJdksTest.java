package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run on two JDKs: a goal is met only when met on both, and the report shows each JDK's table and each JDK's
 * verdict beside the one across them. Fake run data, no measurement.
 */
class AcrossJdksTest {
    private static final Subject FORAGE = Subjects.primaryForage();
    private static final Subject FJP = Subjects.byId("forkjoin");
    private static final Subject COMMON = Subjects.byId("common");
    private static final List<Subject> SUBJECTS = List.of(FORAGE, FJP, COMMON);
    private static final List<Scenario> SUBMIT = List.of(Scenarios.byId("submit-1m"));
    private static final List<String> JDKS = List.of("17", "25");

    /** submit-1m with Forage at {@code forage} ms against ForkJoinPool's 50 (limit 1.0: PASS up to 50). */
    private static RunData submit(double forage, boolean disturbed) {
        RunData d = new RunData();
        d.add(ResultLine.result("submit-1m", FJP.id(), 2, "time", List.of(50.0)));
        d.add(ResultLine.result("submit-1m", COMMON.id(), 2, "time", List.of(60.0)));
        d.add(ResultLine.result("submit-1m", FORAGE.id(), 2, "time", List.of(forage)));
        for (Subject s : SUBJECTS) {
            boolean mark = disturbed && s == FORAGE;
            d.interference("submit-1m", s.id(), new Interference.Run(1,
                    new Interference.Reading(mark ? 400 : 5, 1000, 2), mark ? 3 : 1, mark));
        }
        return d;
    }

    private static Targets.Verdict verdict(RunData d) {
        List<Targets.Verdict> v = Targets.evaluate(d, SUBMIT, SUBJECTS);
        assertEquals(1, v.size());
        return v.get(0);
    }

    private static Targets.Across across(RunData on17, RunData on25) {
        return Targets.across(JDKS, List.of(verdict(on17), verdict(on25)));
    }

    @Test
    void aGoalIsMetOnlyWhenMetOnBothJdks() {
        Targets.Across both = across(submit(40, false), submit(45, false));
        assertTrue(both.met);
        assertEquals("met on both", both.text);

        // A verdict that read only JDK 17 (or only the last JDK) would call each of these met.
        Targets.Across only17 = across(submit(40, false), submit(70, false));
        assertFalse(only17.met);
        assertEquals("met on 17 only", only17.text);
        Targets.Across only25 = across(submit(70, false), submit(40, false));
        assertFalse(only25.met);
        assertEquals("met on 25 only", only25.text);

        Targets.Across neither = across(submit(70, false), submit(80, false));
        assertFalse(neither.met);
        assertEquals("missed on both", neither.text);
    }

    @Test
    void aDisturbedCellOnOneJdkLeavesThatJdkUnreliableAndTheGoalNotMet() {
        Targets.Across a = across(submit(40, false), submit(40, true));
        assertEquals(List.of("PASS", Targets.UNRELIABLE), a.verdicts.stream().map(v -> v.verdict).toList(),
                "the ~ of JDK 25's cell makes JDK 25's verdict unreliable, not JDK 17's");
        assertFalse(a.met, "unreliable on 25 is not met on 25");
        assertEquals("met on 17, unreliable on 25", a.text);
        assertEquals("unreliable on both", across(submit(40, true), submit(40, true)).text);
    }

    @Test
    void threeJdksAreNamedAsWell() {
        Targets.Verdict pass = verdict(submit(40, false));
        Targets.Verdict miss = verdict(submit(70, false));
        assertEquals("met on all 3", Targets.across(List.of("17", "21", "25"), List.of(pass, pass, pass)).text);
        assertEquals("met on 17 and 25 only",
                Targets.across(List.of("17", "21", "25"), List.of(pass, miss, pass)).text);
    }

    private static List<Report.Profile> profiles(RunData on17, RunData on25) {
        return List.of(
                new Report.Profile("full", "17", on17, Targets.evaluate(on17, SUBMIT, SUBJECTS)),
                new Report.Profile("full", "25", on25, Targets.evaluate(on25, SUBMIT, SUBJECTS)));
    }

    @Test
    void theReportHasATablePerJdkAndTheGoalsOfBothSideBySide() {
        RunData on17 = submit(40, false);
        RunData on25 = submit(70, true);
        Interference.Policy policy = new Interference.Policy(true, 0.10, 2);
        String md = Report.markdown(profiles(on17, on25), SUBMIT, SUBJECTS,
                new Report.Header("cmd", "date", "budget", "machine", "JDK 17 (x) and JDK 25 (y)", policy), List.of());
        int t17 = md.indexOf(Report.jdkHeading("17") + "\n\n| scenario | metric |");
        int t25 = md.indexOf(Report.jdkHeading("25") + "\n\n| scenario | metric |");
        assertTrue(t17 > 0 && t25 > t17, "JDK 17's table, then JDK 25's:\n" + md);
        String table17 = md.substring(t17, t25);
        String table25 = md.substring(t25, md.indexOf("**Against the anchors**"));
        assertTrue(table17.contains("| **40.0** (40.0–40.0) ×0.800 | 50.0 (50.0–50.0) ×1.00 |"), table17);
        assertTrue(table25.contains("| ~**70.0** (70.0–70.0) ×1.40 | 50.0 (50.0–50.0) ×1.00 |"),
                "the ~ in JDK 25's cell only:\n" + table25);
        assertFalse(table17.contains("~**"), table17);

        assertTrue(md.contains("| goal | limit | JDK 17: Forage | reference | ratio | result | JDK 25: Forage | "
                + "reference | ratio | result | on both |"), md);
        String goal = md.lines().filter(l -> l.startsWith("| submit-1m: ")).findFirst().orElseThrow();
        assertTrue(goal.contains("| 40.0 ms | ForkJoinPool 50.0 ms | 0.800 (0.800) | **PASS** |"), goal);
        assertTrue(goal.contains("| 70.0 ms | ForkJoinPool 50.0 ms | 1.40 (1.40) | unreliable: "), goal);
        assertTrue(goal.endsWith("| met on 17, unreliable on 25 |"), goal);
        assertTrue(md.contains("- submit-1m (JDK 25): Forage (JEC) 80.0 % ~ (3 attempts)"), md);
    }

    @Test
    void twoProfilesOnTwoJdksKeepTheProfileColumnInEachJdksTable() {
        RunData full17 = submit(40, false);
        RunData short17 = submit(45, false);
        RunData full25 = submit(42, false);
        RunData short25 = submit(80, false);
        List<Report.Profile> profiles = List.of(
                new Report.Profile("full", "17", full17, Targets.evaluate(full17, SUBMIT, SUBJECTS)),
                new Report.Profile("short", "17", short17, Targets.evaluate(short17, SUBMIT, SUBJECTS)),
                new Report.Profile("full", "25", full25, Targets.evaluate(full25, SUBMIT, SUBJECTS)),
                new Report.Profile("short", "25", short25, Targets.evaluate(short25, SUBMIT, SUBJECTS)));
        String md = Report.markdown(profiles, SUBMIT, SUBJECTS,
                new Report.Header("cmd", "date", "budget", "machine", "jvm"), List.of());
        assertTrue(md.contains(Report.jdkHeading("25") + "\n\n| scenario | profile | metric |"), md);
        assertTrue(md.contains("| goal | profile | limit | JDK 17: Forage |"), md);
        List<String> goals = md.lines().filter(l -> l.startsWith("| submit-1m: ")).toList();
        assertEquals(2, goals.size(), md);
        assertTrue(goals.get(0).contains("| full |") && goals.get(0).endsWith("| **met on both** |"), goals.get(0));
        assertTrue(goals.get(1).contains("| short |") && goals.get(1).endsWith("| **met on 17 only** |"),
                goals.get(1));
    }

    @Test
    void theHeaderNamesEachJdkAsItsChildrenReportedItOrSaysThereWasOnlyOne() {
        Jdk j17 = new Jdk("/jdk17/bin/java", 17, "17.0.15+6");
        Jdk j25 = new Jdk("/jdk25/bin/java", 25, "25+36-LTS");
        RunData d17 = new RunData();
        d17.add(ResultLine.info("fib-join", "forkjoin", 2, "jvm", "OpenJDK 64-Bit Server VM 17.0.15+6-Debian"));
        RunData d25 = new RunData(); // no child reported: the JDK's own version stands in
        Map<Budget, Map<Jdk, RunData>> byProfile = new LinkedHashMap<>();
        Map<Jdk, RunData> perJdk = new LinkedHashMap<>();
        perJdk.put(j17, d17);
        perJdk.put(j25, d25);
        byProfile.put(Budget.FULL, perJdk);
        String both = Compare.jvmText(Jdk.choose(null, Budget.FULL, j17, j25), byProfile);
        assertEquals("JDK 17 (OpenJDK 64-Bit Server VM 17.0.15+6-Debian) and JDK 25 (25+36-LTS), every row measured "
                + "on each, in the same rounds", both);
        Jdk.Choice alone = Jdk.choose(null, Budget.FULL, j17, null);
        String one = Compare.jvmText(alone, Map.of(Budget.FULL, Map.of(j17, d17)));
        assertEquals("OpenJDK 64-Bit Server VM 17.0.15+6-Debian (JDK 17 only: no JDK 25 found; set FORAGE_JDK25 to a "
                + "JDK 25 home to measure on both)", one);
    }
}
