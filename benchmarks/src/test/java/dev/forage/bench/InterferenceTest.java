package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Interference: reading /proc's counters, what others used, and what a disturbed run does to the report. */
class InterferenceTest {
    private static final Subject FORAGE = Subjects.primaryForage();
    private static final Subject FJP = Subjects.byId("forkjoin");
    private static final Subject COMMON = Subjects.byId("common");
    private static final List<Subject> SUBJECTS = List.of(FORAGE, FJP, COMMON);
    private static final Interference.Policy POLICY = new Interference.Policy(true, 0.10, 2);

    /** /proc/stat of a 2-CPU machine: user nice system idle iowait irq softirq steal guest guest_nice. */
    private static String stat(long user, long nice, long system, long idle, long iowait, long irq, long softirq,
            long steal, long guest, long guestNice) {
        return "cpu  " + user + " " + nice + " " + system + " " + idle + " " + iowait + " " + irq + " " + softirq + " "
                + steal + " " + guest + " " + guestNice + "\n"
                + "cpu0 1 0 1 1 0 0 0 0 0 0\n"
                + "cpu1 1 0 1 1 0 0 0 0 0 0\n"
                + "intr 17111063 0 0 0\n"
                + "ctxt 81639619\n"
                + "btime 1700000000\n"
                + "processes 12345\n";
    }

    private static String pidStat(String comm, long utime, long stime, long cutime, long cstime) {
        // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime
        // cstime priority nice num_threads ...
        return "4242 (" + comm + ") S 1 4242 4242 0 -1 4194560 1000 200 3 0 " + utime + " " + stime + " " + cutime
                + " " + cstime + " 20 0 25 0 123456 5000000000 40000 18446744073709551615 1 1 0 0 0 0 0 4096 "
                + "17612 0 0 0 17 1 0 0 0 0 0\n";
    }

    @Test
    void busyTicksLeaveOutIdleIowaitAndTheGuestTimeAlreadyInUser() {
        Interference.Machine m = Interference.parseStat(stat(1000, 20, 300, 5000, 40, 6, 7, 8, 400, 9));
        assertEquals(1000 + 20 + 300 + 6 + 7 + 8, m.busy(), "user nice system irq softirq steal");
        assertEquals(m.busy() + 5000 + 40, m.total(), "busy + idle + iowait");
        assertEquals(2, m.cpus(), "the cpuN lines");
    }

    @Test
    void anOlderKernelsShorterCpuLineReadsAsZerosForTheFieldsItLacks() {
        Interference.Machine m = Interference.parseStat("cpu 100 0 50 800 10 0 2\ncpu0 1 2 3 4\n");
        assertEquals(152, m.busy());
        assertEquals(962, m.total());
        assertEquals(1, m.cpus());
        assertThrows(IllegalArgumentException.class, () -> Interference.parseStat("intr 1 2 3\n"));
    }

    @Test
    void ownTicksAreUtimeStimeAndTheReapedChildrensCountedFromTheLastParenthesis() {
        assertEquals(11 + 22 + 33 + 44, Interference.parseOwnTicks(pidStat("java", 11, 22, 33, 44)));
        // A command name may hold spaces and parentheses: the fields count from the last ')'.
        assertEquals(1 + 2 + 3 + 4, Interference.parseOwnTicks(pidStat("a (b) c) 9 9 9", 1, 2, 3, 4)));
        assertThrows(IllegalArgumentException.class, () -> Interference.parseOwnTicks("4242 java S 1"));
    }

    @Test
    void othersAreTheMachinesBusyTicksLessTheRunnersAndItsChildrensAsAShareOfAllTicks() {
        // Over a 2-CPU window of 500 ticks per CPU (1000 in all): 700 busy ticks, of which the runner and its
        // reaped measuring JVM used 600, so others used 100: a tenth of the machine, a fifth of a core.
        Interference.Snapshot before = new Interference.Snapshot(
                Interference.parseStat(stat(1000, 0, 200, 3000, 0, 0, 0, 0, 0, 0)),
                Interference.parseOwnTicks(pidStat("java", 50, 10, 0, 0)));
        Interference.Snapshot after = new Interference.Snapshot(
                Interference.parseStat(stat(1600, 0, 300, 3300, 0, 0, 0, 0, 0, 0)),
                Interference.parseOwnTicks(pidStat("java", 60, 20, 480, 100)));
        Interference.Reading r = Interference.between(before, after);
        assertEquals(100, r.othersTicks());
        assertEquals(1000, r.totalTicks());
        assertEquals(0.10, r.share(), 1e-12);
        assertEquals(0.20, r.cores(), 1e-12);
        assertEquals("20.0 %", r.percentOfCore());
        assertTrue(POLICY.disturbs(r));
    }

    @Test
    void theTwoAccountingsRoundingApartNeverGivesNegativeInterference() {
        Interference.Snapshot before = new Interference.Snapshot(new Interference.Machine(100, 1000, 2), 0);
        Interference.Snapshot after = new Interference.Snapshot(new Interference.Machine(300, 2000, 2), 203);
        Interference.Reading r = Interference.between(before, after);
        assertEquals(0, r.othersTicks());
        assertFalse(POLICY.disturbs(r));
    }

    @Test
    void aRunIsDisturbedOnlyAboveTheThresholdAndOnlyWhenMeasured() {
        // 2 CPUs, 1000 ticks in all: 50 ticks of others are 0.1 cores exactly, the threshold itself.
        assertFalse(POLICY.disturbs(new Interference.Reading(50, 1000, 2)));
        assertTrue(POLICY.disturbs(new Interference.Reading(51, 1000, 2)));
        assertFalse(POLICY.disturbs(null));
        assertFalse(Interference.Policy.unmeasured().disturbs(new Interference.Reading(900, 1000, 2)));
    }

    @Test
    void theMachineIsTooBusyOnlyWhenMoreThanAQuarterOfTheCellsStayedDisturbed() {
        RunData d = new RunData();
        for (int i = 0; i < 8; i++) {
            d.interference("s" + i, "x", run(1, 0.02, 1, false));
        }
        d.interference("s0", "x", run(2, 0.5, 3, true)); // one cell of eight, second fork
        d.interference("s1", "x", run(2, 0.5, 3, true));
        Interference.Summary two = Interference.summarize(List.of(d));
        assertEquals(8, two.cells());
        assertEquals(2, two.disturbedCells());
        assertEquals(10, two.runs());
        assertEquals(2, two.rerunRuns());
        assertEquals(0.5, two.maxCores(), 1e-12);
        assertFalse(two.tooBusy(), "2 of 8 is a quarter, not more");
        d.interference("s2", "x", run(2, 0.3, 3, true));
        assertTrue(Interference.summarize(List.of(d)).tooBusy(), "3 of 8");
    }

    private static Interference.Run run(int fork, double cores, int attempts, boolean disturbed) {
        return new Interference.Run(fork, new Interference.Reading(Math.round(cores * 500), 1000, 2), attempts,
                disturbed);
    }

    private static void put(RunData d, String scenario, Subject s, double value, boolean disturbed) {
        d.add(ResultLine.result(scenario, s.id(), 2, "time", List.of(value)));
        d.interference(scenario, s.id(), run(1, disturbed ? 0.8 : 0.01, disturbed ? 3 : 1, disturbed));
    }

    private static Targets.Verdict only(RunData d, String scenario) {
        List<Targets.Verdict> v = Targets.evaluate(d, List.of(Scenarios.byId(scenario)), SUBJECTS);
        assertEquals(1, v.size());
        return v.get(0);
    }

    @Test
    void aGoalThatReadsADisturbedCellIsUnreliableInsteadOfAMiss() {
        RunData d = new RunData();
        put(d, "submit-1m", FJP, 50, false);
        put(d, "submit-1m", COMMON, 60, false);
        put(d, "submit-1m", FORAGE, 80, true); // a MISS if the load next door were Forage's
        Targets.Verdict v = only(d, "submit-1m");
        assertEquals(Targets.UNRELIABLE, v.verdict);
        assertTrue(v.note.contains(FORAGE.label()), v.note);
        assertEquals(1.6, v.ratio, 1e-12, "the ratio is still shown");
    }

    @Test
    void aDisturbedAnchorThatWasNotTheBestStillMakesTheGoalUnreliable() {
        // The common pool's 60 might have been 40 without the load: Forage's PASS against 50 would not hold.
        RunData d = new RunData();
        put(d, "submit-1m", FJP, 50, false);
        put(d, "submit-1m", COMMON, 60, true);
        put(d, "submit-1m", FORAGE, 45, false);
        assertEquals(Targets.UNRELIABLE, only(d, "submit-1m").verdict);
    }

    @Test
    void undisturbedCellsAreJudgedAsBefore() {
        RunData d = new RunData();
        put(d, "submit-1m", FJP, 50, false);
        put(d, "submit-1m", COMMON, 60, false);
        put(d, "submit-1m", FORAGE, 51, false);
        assertEquals("MISS", only(d, "submit-1m").verdict);
        List<Targets.Verdict> all = Targets.unreliable(List.of(only(d, "submit-1m")), "busy");
        assertEquals(Targets.UNRELIABLE, all.get(0).verdict);
        assertEquals("busy", all.get(0).note);
    }

    @Test
    void theReportMarksDisturbedCellsAndOpensWithTheBusyLineWhenTooManyAre() {
        RunData d = new RunData();
        put(d, "fib-join", FJP, 2.0, true);
        put(d, "fib-join", COMMON, 2.5, false);
        put(d, "fib-join", FORAGE, 3.0, true);
        Report.Header header = new Report.Header("cmd", "date", "budget", "machine", "jvm", POLICY);
        List<Scenario> scenarios = List.of(Scenarios.byId("fib-join"));
        String md = Report.markdown(List.of(new Report.Profile("", d, Targets.evaluate(d, scenarios, SUBJECTS))),
                scenarios, SUBJECTS, header, List.of());
        assertTrue(md.startsWith("**The machine was too busy for these results to mean anything.**"), md);
        assertTrue(md.contains("during the runs of 2 of 3 cells"), md);
        assertTrue(md.contains("| ~**3.00** (3.00–3.00) ×1.50 | ~2.00 (2.00–2.00) ×1.00 | 2.50 (2.50–2.50) ×1.25 |"),
                md);
        assertTrue(md.contains("~: other processes used more than 10.0 % of one core"), md);
        assertTrue(md.contains("Interference (CPU of other processes during each run): median 80.0 %, at most 80.0 %"
                + " of one core; threshold 10.0 % of one core, 2 rerun(s) at most; 2 of 3 runs measured again, 2 of 3 "
                + "cells still above it (~)"), md);
        assertTrue(md.contains("| unreliable: other processes took CPU from Forage (JEC), ForkJoinPool (~ in the table) |"),
                md);
        assertFalse(md.contains("**MISS**") || md.contains("**PASS**"), md);
        assertTrue(md.contains("- fib-join: Forage (JEC) 80.0 % ~ (3 attempts); ForkJoinPool 80.0 % ~ (3 attempts); "
                + "commonPool 1.00 %"), md);
    }

    @Test
    void aQuietRunSaysHowQuietAndMarksNothing() {
        RunData d = new RunData();
        put(d, "fib-join", FJP, 2.0, false);
        put(d, "fib-join", FORAGE, 1.0, false);
        List<Scenario> scenarios = List.of(Scenarios.byId("fib-join"));
        String md = Report.markdown(List.of(new Report.Profile("", d, Targets.evaluate(d, scenarios, SUBJECTS))),
                scenarios, SUBJECTS, new Report.Header("cmd", "date", "budget", "machine", "jvm", POLICY), List.of());
        assertTrue(md.startsWith("Command: `cmd`"), md);
        assertFalse(md.contains("| ~"), md);
        assertTrue(md.contains("0 of 2 cells still above it (~)"), md);
        assertTrue(md.contains("**PASS**"), md);
    }

    @Test
    void withoutProcStatTheHeaderSaysInterferenceIsUnmeasured() {
        RunData d = new RunData();
        d.add(ResultLine.result("fib-join", FJP.id(), 2, "time", List.of(2.0)));
        d.interference("fib-join", FJP.id(), new Interference.Run(1, null, 1, false));
        String md = Report.summary(List.of(new Report.Profile("", d, List.of())), List.of(Scenarios.byId("fib-join")),
                List.of(FJP), new Report.Header("cmd", "date", "budget", "machine", "jvm",
                        Interference.Policy.unmeasured()));
        assertTrue(md.contains("Interference: unmeasured (no /proc/stat on this system)"), md);
        assertTrue(md.startsWith("Command: "), md);
    }

    @Test
    void theThresholdAndTheRerunsAreOptions() {
        Options o = Options.parse(new String[] {"--max-interference", "25", "--reruns", "0"});
        assertEquals(0.25, o.maxInterferenceCores, 1e-12);
        assertEquals(0, o.reruns);
        Options d = Options.parse(new String[] {});
        assertEquals(Interference.DEFAULT_MAX_CORES, d.maxInterferenceCores, 1e-12);
        assertEquals(Interference.DEFAULT_RERUNS, d.reruns);
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--max-interference", "-1"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--reruns", "x"}));
    }
}
