package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
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
