package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/integrations.md shows code from the build's tests and poms: each Java or XML block after
 * {@code <!-- snippet-in: PATH -->} must appear in that file, line by line (indentation aside), so the page's
 * examples are code that compiles and runs, and its Maven coordinates are the ones a consumer project builds with.
 */
class DocsSnippetsTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern BLOCK =
            Pattern.compile("<!--\\s*snippet-in:\\s*(\\S+)\\s*-->\\s*```(?:java|xml)\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyMarkedBlockOfTheIntegrationsPageIsInItsTestFile() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/integrations.md"));
        Matcher m = BLOCK.matcher(page);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            List<String> snippet = stripped(m.group(2));
            List<String> file = stripped(Files.readString(ROOT.resolve(m.group(1))));
            assertTrue(containsRun(file, snippet), "docs/integrations.md: this block is not in " + m.group(1)
                    + ":\n" + m.group(2));
        }
        assertTrue(blocks >= 4, "the page's marked blocks were found (" + blocks + ")");
    }

    private static List<String> stripped(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }

    private static boolean containsRun(List<String> file, List<String> run) {
        for (int i = 0; i + run.size() <= file.size(); i++) {
            if (file.subList(i, i + run.size()).equals(run)) {
                return true;
            }
        }
        return false;
    }
}
