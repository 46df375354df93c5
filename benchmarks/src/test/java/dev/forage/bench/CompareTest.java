package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CompareTest {
    @Test
    void subjectsAlternateWithinEachScenario() {
        Options o = Options.parse(new String[] {"--scenarios", "submit-1m,idle", "--subjects", "forkjoin,fixed",
                "--forks", "2"});
        List<String> order = new ArrayList<>();
        for (Compare.Planned p : Compare.plan(o)) {
            order.add(p.scenario.id() + ":" + p.subject.id() + ":" + p.fork);
        }
        assertEquals(List.of(
                "submit-1m:forkjoin:1", "submit-1m:fixed:1", "submit-1m:forkjoin:2", "submit-1m:fixed:2",
                "idle:forkjoin:1", "idle:fixed:1", "idle:forkjoin:2", "idle:fixed:2"), order);
    }

    @Test
    void theShortProfileRunsBesideTheMainOneInTheSameRoundsAndTellsTheChild() {
        Options o = Options.parse(new String[] {"--short", "--scenarios", "fib-join", "--subjects", "forkjoin,common",
                "--forks", "2"});
        List<String> order = new ArrayList<>();
        for (Compare.Planned p : Compare.plan(o)) {
            order.add(p.subject.id() + ":" + p.fork + ":" + p.budget.name);
        }
        assertEquals(List.of(
                "forkjoin:1:full", "common:1:full", "forkjoin:1:short", "common:1:short",
                "forkjoin:2:full", "common:2:full", "forkjoin:2:short", "common:2:short"), order);
        List<String> cmd = Compare.childCommand(o, Compare.plan(o).get(2));
        assertEquals("short", cmd.get(cmd.size() - 1));
        assertEquals(List.of(Budget.QUICK, Budget.SHORT), Options.parse(new String[] {"--quick", "--short"}).profiles());
        assertEquals(List.of(Budget.QUICK), Options.parse(new String[] {"--quick"}).profiles());
    }

    /**
     * The README's command (--quick) is the demo: Forage and the three anchors a user would pick, a few scenarios
     * covering every group of the table; --all brings back the whole quick run, and what the command line picks
     * stays picked.
     */
    @Test
    void quickIsTheDemoAndAllIsTheWholeQuickRun() {
        Options demo = Options.parse(new String[] {"--quick"});
        assertTrue(demo.isDemo());
        assertEquals(List.of("forage-jec", "forkjoin", "default", "fixed"),
                demo.subjects.stream().map(Subject::id).toList());
        List<Scenario.Group> groups = demo.scenarios.stream().map(Scenario::group).distinct().toList();
        assertEquals(Set.of(Scenario.Group.values()), Set.copyOf(groups), "every group of the table");
        assertTrue(demo.scenarios.size() < Scenarios.ALL.size(), demo.scenarios.toString());

        Options all = Options.parse(new String[] {"--quick", "--all"});
        assertFalse(all.isDemo());
        assertEquals(Scenarios.ALL, all.scenarios);
        assertEquals(Subjects.DEFAULT, all.subjects);
        assertFalse(Options.parse(new String[] {"--full"}).isDemo());
        assertFalse(Options.parse(new String[0]).isDemo(), "no option: the full run, as before");

        Options picked = Options.parse(new String[] {"--quick", "--scenarios", "yield", "--subjects", "common"});
        assertEquals(List.of("yield"), picked.scenarios.stream().map(Scenario::id).toList());
        assertEquals(List.of("common"), picked.subjects.stream().map(Subject::id).toList());
    }

    /** The demo judges what a minute of medians can tell; a p99 from one JVM's few hundred wake-ups it cannot. */
    @Test
    void theDemoLeavesTheP99GoalsUnjudgedAndJudgesTheMedians() {
        RunData d = new RunData();
        for (String m : List.of("p50", "p99")) {
            d.add(ResultLine.result("wakeup-outside", "forage-jec", 2, m, List.of(10.0)));
            d.add(ResultLine.result("wakeup-outside", "forkjoin", 2, m, List.of(20.0)));
        }
        List<Subject> subjects = List.of(Subjects.byId("forage-jec"), Subjects.byId("forkjoin"));
        List<Targets.Verdict> judged = Targets.demo(Targets.evaluate(d, List.of(Scenarios.byId("wakeup-outside")),
                subjects), Budget.QUICK);
        assertEquals(2, judged.size());
        assertEquals("PASS", judged.get(0).verdict, judged.get(0).target);
        assertTrue(judged.get(0).target.contains("p50"), judged.get(0).target);
        assertEquals(Targets.NOT_JUDGED, judged.get(1).verdict, judged.get(1).target);
        assertTrue(judged.get(1).note.contains("900 samples"), judged.get(1).note);
        String md = Report.markdown(List.of(new Report.Profile("quick", d, judged)),
                List.of(Scenarios.byId("wakeup-outside")), subjects, new Report.Header("c", "d", "b", "m", "j"),
                List.of());
        assertTrue(md.contains("| " + Targets.NOT_JUDGED + ": a p99"), md);
        assertTrue(md.contains("Forage's goals against ForkJoinPool, judged"), "names the anchors run:\n" + md);
    }

    @Test
    void subjectsThatCannotRunAScenarioAreLeftOutOfThePlan() {
        Options o = Options.parse(new String[] {"--scenarios", "fib-join", "--subjects", "fixed,forkjoin"});
        List<Compare.Planned> plan = Compare.plan(o);
        assertEquals(Budget.FULL.forks, plan.size());
        assertTrue(plan.stream().allMatch(p -> p.subject.id().equals("forkjoin")));
    }

    @Test
    void wideScenariosAskForEightWorkersAndTheChildIsSizedForThem() {
        Options o = Options.parse(new String[] {"--quick", "--scenarios", "lowload-1ms-w8", "--subjects", "default",
                "--threads", "2"});
        Compare.Planned p = Compare.plan(o).get(0);
        assertEquals(8, p.threads);
        List<String> cmd = Compare.childCommand(o, p);
        assertTrue(cmd.contains("-Dkotlinx.coroutines.scheduler.core.pool.size=8"), cmd.toString());
        assertTrue(cmd.contains("-Djava.util.concurrent.ForkJoinPool.common.parallelism=8"), cmd.toString());
        assertTrue(cmd.contains("-Xss1m") && cmd.contains("-Xmx1g"), cmd.toString());
        assertTrue(cmd.contains("-XX:+AlwaysPreTouch"), "a fresh heap's page faults must not fall in timed parts: " + cmd);
        assertEquals(List.of("dev.forage.bench.Child", "lowload-1ms-w8", "default", "8", "quick"),
                cmd.subList(cmd.size() - 5, cmd.size()));
    }

    @Test
    void badOptionsSayWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--scenarios", "nope"}));
        assertTrue(e.getMessage().contains("known:"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--threads", "0"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--forks"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--bogus"}));
    }

    @Test
    void docsAreRewrittenOnlyBetweenTheMarkers() {
        String doc = "intro\n" + Compare.RESULTS_BEGIN + "\nold table\n" + Compare.RESULTS_END + "\noutro\n";
        String out = Compare.replaceBetween(doc, Compare.RESULTS_BEGIN, Compare.RESULTS_END, "new table\n");
        assertEquals("intro\n" + Compare.RESULTS_BEGIN + "\nnew table\n" + Compare.RESULTS_END + "\noutro\n", out);
        assertThrows(IllegalArgumentException.class,
                () -> Compare.replaceBetween("no markers", Compare.RESULTS_BEGIN, Compare.RESULTS_END, "x"));
    }
}
