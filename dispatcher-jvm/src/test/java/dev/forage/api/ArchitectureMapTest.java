package dev.forage.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Its "may use" column is checked both ways: a file that names a class of a layer its row does not list fails, and
 * so does a listed layer that no file of the row uses, so the column says what the code does. The seams between
 * the layers are pinned by {@code EngineSeamsTest}.
 */
class ArchitectureMapTest {
    /** Module folders whose main sources the map covers (the working directory is dispatcher-jvm). */
    private static final Path ROOT = Paths.get("..");
    private static final List<Path> SOURCE_ROOTS = List.of(
            ROOT.resolve("dispatcher-jvm/src/main/java"),
            ROOT.resolve("dispatcher-jvm/src/main/baselines"),
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
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import ([\\w.]+(?:\\.\\*)?)");
    private static final Pattern REFERENCE = Pattern.compile("`([A-Z]\\w*)(?:[.#]([a-zA-Z_]\\w*))?(?:\\(\\))?`");
    /** Types of the JDK, kotlinx.coroutines, crossbeam and OpenTelemetry that the page names. */
    private static final Set<String> OUTSIDE_TYPES =
            Set.of("Context", "Delay", "Dispatchers", "LockSupport", "Object", "SegQueue", "Selector");
    private static final Pattern WORD = Pattern.compile("\\b[A-Z]\\w*\\b");

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

    /**
     * The "may use" column, both ways. A name counts as a use when the file can see the class: its own package's,
     * or imported (by name or with a wildcard), or written with its package; comments and string literals are left
     * out, so a Javadoc link to another layer is no use.
     */
    @Test
    void everyLayerUsesExactlyTheLayersItsRowLists() throws IOException {
        Map<String, String> layerOf = new TreeMap<>();
        layersByFile().forEach((file, layers) -> layerOf.put(file, layers.get(0)));
        Map<String, Set<String>> mayUse = mayUseByLayer();
        Map<String, Path> files = new TreeMap<>();
        Map<String, String> packageOf = new TreeMap<>();
        for (Path file : sources()) {
            files.put(simpleName(file), file);
            Matcher p = PACKAGE.matcher(Files.readString(file));
            packageOf.put(simpleName(file), p.find() ? p.group(1) : "");
        }
        List<String> forbidden = new ArrayList<>();
        Map<String, Set<String>> used = new TreeMap<>();
        for (Map.Entry<String, Path> e : files.entrySet()) {
            String name = e.getKey();
            String layer = layerOf.get(name);
            if (layer == null) continue; // reported by everyMainSourceFileHasExactlyOneLayer
            String source = Files.readString(e.getValue());
            Set<String> imports = new TreeSet<>();
            Matcher imp = IMPORT.matcher(source);
            while (imp.find()) imports.add(imp.group(1));
            Matcher word = WORD.matcher(codeOnly(source));
            Set<String> seen = new TreeSet<>();
            while (word.find()) {
                String other = word.group();
                String otherLayer = layerOf.get(other);
                if (other.equals(name) || otherLayer == null || otherLayer.equals(layer) || !seen.add(other)) continue;
                String pkg = packageOf.get(other);
                boolean visible = pkg.equals(packageOf.get(name)) || imports.contains(pkg + "." + other)
                        || imports.contains(pkg + ".*") || source.contains(pkg + "." + other);
                if (!visible) continue;
                used.computeIfAbsent(layer, k -> new TreeSet<>()).add(otherLayer);
                if (!mayUse.getOrDefault(layer, Set.of()).contains(otherLayer)) {
                    forbidden.add(name + " (" + layer + ") uses " + other + " (" + otherLayer + ")");
                }
            }
        }
        assertTrue(forbidden.isEmpty(), "uses that " + MAP + " (" + SECTION + ", may use) does not allow: "
                + forbidden);
        List<String> unused = new ArrayList<>();
        mayUse.forEach((layer, allowed) -> {
            for (String other : allowed) {
                assertTrue(mayUse.containsKey(other), layer + " may use '" + other + "', which is no layer of the map");
                if (!used.getOrDefault(layer, Set.of()).contains(other)) unused.add(layer + " -> " + other);
            }
        });
        assertTrue(unused.isEmpty(), "layers that " + MAP + " says may be used but no file of the row uses (drop "
                + "them from 'may use', or the code has a use the check cannot see): " + unused);
    }

    /**
     * Every class and member the page names exists: a {@code `Class.member`} or {@code `Class#member`} whose class is
     * a main source file names an identifier of that file's code, and a lone {@code `Class`} is a main or test source
     * file, or one of the outside types the page cites ({@link #OUTSIDE_TYPES}).
     */
    @Test
    void everyClassAndMemberThePageNamesExists() throws IOException {
        Map<String, Path> main = new TreeMap<>();
        for (Path file : sources()) main.put(simpleName(file), file);
        Set<String> tests = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(ROOT.resolve("dispatcher-jvm/src/test"))) {
            walk.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".kt"))
                    .forEach(p -> tests.add(simpleName(p)));
        }
        List<String> missing = new ArrayList<>();
        Matcher ref = REFERENCE.matcher(Files.readString(MAP));
        while (ref.find()) {
            String type = ref.group(1);
            String member = ref.group(2);
            Path file = main.get(type);
            if (member != null && file != null && !member.equals("kt")) {
                if (!Pattern.compile("\\b" + member + "\\b").matcher(codeOnly(Files.readString(file))).find()) {
                    missing.add(type + "." + member);
                }
            } else if (file == null && !tests.contains(type) && !OUTSIDE_TYPES.contains(type)) {
                missing.add(type);
            }
        }
        assertTrue(missing.isEmpty(), MAP + " names classes or members that do not exist: " + missing);
    }

    private static Map<String, Set<String>> mayUseByLayer() throws IOException {
        List<String> lines = Files.readAllLines(MAP);
        Map<String, Set<String>> mayUse = new TreeMap<>();
        for (int i = lines.indexOf(SECTION) + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (!line.startsWith("| ") || line.startsWith("| layer ") || line.startsWith("| ---")) continue;
            String[] cells = line.substring(1).split("\\|");
            assertTrue(cells.length >= 3, "a row of " + SECTION + " without a 'may use' cell: " + line);
            String allowed = cells[2].trim();
            Set<String> layers = new TreeSet<>();
            if (!allowed.equals("nothing")) {
                for (String layer : allowed.split(",")) layers.add(layer.trim());
            }
            mayUse.put(cells[0].trim(), layers);
        }
        return mayUse;
    }

    /** The code of a source file without its comments and string literals (a text block counts as a string). */
    static String codeOnly(String source) {
        return source.replaceAll("(?s)\"\"\".*?\"\"\"", "\"\"")
                .replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("//[^\n]*", " ")
                .replaceAll("\"(\\\\.|[^\"\\\\\n])*\"", "\"\"");
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
