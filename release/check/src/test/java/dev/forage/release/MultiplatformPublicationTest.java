package dev.forage.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kotlin Multiplatform publication of dev.forage:dispatcher in the staged bundle, checked without Gradle:
 * the root module and the per-target modules against the Gradle module metadata specification (format 1.1,
 * gradle/gradle's platforms/documentation/docs/src/docs/design/gradle-module-metadata-latest-specification.md),
 * every file a .module names against the bundle's file (size, sha512, sha256, sha1, md5), every
 * {@code available-at} against the module it points to, every module side by side with kotlinx-coroutines-core's own
 * .module for the same target (KotlinxModules: what Gradle's Kotlin plugin publishes, and what a consumer's Gradle
 * matches on), dispatcher-jvm as the root's JVM target, and the root jar against what a consumer's commonMain compiles
 * against (the common metadata klib and META-INF/kotlin-project-structure-metadata.json). The target modules are
 * those KmpPublication lists, the list the release script stages.
 */
class MultiplatformPublicationTest {
    private static final String GROUP = "dev.forage";
    private static final String ROOT = "dispatcher";
    /** The per-target modules the root's variants lead to. */
    private static final Set<String> TARGET_MODULES = Set.copyOf(KotlinxModules.forageTargetModules());
    private static final Map<String, String> HASHES =
            Map.of("sha512", "SHA-512", "sha256", "SHA-256", "sha1", "SHA-1", "md5", "MD5");
    private static final Map<String, Integer> HASH_LENGTHS = Map.of("sha512", 128, "sha256", 64, "sha1", 40, "md5", 32);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Bundle bundle;
    private static String version;
    private static JsonNode root;
    private static final Map<String, JsonNode> targets = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws IOException {
        version = System.getProperty("forage.version");
        bundle = Bundle.read(Path.of(System.getProperty("forage.bundle")), GROUP);
        root = module(ROOT);
        for (String m : TARGET_MODULES) targets.put(m, module(m));
    }

    private static JsonNode module(String artifactId) throws IOException {
        byte[] bytes = bundle.file(artifactId, version, artifactId + "-" + version + ".module");
        assertNotNull(bytes, artifactId + "-" + version + ".module is not in the bundle");
        return JSON.readTree(bytes);
    }

    @Test
    void everyModuleFollowsTheGradleModuleMetadataSpecification() {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> all = new LinkedHashMap<>();
        all.put(ROOT, root);
        all.putAll(targets);
        all.forEach((name, m) -> Spec.check(name, m, problems));
        assertNoProblems(problems);
    }

    @Test
    void everyFileAModuleNamesIsInTheBundleWithItsSizeAndHashes() throws NoSuchAlgorithmException {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> all = new LinkedHashMap<>();
        all.put(ROOT, root);
        all.putAll(targets);
        int files = 0;
        for (Map.Entry<String, JsonNode> e : all.entrySet()) {
            for (JsonNode variant : e.getValue().path("variants")) {
                for (JsonNode file : variant.path("files")) {
                    files++;
                    String url = file.path("url").asText();
                    byte[] bytes = bundle.file(e.getKey(), version, url);
                    String where = e.getKey() + ".module, variant " + variant.path("name").asText() + ": " + url;
                    if (bytes == null) {
                        problems.add(where + " is not in the bundle");
                        continue;
                    }
                    if (file.path("size").asLong(-1) != bytes.length) problems.add(where + ": size differs");
                    for (Map.Entry<String, String> h : HASHES.entrySet()) {
                        if (!file.path(h.getKey()).asText().equals(hex(h.getValue(), bytes))) {
                            problems.add(where + ": " + h.getKey() + " differs from the file's");
                        }
                    }
                }
            }
        }
        assertTrue(files > TARGET_MODULES.size(), "the root and every target module name their files; found " + files);
        assertNoProblems(problems);
    }

    @Test
    void everyRootVariantLeadsToAPublishedTargetModuleThatPointsBack() {
        List<String> problems = new ArrayList<>();
        Set<String> reached = new TreeSet<>();
        for (JsonNode variant : root.path("variants")) {
            JsonNode at = variant.get("available-at");
            if (at == null) continue;
            String module = at.path("module").asText();
            String expectedUrl = "../../" + module + "/" + version + "/" + module + "-" + version + ".module";
            String where = "root variant " + variant.path("name").asText() + ": ";
            if (!at.path("url").asText().equals(expectedUrl)) problems.add(where + "url " + at.path("url") + " is not " + expectedUrl);
            if (!at.path("group").asText().equals(GROUP) || !at.path("version").asText().equals(version)) {
                problems.add(where + "group or version of available-at differ from the root's");
            }
            JsonNode target = targets.get(module);
            if (target == null) {
                problems.add(where + "leads to " + module + ", which is not a published target module");
                continue;
            }
            reached.add(module);
            // The target module must have a variant Gradle can select with the same request.
            Map<String, String> wanted = attributes(variant);
            boolean matched = false;
            for (JsonNode tv : target.path("variants")) {
                Map<String, String> offered = attributes(tv);
                boolean compatible = true;
                for (Map.Entry<String, String> a : wanted.entrySet()) {
                    String o = offered.get(a.getKey());
                    if (o != null && !o.equals(a.getValue())) compatible = false;
                }
                if (compatible && offered.get("org.gradle.usage") != null
                        && offered.get("org.gradle.usage").equals(wanted.get("org.gradle.usage"))) {
                    matched = true;
                }
            }
            if (!matched) problems.add(where + module + ".module has no variant compatible with " + wanted);
            JsonNode back = target.path("component");
            String rootUrl = "../../" + ROOT + "/" + version + "/" + ROOT + "-" + version + ".module";
            if (!back.path("url").asText().equals(rootUrl) || !back.path("module").asText().equals(ROOT)) {
                problems.add(module + ".module's component does not point back to the root (" + rootUrl + ")");
            }
        }
        assertEquals(TARGET_MODULES, reached, "target modules the root's variants lead to");
        assertNoProblems(problems);
    }

    @Test
    void everyModuleIsKotlinxCoroutinesCoresModuleOfTheSameTarget() {
        List<String> problems = new ArrayList<>();
        StringBuilder table = new StringBuilder("variant | dev.forage:dispatcher | kotlinx-coroutines-core\n");
        KotlinxModules.compareRoot(root, KotlinxModules.root(), List.copyOf(TARGET_MODULES), version, problems, table);
        for (Map.Entry<String, JsonNode> t : targets.entrySet()) {
            KotlinxModules.compareTarget(t.getKey(), t.getValue(), KotlinxModules.target(t.getKey()), version, problems, table);
        }
        System.out.println(table);
        assertNoProblems(problems);
    }

    /**
     * dispatcher-jvm, which Maven users name and the root's JVM variants lead to: variants a JS or native consumer
     * cannot select (platform type jvm, standard JVM environment), of the same attributes as the root's JVM variants,
     * and its component the root.
     */
    @Test
    void dispatcherJvmIsTheRootsJvmTarget() {
        JsonNode jvm = targets.get("dispatcher-jvm");
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, String>> rootJvmVariants = new TreeMap<>();
        for (JsonNode v : root.path("variants")) {
            if (v.path("available-at").path("module").asText().equals("dispatcher-jvm")) {
                rootJvmVariants.put(v.path("name").asText(), attributes(v));
            }
        }
        Map<String, Map<String, String>> jvmVariants = new TreeMap<>();
        for (JsonNode v : jvm.path("variants")) {
            Map<String, String> a = attributes(v);
            jvmVariants.put(v.path("name").asText(), a);
            if (!"jvm".equals(a.get("org.jetbrains.kotlin.platform.type")) || !"standard-jvm".equals(a.get("org.gradle.jvm.environment"))) {
                problems.add("dispatcher-jvm " + v.path("name").asText() + ": attributes " + a
                        + " do not say platform type jvm and the standard JVM environment");
            }
        }
        if (!jvmVariants.equals(rootJvmVariants)) {
            problems.add("dispatcher-jvm's variants " + jvmVariants + " differ from the root's JVM variants " + rootJvmVariants);
        }
        String rootUrl = "../../" + ROOT + "/" + version + "/" + ROOT + "-" + version + ".module";
        if (!jvm.path("component").path("url").asText().equals(rootUrl)) {
            problems.add("dispatcher-jvm's component url " + jvm.path("component").path("url") + " is not " + rootUrl);
        }
        assertNoProblems(problems);
    }

    @Test
    void rootJarIsTheCommonMetadataKlibWithItsProjectStructure() throws IOException {
        String jarName = ROOT + "-" + version + ".jar";
        byte[] jar = bundle.file(ROOT, version, jarName);
        assertNotNull(jar, jarName + " is not in the bundle");
        Map<String, byte[]> entries = unzip(jar);
        List<String> problems = new ArrayList<>();
        for (String required : List.of("commonMain/default/manifest", "commonMain/default/linkdata/module",
                "META-INF/kotlin-project-structure-metadata.json")) {
            if (!entries.containsKey(required)) problems.add(jarName + ": no " + required);
        }
        if (entries.keySet().stream().noneMatch(e -> e.startsWith("commonMain/default/linkdata/package_dev.forage.coroutines/"))) {
            problems.add(jarName + ": the klib holds no declarations of package dev.forage.coroutines");
        }
        byte[] structureBytes = entries.get("META-INF/kotlin-project-structure-metadata.json");
        if (structureBytes != null) {
            JsonNode structure = JSON.readTree(structureBytes).path("projectStructure");
            Set<String> listed = new TreeSet<>();
            for (JsonNode v : structure.path("variants")) listed.add(v.path("name").asText());
            Set<String> rootVariants = new TreeSet<>();
            for (JsonNode v : root.path("variants")) {
                if (v.has("available-at")) rootVariants.add(v.path("name").asText().replace("-published", ""));
            }
            if (!listed.equals(rootVariants)) {
                problems.add("project structure lists variants " + listed + ", the root .module " + rootVariants);
            }
            // Each variant sees commonMain, the one source set with metadata in the jar (nativeMain serves linuxX64
            // alone, so Gradle publishes no metadata of it either).
            for (JsonNode v : structure.path("variants")) {
                List<String> seen = new ArrayList<>();
                for (JsonNode s : v.path("sourceSet")) seen.add(s.asText());
                if (!seen.equals(List.of("commonMain"))) {
                    problems.add("project structure: variant " + v.path("name").asText() + " sees " + seen);
                }
            }
            Set<String> sourceSets = new TreeSet<>();
            for (JsonNode s : structure.path("sourceSets")) {
                sourceSets.add(s.path("name").asText());
                // KotlinxModules leaves kotlinx's Apple metadata variants out on this ground: a host-specific source
                // set is what makes the Kotlin plugin publish them.
                if (s.path("hostSpecific").asBoolean(false) || s.path("hostSpecific").asText().equals("true")) {
                    problems.add("source set " + s.path("name").asText() + " is host-specific: its targets would"
                            + " publish a metadata variant each, which neither KmpPublication nor this check expects");
                }
            }
            if (!sourceSets.equals(Set.of("commonMain"))) problems.add("published source sets " + sourceSets);
        }
        assertNoProblems(problems);
    }

    private static Map<String, String> attributes(JsonNode variant) {
        Map<String, String> m = new TreeMap<>();
        variant.path("attributes").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    private static Map<String, byte[]> unzip(byte[] jar) throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (!e.isDirectory()) m.put(e.getName().replaceFirst("^\\./", ""), in.readAllBytes());
            }
        }
        return m;
    }

    static String hex(String algorithm, byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
    }

    private static void assertNoProblems(List<String> problems) {
        assertTrue(problems.isEmpty(), () -> problems.size() + " problem(s):\n  " + String.join("\n  ", problems));
    }

    /**
     * The rules of the Gradle module metadata specification, format 1.1, that a published .module must follow:
     * the top-level keys and their types, the component, and for every variant its name, attributes, and either
     * {@code available-at} (and then nothing else but name and attributes) or its own dependencies and files.
     */
    static final class Spec {
        private static final Set<String> TOP = Set.of("formatVersion", "component", "createdBy", "variants");
        private static final Set<String> VARIANT = Set.of("name", "attributes", "available-at", "dependencies",
                "dependencyConstraints", "files", "capabilities");
        private static final Set<String> DEPENDENCY = Set.of("group", "module", "version", "excludes", "reason",
                "attributes", "requestedCapabilities", "endorseStrictVersions", "thirdPartyCompatibility");
        private static final Set<String> VERSION = Set.of("requires", "prefers", "strictly", "rejects");
        private static final Set<String> FILE = Set.of("name", "url", "size", "sha512", "sha256", "sha1", "md5");

        static void check(String name, JsonNode m, List<String> problems) {
            String at = name + ".module: ";
            m.fieldNames().forEachRemaining(k -> { if (!TOP.contains(k)) problems.add(at + "unknown top-level key " + k); });
            if (!"1.1".equals(m.path("formatVersion").asText())) problems.add(at + "formatVersion is not \"1.1\"");
            JsonNode c = m.path("component");
            for (String k : List.of("group", "module", "version")) {
                if (!c.path(k).isTextual() || c.path(k).asText().isEmpty()) problems.add(at + "component." + k + " missing");
            }
            if (c.has("url") && !c.path("url").isTextual()) problems.add(at + "component.url is not a string");
            checkAttributes(at + "component ", c.path("attributes"), problems, true);
            if (m.has("createdBy") && !m.path("createdBy").isObject()) problems.add(at + "createdBy is not an object");
            JsonNode variants = m.path("variants");
            if (!variants.isArray() || variants.isEmpty()) {
                problems.add(at + "no variants");
                return;
            }
            Set<String> names = new TreeSet<>();
            for (JsonNode v : variants) {
                String vn = v.path("name").asText();
                String vat = at + "variant " + vn + ": ";
                if (vn.isEmpty()) problems.add(at + "a variant without a name");
                if (!names.add(vn)) problems.add(vat + "name used twice");
                v.fieldNames().forEachRemaining(k -> { if (!VARIANT.contains(k)) problems.add(vat + "unknown key " + k); });
                checkAttributes(vat, v.path("attributes"), problems, false);
                if (v.has("available-at")) {
                    JsonNode a = v.get("available-at");
                    for (String k : List.of("url", "group", "module", "version")) {
                        if (!a.path(k).isTextual() || a.path(k).asText().isEmpty()) problems.add(vat + "available-at." + k + " missing");
                    }
                    for (String k : List.of("dependencies", "dependencyConstraints", "files", "capabilities")) {
                        if (v.has(k)) problems.add(vat + "has available-at and " + k + " (the spec allows neither beside it)");
                    }
                    continue;
                }
                for (JsonNode d : v.path("dependencies")) {
                    d.fieldNames().forEachRemaining(k -> { if (!DEPENDENCY.contains(k)) problems.add(vat + "dependency key " + k); });
                    if (!d.path("group").isTextual() || !d.path("module").isTextual()) problems.add(vat + "dependency without group/module");
                    JsonNode ver = d.path("version");
                    if (!ver.isMissingNode()) {
                        ver.fieldNames().forEachRemaining(k -> { if (!VERSION.contains(k)) problems.add(vat + "version key " + k); });
                    }
                }
                if (!v.path("files").isArray() || v.path("files").isEmpty()) problems.add(vat + "neither available-at nor files");
                for (JsonNode f : v.path("files")) {
                    f.fieldNames().forEachRemaining(k -> { if (!FILE.contains(k)) problems.add(vat + "file key " + k); });
                    for (String k : List.of("name", "url")) {
                        if (!f.path(k).isTextual() || f.path(k).asText().isEmpty()) problems.add(vat + "file " + k + " missing");
                    }
                    if (!f.path("size").isIntegralNumber()) problems.add(vat + "file size is not a number");
                    HASH_LENGTHS.forEach((k, len) -> {
                        if (!f.path(k).asText("").matches("[0-9a-f]{" + len + "}")) problems.add(vat + "file " + k + " is not " + len + " hex digits");
                    });
                }
            }
        }

        private static void checkAttributes(String at, JsonNode attrs, List<String> problems, boolean optional) {
            if (attrs.isMissingNode()) {
                if (!optional) problems.add(at + "no attributes");
                return;
            }
            if (!attrs.isObject()) {
                problems.add(at + "attributes is not an object");
                return;
            }
            attrs.fields().forEachRemaining(e -> {
                if (!e.getValue().isTextual() && !e.getValue().isBoolean() && !e.getValue().isIntegralNumber()) {
                    problems.add(at + "attribute " + e.getKey() + " is not a string, boolean or integer");
                }
            });
        }
    }
}
