package dev.forage.bench.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.bench.Report;
import dev.forage.bench.scenario.Scenarios;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The scenario list on the results page is the one the runner generates from the scenario classes: a scenario
 * added, renamed or re-described without the page following fails here (the runner's {@code --write-docs}
 * rewrites it).
 */
class ScenarioListTest {
    @Test
    void theResultsPageListsTheScenariosAsTheirClassesDescribeThem() throws Exception {
        String page = Files.readString(DocNumbersTest.root().resolve("docs/benchmarks.md"), StandardCharsets.UTF_8);
        String begin = "<!-- compare:scenarios:begin -->\n";
        String end = "<!-- compare:scenarios:end -->";
        int b = page.indexOf(begin);
        int e = page.indexOf(end);
        String listed = page.substring(b + begin.length(), e);
        assertEquals(Report.scenarioList(Scenarios.ALL), listed,
                "docs/benchmarks.md's scenario list differs from the scenario classes'");
    }
}
