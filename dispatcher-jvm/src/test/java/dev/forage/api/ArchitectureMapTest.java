package dev.forage.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Its "may use" column is checked both ways: a file that uses a layer its row does not list fails, by naming one
 * of its classes or through a member chain that lands in one ({@link MemberChains}), and so does a listed layer
 * that no file of the row uses, so the column says what the code does. The seams between the layers are pinned by
 * {@code EngineSeamsTest}.
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

    /** A table row of the map: {@code | layer | `A`, `B`, ... | what it may use |}; only the second cell names files. */
    private static final Pattern ROW = Pattern.compile("^\\|\\s*([^|]+?)\\s*\\|([^|]*)\\|.*$");
    private static final Pattern NAME = Pattern.compile("`([A-Za-z0-9_.]+)`");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import ([\\w.]+(?:\\.\\*)?)");
    private static final Pattern REFERENCE = Pattern.compile("`([A-Z]\\w*)(?:[.#]([a-zA-Z_]\\w*))?(?:\\(\\))?`");
    /** Types of the JDK, kotlinx.coroutines, crossbeam and OpenTelemetry that the page names. */
    private static final Set<String> OUTSIDE_TYPES =
            Set.of("Context", "Delay", "Dispatchers", "Integer", "LockSupport", "Object", "SegQueue", "Selector",
                    "Stealer", "WorkerThread", "DefaultImpls");
    /** Packages where a type the page names may also live (the faces' sections name JDK and kotlinx types). */
    private static final List<String> OUTSIDE_PACKAGES =
            List.of("java.lang.", "java.util.concurrent.", "kotlinx.coroutines.", "kotlinx.coroutines.internal.");
    /** The test sources whose classes the page may name: the engine's and the Java face's. */
    private static final List<Path> TEST_ROOTS =
            List.of(ROOT.resolve("dispatcher-jvm/src/test"), ROOT.resolve("interop-java/src/test"));
    private static final Pattern WORD = Pattern.compile("\\b[A-Z]\\w*\\b");
    /**
     * The most distinct {@code registry.x.y} chains that dispatcher-jvm's main Java sources may hold: none. A part
     * that reaches through the registry into another part depends on both and on the registry's layout, where being
     * handed the part it uses would tie it to that part alone; the registry answers for what is the pool's.
     */
    private static final int MAX_REGISTRY_CHAINS = 0;
    /** {@code registry} and two member links after it, an index between them too ({@code registry.workers[i].x}). */
    private static final Pattern REGISTRY_CHAIN =
            Pattern.compile("\\bregistry\\s*\\.\\s*(\\w+)\\s*(?:\\[[^\\]]*\\]\\s*)?\\.\\s*(\\w+)");

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
     * The "may use" column, both ways, on the map and the main sources ({@link #mayUseFindings}): a file that uses
     * a layer its row does not list fails, and so does a listed layer that no file of the row uses.
     */
    @Test
    void everyLayerUsesExactlyTheLayersItsRowLists() throws IOException {
        MayUseFindings found = mayUseFindings(Files.readString(MAP), readSources());
        assertTrue(found.unknown.isEmpty(), "'may use' names layers that " + MAP + " does not have: " + found.unknown);
        assertTrue(found.forbidden.isEmpty(), "uses that " + MAP + " (" + SECTION + ", may use) does not allow: "
                + found.forbidden);
        assertTrue(found.unused.isEmpty(), "layers that " + MAP + " says may be used but no file of the row uses "
                + "(drop them from 'may use', or the code has a use the check cannot see): " + found.unused);
    }

    /**
     * A small map for the tests of the check itself: the engine reaches the monitor only through its hub's field,
     * so a check of written names alone would pass whatever the engine's row says.
     */
    private static final String SMALL_MAP = String.join("\n",
            "## Files by layer",
            "",
            "| layer | files | may use | why |",
            "| --- | --- | --- | --- |",
            "| engine | `Engine` | %s | |",
            "| hub | `Hub` | monitor | |",
            "| monitor | `Monitor` | nothing | |",
            "");
    private static final String HUB =
            "package p;\n\nfinal class Hub {\n    final Monitor monitor = new Monitor();\n}\n";
    private static final String MONITOR = "package p;\n\nfinal class Monitor {\n    void workerBusy() {\n    }\n}\n";

    /** The engine's file, with {@code call} in its one method. */
    private static String engine(String call) {
        return "package p;\n\n"
                + "final class Engine {\n"
                + "    private final Hub hub = new Hub();\n\n"
                + "    void leave() {\n"
                + "        // The monitor is told: Monitor.workerBusy, as a comment, is no use.\n"
                + "        " + call + "\n"
                + "    }\n"
                + "}\n";
    }

    private static Map<String, String> smallSources(String call) {
        return Map.of("p/Engine.java", engine(call), "p/Hub.java", HUB, "p/Monitor.java", MONITOR);
    }

    /** The check on the small map, whose engine row lists {@code mayUse}, and the engine calling {@code call}. */
    private static MayUseFindings smallFindings(String mayUse, String call) {
        return mayUseFindings(String.format(SMALL_MAP, mayUse), smallSources(call));
    }

    @Test
    void aUseThroughAFieldChainOfALayerTheRowDoesNotListIsReported() {
        MayUseFindings found = smallFindings("hub", "hub.monitor.workerBusy();");
        assertEquals(List.of("Engine (engine) uses Monitor (monitor) through hub.monitor"), found.forbidden);
        assertEquals(List.of(), found.unused);

        MayUseFindings allowed = smallFindings("hub, monitor", "hub.monitor.workerBusy();");
        assertEquals(List.of(), allowed.forbidden, "the same use, listed");
        assertEquals(List.of(), allowed.unused);
    }

    @Test
    void aListedLayerThatNoFileOfTheRowUsesIsReported() {
        MayUseFindings found = smallFindings("hub, monitor", "hub.hashCode();");
        assertEquals(List.of("engine -> monitor"), found.unused);
        assertEquals(List.of(), found.forbidden);

        MayUseFindings unknown = smallFindings("hub, timers", "hub.hashCode();");
        assertEquals(List.of("engine -> timers"), unknown.unknown);
    }

    @Test
    void theResolverSeesAUseThroughAFieldChainThatNamesNoClass() {
        String engine = engine("hub.monitor.workerBusy();");
        assertFalse(WORD.matcher(codeOnly(engine)).results().anyMatch(w -> w.group().equals("Monitor")),
                "the engine's code must name no Monitor, or this shows nothing a name check could not");
        assertEquals("hub.monitor", MemberChains.of(smallSources("hub.monitor.workerBusy();")).reachedBy("Engine")
                .get("Monitor"));
        assertEquals(null, MemberChains.of(smallSources("hub.hashCode();")).reachedBy("Engine").get("Monitor"));
    }

    /**
     * Each shape of chain the engine writes lands where the compiler would: through fields, a parameter, an
     * interface method's return, an array element, an enum constant, and a field inherited from a superclass; and
     * nothing lands through a comment, a string, or a local that hides an inherited field of the same name.
     */
    @Test
    void theResolverFollowsEveryShapeOfChainTheEngineWrites() {
        Map<String, String> sources = new TreeMap<>();
        sources.put("p/Registry.java", "package p;\nfinal class Registry {\n    final Monitor monitor;\n"
                + "    final Runner runner;\n    final Worker[] workers;\n    final Timers timers;\n}\n");
        sources.put("p/Runner.java", "package p;\ninterface Runner {\n    Gauges threadGauges();\n}\n");
        sources.put("p/Worker.java", "package p;\nfinal class Worker {\n    final Registry registry;\n"
                + "    final Deque deque;\n    final Counters counters = new Counters();\n}\n");
        sources.put("p/Base.java", "package p;\nabstract class Base {\n    final Fence fence = new Fence();\n"
                + "    final Hidden hidden = new Hidden();\n}\n");
        sources.put("p/Clock.java", "package p;\nenum Clock {\n    SYSTEM;\n\n    Parker parker() {\n"
                + "        return null;\n    }\n}\n");
        for (String plain : List.of("Monitor", "Timers", "Deque", "Gauges", "Counters", "Parker", "Fence", "Hidden")) {
            sources.put("p/" + plain + ".java", "package p;\nfinal class " + plain + " {\n    int n;\n}\n");
        }
        sources.put("p/Reader.java", String.join("\n",
                "package p;",
                "",
                "/** Not a use: hidden.n. */",
                "final class Reader extends Base {",
                "    private final Registry registry;",
                "    private final Worker owner;",
                "",
                "    void read(Worker w, int i) {",
                "        registry.monitor.n++;",
                "        w.registry.timers.n++;",
                "        owner.deque.n++;",
                "        registry.runner.threadGauges().n++;",
                "        registry.workers[i].counters.n++;",
                "        Clock.SYSTEM.parker().n++;",
                "        fence.n++;",
                "        String text = \"hidden.n\";",
                "    }",
                "",
                "    int hide() {",
                "        String hidden = \"\";",
                "        return hidden.length();",
                "    }",
                "}",
                ""));
        Map<String, String> reached = MemberChains.of(sources).reachedBy("Reader");
        assertEquals("registry.monitor", reached.get("Monitor"));
        assertEquals("w.registry.timers", reached.get("Timers"));
        assertEquals("owner.deque", reached.get("Deque"));
        assertEquals("registry.runner.threadGauges()", reached.get("Gauges"));
        assertEquals("registry.workers[].counters", reached.get("Counters"));
        assertEquals("Clock.SYSTEM.parker()", reached.get("Parker"));
        assertEquals("fence", reached.get("Fence"), "a field inherited from Base");
        assertEquals(Set.of("Clock", "Counters", "Deque", "Fence", "Gauges", "Monitor", "Parker", "Registry", "Runner",
                "Timers", "Worker"), new TreeSet<>(reached.keySet()), "every class Reader reaches, and no other");
    }

    /** What {@link #mayUseFindings} reports; all three lists are empty when the column is right. */
    static final class MayUseFindings {
        /** "File (layer) uses Other (its layer)", with the chain when the file writes no name of the class. */
        final List<String> forbidden = new ArrayList<>();
        /** "layer -> listed layer" that no file of the row uses. */
        final List<String> unused = new ArrayList<>();
        /** "layer -> listed name" that is no layer of the map. */
        final List<String> unknown = new ArrayList<>();
    }

    /**
     * The "may use" check, from a map's text and the sources (each key a file's path, each value its text). A file
     * uses another file's layer when it names a class of that file that it can see (its own package's, imported
     * by name or with a wildcard, or written with its package), or when a member chain of its code lands in one
     * ({@link MemberChains}: {@code registry.monitor.workerBusy()} uses the monitor's layer without naming it).
     * Comments and string literals are left out, so a Javadoc link to another layer is no use.
     */
    static MayUseFindings mayUseFindings(String map, Map<String, String> sources) {
        List<String> lines = map.lines().collect(Collectors.toList());
        Map<String, String> layerOf = new TreeMap<>();
        layersByFile(lines).forEach((file, layers) -> layerOf.put(file, layers.get(0)));
        Map<String, Set<String>> mayUse = mayUseByLayer(lines);
        Map<String, String> packageOf = new TreeMap<>();
        sources.forEach((path, text) -> {
            Matcher p = PACKAGE.matcher(text);
            packageOf.put(simpleName(Paths.get(path)), p.find() ? p.group(1) : "");
        });
        MemberChains chains = MemberChains.of(sources);
        MayUseFindings found = new MayUseFindings();
        Map<String, Set<String>> used = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(sources).entrySet()) {
            String name = simpleName(Paths.get(e.getKey()));
            String layer = layerOf.get(name);
            if (layer == null) continue; // reported by everyMainSourceFileHasExactlyOneLayer
            String source = e.getValue();
            Set<String> imports = new TreeSet<>();
            Matcher imp = IMPORT.matcher(source);
            while (imp.find()) imports.add(imp.group(1));
            // Each other file the code uses, with how: its name, or the chain that lands in it.
            Map<String, String> uses = new TreeMap<>();
            Matcher word = WORD.matcher(codeOnly(source));
            while (word.find()) {
                String other = word.group();
                String pkg = packageOf.get(other);
                if (pkg == null || uses.containsKey(other)) continue;
                boolean visible = pkg.equals(packageOf.get(name)) || imports.contains(pkg + "." + other)
                        || imports.contains(pkg + ".*") || source.contains(pkg + "." + other);
                if (visible) uses.put(other, "");
            }
            chains.reachedBy(name).forEach((other, chain) -> uses.putIfAbsent(other, " through " + chain));
            uses.forEach((other, how) -> {
                String otherLayer = layerOf.get(other);
                if (other.equals(name) || otherLayer == null || otherLayer.equals(layer)) return;
                used.computeIfAbsent(layer, k -> new TreeSet<>()).add(otherLayer);
                if (!mayUse.getOrDefault(layer, Set.of()).contains(otherLayer)) {
                    found.forbidden.add(name + " (" + layer + ") uses " + other + " (" + otherLayer + ")" + how);
                }
            });
        }
        mayUse.forEach((layer, allowed) -> {
            for (String other : allowed) {
                if (!mayUse.containsKey(other)) found.unknown.add(layer + " -> " + other);
                else if (!used.getOrDefault(layer, Set.of()).contains(other)) found.unused.add(layer + " -> " + other);
            }
        });
        return found;
    }

    @Test
    void theRegistryIsReachedThroughNoMoreChainsThanTheBound() throws IOException {
        Map<String, Set<String>> chains = new TreeMap<>();
        for (Path file : sources()) {
            if (file.startsWith(ROOT.resolve("dispatcher-jvm")) && file.toString().endsWith(".java")) {
                registryChains(codeOnly(Files.readString(file)), simpleName(file), chains);
            }
        }
        StringBuilder listing = new StringBuilder();
        chains.forEach((chain, files) -> listing.append("\n  ").append(chain).append(' ').append(files));
        System.out.println(chains.size() + " registry.x.y chains in dispatcher-jvm's main sources:" + listing);
        assertTrue(chains.size() <= MAX_REGISTRY_CHAINS, chains.size() + " distinct registry.x.y chains, more than "
                + "MAX_REGISTRY_CHAINS (" + MAX_REGISTRY_CHAINS + "): hand the part its dependency instead of "
                + "reaching through the registry. The chains, with the files that write them:" + listing);
    }

    @Test
    void theChainCountSeesARegistryChain() {
        Map<String, Set<String>> chains = new TreeMap<>();
        registryChains(codeOnly(String.join("\n",
                "if (registry.lifecycle.isShutdown()) {",
                "    w.registry.timers.isEmpty();",
                "    registry.workers[i].counters.busyEnds(now);",
                "    registry . lifecycle . isShutdown();",
                "    Clock clock = registry.clock;",
                "    // registry.monitor.workerBusy()",
                "    String s = \"registry.io.poll\";",
                "}")), "F", chains);
        assertEquals(Set.of("registry.lifecycle.isShutdown", "registry.timers.isEmpty", "registry.workers.counters"),
                chains.keySet());
    }

    /** Adds the distinct {@code registry.x.y} chains of {@code code} to {@code chains}, each with its files. */
    private static void registryChains(String code, String file, Map<String, Set<String>> chains) {
        Matcher chain = REGISTRY_CHAIN.matcher(code);
        while (chain.find()) {
            chains.computeIfAbsent("registry." + chain.group(1) + "." + chain.group(2), k -> new TreeSet<>()).add(file);
        }
    }

    /**
     * Every class and member the page names exists: a {@code `Class.member`} or {@code `Class#member`} whose class is
     * a main source file names an identifier of that file's code, and a lone {@code `Class`} is a main or test source
     * file, a JDK or kotlinx class ({@link #OUTSIDE_PACKAGES}), or one of the outside types the page cites
     * ({@link #OUTSIDE_TYPES}).
     */
    @Test
    void everyClassAndMemberThePageNamesExists() throws IOException {
        Map<String, Path> main = new TreeMap<>();
        for (Path file : sources()) main.put(simpleName(file), file);
        Set<String> tests = new TreeSet<>();
        for (Path testRoot : TEST_ROOTS) {
            try (Stream<Path> walk = Files.walk(testRoot)) {
                walk.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".kt"))
                        .forEach(p -> tests.add(simpleName(p)));
            }
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
            } else if (file == null && !tests.contains(type) && !OUTSIDE_TYPES.contains(type) && !outsideClass(type)) {
                missing.add(type);
            }
        }
        assertTrue(missing.isEmpty(), MAP + " names classes or members that do not exist: " + missing);
    }

    /** Whether a class of that simple name is on the test classpath in one of {@link #OUTSIDE_PACKAGES}. */
    private static boolean outsideClass(String simpleName) {
        for (String pkg : OUTSIDE_PACKAGES) {
            try {
                Class.forName(pkg + simpleName, false, ArchitectureMapTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // not in this package
            }
        }
        return false;
    }

    private static Map<String, Set<String>> mayUseByLayer(List<String> lines) {
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
        return layersByFile(Files.readAllLines(MAP));
    }

    private static Map<String, List<String>> layersByFile(List<String> lines) {
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

    /** The main sources' texts, by path. */
    private static Map<String, String> readSources() throws IOException {
        Map<String, String> texts = new TreeMap<>();
        for (Path file : sources()) texts.put(file.toString(), Files.readString(file));
        return texts;
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
