package dev.forage.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/architecture.md}'s "Files by layer" map true to the code: every main source file of the core,
 * of the Java facade and of the context decorators is named there exactly once, under one layer, and every name
 * there is a file that exists. A file added without a layer, or a layer map that still names a removed file, fails
 * the build, so a newcomer can trust the map to say, for any file, its layer and so what it may touch.
 * The seams between the layers are pinned by {@code EngineSeamsTest}.
 */
class ArchitectureMapTest {
    /** Module folders whose main sources the map covers (the working directory is dispatcher-jvm). */
    private static final Path ROOT = Paths.get("..");
    private static final List<Path> SOURCE_ROOTS = List.of(
            ROOT.resolve("dispatcher-jvm/src/main/java"),
            ROOT.resolve("dispatcher-jvm/src/main/java11"),
            ROOT.resolve("dispatcher-jvm/src/main/kotlin"),
            ROOT.resolve("interop-java/src/main/java"),
            ROOT.resolve("forage-context/src/main/java"));
    private static final Path MAP = ROOT.resolve("docs/architecture.md");
    private static final String SECTION = "## Files by layer";
    private static final String LONG_FILES = "## Files over 450 lines";
    private static final int MAX_LINES = 450;

    /** A table row of the map: {@code | layer | `A`, `B`, ... | what it may use |}; only the second cell names files. */
    private static final Pattern ROW = Pattern.compile("^\\|\\s*([^|]+?)\\s*\\|([^|]*)\\|.*$");
    private static final Pattern NAME = Pattern.compile("`([A-Za-z0-9_.]+)`");

    @Test
    void everyMainSourceFileHasExactlyOneLayer() throws IOException {
        Map<String, List<String>> layersOf = layersByFile();
        TreeSet<String> files = mainSourceFiles();

        List<String> missing = files.stream().filter(f -> !layersOf.containsKey(f)).collect(Collectors.toList());
        assertTrue(missing.isEmpty(), "main source files with no layer in " + MAP + " (" + SECTION + "): " + missing);

        List<String> twice = layersOf.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.toList());
        assertTrue(twice.isEmpty(), "files named under more than one layer: " + twice);

        List<String> stale = layersOf.keySet().stream().filter(f -> !files.contains(f)).collect(Collectors.toList());
        assertTrue(stale.isEmpty(), "the map names files that do not exist: " + stale);
    }

    /**
     * A main file over {@value #MAX_LINES} lines is either split by job or named, with its reason, in the map's
     * section "{@value #LONG_FILES}": one thing that a reader is better served by reading whole.
     */
    @Test
    void longFilesAreNamedWithTheirReason() throws IOException {
        List<String> lines = Files.readAllLines(MAP);
        int start = lines.indexOf(LONG_FILES);
        TreeSet<String> excused = new TreeSet<>();
        for (int i = start + 1; start >= 0 && i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            Matcher row = ROW.matcher(lines.get(i));
            if (row.matches() && !row.group(2).trim().isEmpty()) {
                Matcher name = NAME.matcher(row.group(1));
                if (name.find()) excused.add(name.group(1));
            }
        }
        List<String> tooLong = new ArrayList<>();
        for (Path file : sources()) {
            int count = Files.readAllLines(file).size();
            if (count > MAX_LINES && !excused.contains(simpleName(file))) tooLong.add(simpleName(file) + " (" + count + ")");
        }
        assertTrue(tooLong.isEmpty(), "main files over " + MAX_LINES + " lines, neither split nor named in "
                + MAP + " (" + LONG_FILES + ") with a reason: " + tooLong);
    }

    private static Map<String, List<String>> layersByFile() throws IOException {
        List<String> lines = Files.readAllLines(MAP);
        int start = lines.indexOf(SECTION);
        assertTrue(start >= 0, MAP + " has no section '" + SECTION + "'");
        Map<String, List<String>> layersOf = new TreeMap<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            Matcher row = ROW.matcher(lines.get(i));
            if (!row.matches()) continue;
            String layer = row.group(1);
            Matcher name = NAME.matcher(row.group(2));
            while (name.find()) layersOf.computeIfAbsent(name.group(1), k -> new ArrayList<>()).add(layer);
        }
        assertTrue(!layersOf.isEmpty(), MAP + ": the section '" + SECTION + "' lists no files");
        return layersOf;
    }

    private static TreeSet<String> mainSourceFiles() throws IOException {
        TreeSet<String> names = new TreeSet<>();
        for (Path file : sources()) {
            boolean added = names.add(simpleName(file));
            assertTrue(added, "two main source files are named " + simpleName(file) + ": the map needs unique names");
        }
        return names;
    }

    private static List<Path> sources() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".kt"))
                        .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                        .forEach(all::add);
            }
        }
        return all;
    }

    private static String simpleName(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.lastIndexOf('.'));
    }
}
