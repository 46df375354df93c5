package dev.forage.release;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kotlinx-coroutines-core's own .module files, what Gradle's Kotlin plugin publishes for a multiplatform library, and
 * the comparison of Forage's with them, module by module: the root with kotlinx's root, each target module with
 * kotlinx's module of the same target. Compared: the top-level keys and the component (kotlinx's with Forage's group,
 * names and version), the variants' names, keys, attributes and files' names and urls, and where each root variant
 * leads. Not compared: the dependencies (another library's), and the variants Forage does not publish (see
 * {@link #published}).
 */
final class KotlinxModules {
    static final String KOTLINX = "kotlinx-coroutines-core";
    static final String GROUP = "dev.forage";
    static final String ROOT = "dispatcher";
    private static final ObjectMapper JSON = new ObjectMapper();

    private KotlinxModules() {}

    /** Forage's target modules, from KmpPublication's list (compiled with these tests). */
    @SuppressWarnings("unchecked")
    static List<String> forageTargetModules() {
        try {
            return (List<String>) Class.forName("KmpPublication").getMethod("modules").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("KmpPublication is not on the test classpath (see release/check/pom.xml)", e);
        }
    }

    /** Runs KmpPublication's command line, as the build does; its exceptions come out unwrapped. */
    static void kmpPublication(String... args) throws Exception {
        try {
            Class.forName("KmpPublication").getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) throw cause;
            throw e;
        }
    }

    static JsonNode root() {
        return read(KOTLINX);
    }

    /** kotlinx's module of the target whose Forage module is {@code module} (dispatcher-iosarm64: -iosarm64). */
    static JsonNode target(String module) {
        if (!module.startsWith(ROOT + "-")) throw new IllegalArgumentException(module + " is not a target module");
        return read(KOTLINX + module.substring(ROOT.length()));
    }

    private static JsonNode read(String artifactId) {
        String version = required("forage.kotlinx.version");
        Path file = Path.of(required("forage.kotlinx.repository"), artifactId, version, artifactId + "-" + version + ".module");
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("no " + file + ": add org.jetbrains.kotlinx:" + artifactId + ":" + version
                    + " (type module) to release/check/pom.xml's dependencies, which Maven then downloads");
        }
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property, "");
        if (value.isBlank()) throw new IllegalArgumentException("system property " + property + " is not set (release/check/pom.xml sets it)");
        return value;
    }

    /**
     * Whether Forage publishes the like of this variant of kotlinx's. Not the documentation variants: no target module
     * of Forage's publishes a sources jar. Not an Apple target's host-specific metadata (usage kotlin-metadata on a
     * native target): kotlinx publishes metadata of source sets that Apple targets alone share, which only macOS
     * compiles; Forage publishes metadata of commonMain alone, and its project structure names no host-specific
     * source set (MultiplatformPublicationTest checks that), which is when the Kotlin plugin publishes no such variant.
     */
    static boolean published(JsonNode variant) {
        JsonNode a = variant.path("attributes");
        if (a.path("org.gradle.category").asText().equals("documentation")) return false;
        return !(a.path("org.gradle.usage").asText().equals("kotlin-metadata")
                && a.path("org.jetbrains.kotlin.platform.type").asText().equals("native"));
    }

    /** A name or url of kotlinx's with Forage's names and version. */
    static String forage(String kotlinx, String version) {
        return kotlinx.replace(KOTLINX, ROOT).replace(required("forage.kotlinx.version"), version);
    }

    /** Compares a target module of Forage's with kotlinx's module of the same target. */
    static void compareTarget(String module, JsonNode ours, JsonNode theirs, String version, List<String> problems,
            StringBuilder table) {
        compareTop(module, ours, theirs, version, problems);
        Map<String, JsonNode> expected = new LinkedHashMap<>();
        for (JsonNode v : theirs.path("variants")) {
            if (published(v)) expected.put(v.path("name").asText(), v);
        }
        Map<String, JsonNode> actual = new LinkedHashMap<>();
        for (JsonNode v : ours.path("variants")) actual.put(v.path("name").asText(), v);
        if (!actual.keySet().equals(expected.keySet())) {
            problems.add(module + ": variants " + actual.keySet() + ", kotlinx's module of the target publishes " + expected.keySet());
        }
        for (Map.Entry<String, JsonNode> e : actual.entrySet()) {
            JsonNode t = expected.get(e.getKey());
            table.append(module).append(' ').append(e.getKey()).append(" | ").append(attributes(e.getValue()))
                    .append(" | ").append(t == null ? "-" : attributes(t)).append('\n');
            if (t != null) compareVariant(module + " " + e.getKey(), e.getValue(), t, version, problems);
        }
    }

    /**
     * Compares Forage's root module with kotlinx's: its metadata variant, and for every target Forage publishes
     * (modules), kotlinx's root variants that lead to that target's module.
     */
    static void compareRoot(JsonNode ours, JsonNode theirs, List<String> modules, String version, List<String> problems,
            StringBuilder table) {
        compareTop(ROOT, ours, theirs, version, problems);
        Map<String, JsonNode> expected = new TreeMap<>();
        Set<String> kotlinxTargets = new TreeSet<>();
        for (JsonNode v : theirs.path("variants")) {
            if (!published(v)) continue;
            JsonNode at = v.get("available-at");
            String leadsTo = at == null ? null : forage(at.path("module").asText(), version);
            if (leadsTo != null) kotlinxTargets.add(leadsTo);
            if (leadsTo == null || modules.contains(leadsTo)) expected.put(v.path("name").asText(), v);
        }
        for (String m : modules) {
            if (!kotlinxTargets.contains(m)) problems.add(ROOT + ": kotlinx's root leads to no module like " + m + " (no such target)");
        }
        Map<String, JsonNode> actual = new TreeMap<>();
        for (JsonNode v : ours.path("variants")) actual.put(v.path("name").asText(), v);
        if (!actual.keySet().equals(expected.keySet())) {
            Set<String> missing = new TreeSet<>(expected.keySet());
            missing.removeAll(actual.keySet());
            Set<String> extra = new TreeSet<>(actual.keySet());
            extra.removeAll(expected.keySet());
            problems.add(ROOT + ": root variants missing " + missing + ", not in kotlinx's root " + extra);
        }
        for (Map.Entry<String, JsonNode> e : actual.entrySet()) {
            JsonNode t = expected.get(e.getKey());
            table.append(ROOT).append(' ').append(e.getKey()).append(" | ").append(attributes(e.getValue()))
                    .append(" | ").append(t == null ? "-" : attributes(t)).append('\n');
            if (t == null) continue;
            compareVariant(ROOT + " " + e.getKey(), e.getValue(), t, version, problems);
            JsonNode at = e.getValue().get("available-at");
            JsonNode theirAt = t.get("available-at");
            if (theirAt != null && at != null) {
                for (String k : List.of("url", "module", "version")) {
                    String want = forage(theirAt.path(k).asText(), version);
                    if (!at.path(k).asText().equals(want)) {
                        problems.add(ROOT + " " + e.getKey() + ": available-at." + k + " " + at.path(k) + ", kotlinx's gives " + want);
                    }
                }
                if (!at.path("group").asText().equals(GROUP)) problems.add(ROOT + " " + e.getKey() + ": available-at.group is not " + GROUP);
                if (!fieldNames(at).equals(fieldNames(theirAt))) {
                    problems.add(ROOT + " " + e.getKey() + ": available-at keys " + fieldNames(at) + ", kotlinx's " + fieldNames(theirAt));
                }
            }
        }
    }

    /** The top-level keys (kotlinx's but createdBy: no Gradle made Forage's) and the component. */
    private static void compareTop(String module, JsonNode ours, JsonNode theirs, String version, List<String> problems) {
        List<String> keys = fieldNames(theirs);
        keys.remove("createdBy");
        if (!fieldNames(ours).equals(keys)) problems.add(module + ": top-level keys " + fieldNames(ours) + ", kotlinx's " + keys);
        JsonNode c = ours.path("component");
        JsonNode tc = theirs.path("component");
        if (!fieldNames(c).equals(fieldNames(tc))) {
            problems.add(module + ": component keys " + fieldNames(c) + ", kotlinx's " + fieldNames(tc));
        }
        Map<String, String> want = new TreeMap<>();
        tc.fields().forEachRemaining(e -> {
            if (e.getValue().isTextual()) want.put(e.getKey(), forage(e.getValue().asText(), version));
        });
        want.put("group", GROUP);
        want.forEach((k, w) -> {
            if (!c.path(k).asText().equals(w)) problems.add(module + ": component." + k + " " + c.path(k) + ", kotlinx's gives " + w);
        });
        String status = version.endsWith("-SNAPSHOT") ? "integration" : "release";
        if (!c.path("attributes").path("org.gradle.status").asText().equals(status)) {
            problems.add(module + ": component status is not " + status);
        }
    }

    private static void compareVariant(String where, JsonNode ours, JsonNode theirs, String version, List<String> problems) {
        if (!fieldNames(ours).equals(fieldNames(theirs))) {
            problems.add(where + ": keys " + fieldNames(ours) + ", kotlinx's " + fieldNames(theirs));
        }
        if (!attributes(ours).equals(attributes(theirs))) {
            problems.add(where + ": attributes " + attributes(ours) + " differ from kotlinx's " + attributes(theirs));
        }
        JsonNode files = ours.path("files");
        JsonNode theirFiles = theirs.path("files");
        if (files.size() != theirFiles.size()) {
            problems.add(where + ": " + files.size() + " files, kotlinx's variant " + theirFiles.size());
            return;
        }
        for (int i = 0; i < files.size(); i++) {
            JsonNode f = files.get(i);
            JsonNode tf = theirFiles.get(i);
            if (!fieldNames(f).equals(fieldNames(tf))) problems.add(where + ": file keys " + fieldNames(f) + ", kotlinx's " + fieldNames(tf));
            for (String k : List.of("name", "url")) {
                String want = forage(tf.path(k).asText(), version);
                if (!f.path(k).asText().equals(want)) problems.add(where + ": file " + k + " " + f.path(k) + ", kotlinx's gives " + want);
            }
        }
    }

    static Map<String, String> attributes(JsonNode variant) {
        Map<String, String> m = new TreeMap<>();
        variant.path("attributes").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) names.add(it.next());
        return names;
    }
}
