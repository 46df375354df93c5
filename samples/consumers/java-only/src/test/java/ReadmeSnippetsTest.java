import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's code is the code this build compiles and runs, so the two cannot drift.
 *
 * <p>In README.md, an HTML comment (invisible when rendered) right before a fenced block names a file of the
 * repository:
 * <ul>
 *   <li>{@code <!-- snippet: PATH -->}: the block is that whole file (a consumer project's source);</li>
 *   <li>{@code <!-- snippet-in: PATH -->}: the block appears in that file (a dependency in a consumer's pom).</li>
 * </ul>
 * Both compare with all whitespace runs folded to one space. Every fenced block under a "Quick start" heading
 * must carry a marker, and every source file of the consumer projects must be shown by one. The minimal projects
 * of "Get it" ({@code samples/consumers/minimal-*}) are a {@code pom.xml} each, shown whole, that a user copies:
 * no parent, no plugin of this build's own; {@code run-minimal.sh} builds and runs them after the install.
 */
class ReadmeSnippetsTest {

    private static final Pattern MARKER = Pattern.compile("<!--\\s*snippet(-in)?:\\s*(\\S+)\\s*-->");

    private static final class Block {
        final int line;
        final String heading;
        final String marker;       // null when unmarked
        final boolean contained;
        final String text;

        Block(int line, String heading, String marker, boolean contained, String text) {
            this.line = line;
            this.heading = heading;
            this.marker = marker;
            this.contained = contained;
            this.text = text;
        }
    }

    @Test
    void everyMarkedBlockMatchesItsFile() throws IOException {
        Path root = repositoryRoot();
        int checked = 0;
        for (Block block : blocks(root.resolve("README.md"))) {
            if (block.marker == null) continue;
            Path file = root.resolve(block.marker);
            assertTrue(Files.isRegularFile(file), "README.md line " + block.line + " names a missing file: " + file);
            String source = normalise(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
            String shown = normalise(block.text);
            if (block.contained) {
                assertTrue(source.contains(shown), "README.md line " + block.line + ": this block is not in "
                        + block.marker + " (whitespace ignored):\n" + block.text);
            } else {
                assertEquals(source, shown, "README.md line " + block.line + " differs from " + block.marker
                        + " (whitespace ignored): change both together");
            }
            checked++;
        }
        assertTrue(checked >= 8, "expected the Java, futures and Kotlin quick starts, the two minimal poms, the"
                + " forage-context dependency and the Java and Kotlin install lines; checked " + checked);
    }

    @Test
    void everyQuickStartBlockIsMarked() throws IOException {
        List<String> unmarked = new ArrayList<>();
        int quickStartBlocks = 0;
        for (Block block : blocks(repositoryRoot().resolve("README.md"))) {
            if (!block.heading.startsWith("Quick start")) continue;
            quickStartBlocks++;
            if (block.marker == null) unmarked.add("line " + block.line + " under \"" + block.heading + "\"");
        }
        assertTrue(quickStartBlocks >= 3, "the README has lost its quick starts: " + quickStartBlocks + " blocks");
        assertEquals(new ArrayList<String>(), unmarked, "quick-start code that no build compiles");
    }

    @Test
    void everyConsumerSourceIsShownInTheReadme() throws IOException {
        Path root = repositoryRoot();
        Set<String> shown = blocks(root.resolve("README.md")).stream()
                .filter(b -> b.marker != null && !b.contained)
                .map(b -> b.marker)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> sources = new TreeSet<>();
        for (String consumer : new String[] {"java-only", "kotlin"}) {
            Path main = root.resolve("samples/consumers/" + consumer + "/src/main");
            try (Stream<Path> files = Files.walk(main)) {
                files.filter(Files::isRegularFile)
                        .forEach(f -> sources.add(root.relativize(f).toString().replace('\\', '/')));
            }
        }
        assertTrue(sources.size() >= 3, "consumer sources: " + sources);
        Set<String> missing = new TreeSet<>(sources);
        missing.removeAll(shown);
        assertEquals(new TreeSet<String>(), missing, "consumer sources the README does not show");
    }

    /** The plugins a minimal project may name: what compiles it and what runs its program. */
    private static final Set<String> MINIMAL_PLUGINS = new TreeSet<>(java.util.Arrays.asList(
            "maven-compiler-plugin", "kotlin-maven-plugin", "exec-maven-plugin"));

    private static final Pattern PLUGIN = Pattern.compile(
            "<plugin>\\s*(?:<!--.*?-->\\s*)*<groupId>[^<]*</groupId>\\s*<artifactId>([^<]+)</artifactId>", Pattern.DOTALL);

    @Test
    void everyMinimalProjectIsAPomShownWholeWithNothingOfThisBuild() throws IOException {
        Path root = repositoryRoot();
        Set<String> shown = blocks(root.resolve("README.md")).stream()
                .filter(b -> b.marker != null && !b.contained)
                .map(b -> b.marker)
                .collect(Collectors.toCollection(TreeSet::new));
        List<Path> projects;
        try (Stream<Path> dirs = Files.list(root.resolve("samples/consumers"))) {
            projects = dirs.filter(d -> d.getFileName().toString().startsWith("minimal-")).sorted()
                    .collect(Collectors.toList());
        }
        assertEquals(2, projects.size(), "the Java and the Kotlin minimal project: " + projects);
        for (Path project : projects) {
            String pom = root.relativize(project.resolve("pom.xml")).toString().replace('\\', '/');
            try (Stream<Path> files = Files.list(project)) {
                assertEquals(java.util.Collections.singletonList("pom.xml"), files
                        .map(f -> f.getFileName().toString()).filter(n -> !n.equals("target"))
                        .collect(Collectors.toList()), project + " holds its pom.xml only (the quick start is the code)");
            }
            assertTrue(shown.contains(pom), "the README does not show " + pom + " whole (a <!-- snippet: --> block)");
            String text = new String(Files.readAllBytes(root.resolve(pom)), StandardCharsets.UTF_8);
            assertTrue(!text.contains("<parent>"), pom + " has a parent: a user's project has none of ours");
            Set<String> plugins = new TreeSet<>();
            Matcher m = PLUGIN.matcher(text);
            while (m.find()) plugins.add(m.group(1));
            assertTrue(!plugins.isEmpty(), pom + ": no plugin found; has the pattern stopped matching?");
            Set<String> extra = new TreeSet<>(plugins);
            extra.removeAll(MINIMAL_PLUGINS);
            assertEquals(new TreeSet<String>(), extra, pom + " names plugins a minimal project does not need");
        }
    }

    /** Fenced blocks of a Markdown file, each with the heading it sits under and the marker just before it. */
    private static List<Block> blocks(Path markdown) throws IOException {
        List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        String heading = "";
        String marker = null;
        boolean contained = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = MARKER.matcher(line.trim());
            if (m.matches()) {
                marker = m.group(2);
                contained = m.group(1) != null;
            } else if (line.startsWith("#")) {
                heading = line.replaceFirst("^#+\\s*", "");
                marker = null;
            } else if (line.startsWith("```")) {
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).startsWith("```")) end++;
                if (end == lines.size()) fail(markdown + ": unclosed code block at line " + (i + 1));
                blocks.add(new Block(i + 1, heading, marker, contained, String.join("\n", lines.subList(start, end))));
                marker = null;
                i = end;
            } else if (!line.trim().isEmpty()) {
                marker = null;   // a marker applies to the very next block only
            }
        }
        return blocks;
    }

    private static String normalise(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    /** The clone's root: the first directory upwards that holds README.md and samples/consumers. */
    static Path repositoryRoot() {
        Path dir = Paths.get("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("samples/consumers"))) {
                return d;
            }
        }
        throw new IllegalStateException("no repository root above " + dir);
    }
}
