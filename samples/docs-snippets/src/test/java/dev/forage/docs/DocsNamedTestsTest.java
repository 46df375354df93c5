package dev.forage.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A test the docs name as evidence exists: every {@code `SomeTest`}, {@code `SomeSpec`} or {@code `SomeCheck`} of
 * README.md and docs/ is a source file of the repository, and {@code `SomeTest.someMethod`} is a name in it.
 */
class DocsNamedTestsTest {

    private static final Pattern NAMED = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|Spec|Check))(?:\\.([A-Za-z0-9_]+))?`");

    @Test
    void everyTestTheDocsNameExists() throws IOException {
        Path root = Pages.root();
        Map<String, Path> sources = sources(root);
        List<String> missing = new ArrayList<>();
        int named = 0;
        for (String page : Pages.all(root)) {
            String markdown = new String(Files.readAllBytes(root.resolve(page)), StandardCharsets.UTF_8);
            for (String problem : problems(page, markdown, sources)) missing.add(problem);
            Matcher m = NAMED.matcher(markdown);
            while (m.find()) named++;
        }
        assertEquals(new ArrayList<String>(), missing, "tests the docs name that the repository does not have");
        assertTrue(named >= 20, "the docs' named tests were found (" + named + ")");
    }

    @Test
    void aMissingTestOrMethodIsFound(@org.junit.jupiter.api.io.TempDir Path root) throws IOException {
        Path test = root.resolve("m/src/test/java/PoolTest.java");
        Files.createDirectories(test.getParent());
        Files.write(test, "class PoolTest { void closesOnce() {} }".getBytes(StandardCharsets.UTF_8));
        Map<String, Path> sources = sources(root);
        assertEquals(List.of(), problems("p.md", "`PoolTest` and `PoolTest.closesOnce` pin it", sources));
        assertEquals(2, problems("p.md", "`GoneTest`, `PoolTest.closesTwice`", sources).size());
    }

    static List<String> problems(String page, String markdown, Map<String, Path> sources) throws IOException {
        List<String> problems = new ArrayList<>();
        Matcher m = NAMED.matcher(markdown);
        while (m.find()) {
            Path file = sources.get(m.group(1));
            if (file == null) {
                problems.add(page + ": `" + m.group(1) + "` is no source file");
            } else if (m.group(2) != null
                    && !new String(Files.readAllBytes(file), StandardCharsets.UTF_8).contains(m.group(2))) {
                problems.add(page + ": " + m.group(1) + " has no " + m.group(2));
            }
        }
        return problems;
    }

    /** Every .java and .kt file outside build output, by its name without the extension. */
    static Map<String, Path> sources(Path root) throws IOException {
        Map<String, Path> sources = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> {
                String s = root.relativize(f).toString().replace('\\', '/');
                return (s.endsWith(".java") || s.endsWith(".kt"))
                        && !s.contains("/target/") && !s.startsWith("target/") && !s.contains("node_modules/")
                        && !s.startsWith(".");
            }).forEach(f -> sources.put(f.getFileName().toString().replaceFirst("\\.(java|kt)$", ""), f));
        }
        return sources;
    }
}
