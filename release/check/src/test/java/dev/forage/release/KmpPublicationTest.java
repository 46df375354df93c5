package dev.forage.release;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What KmpPublication writes, for every target it lists, compared with kotlinx-coroutines-core's .module of the same
 * target, without a build: each target module is written for a stand-in klib (its bytes are no klib; the .module
 * only names the file and its hashes), dispatcher-jvm's from a module shaped as gradle-module-metadata-maven-plugin
 * writes it. So a target whose module (klib, build) is not in this tree yet is checked all the same; the staged
 * bundle's modules are compared again by MultiplatformPublicationTest.
 */
class KmpPublicationTest {
    private static final String VERSION = "1.2.3";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private JsonNode targetModule(String module) throws Exception {
        Path klib = dir.resolve(module + ".klib");
        Files.write(klib, ("stand-in klib of " + module).getBytes(StandardCharsets.UTF_8));
        Path out = dir.resolve(module + ".module");
        KotlinxModules.kmpPublication("target", module.substring("dispatcher-".length()), out.toString(), VERSION,
                "2.2.21", "1.11.0", "0.32.1", klib.toString());
        return JSON.readTree(out.toFile());
    }

    private JsonNode rootModule() throws Exception {
        Path jar = dir.resolve("metadata.jar");
        Files.write(jar, "stand-in metadata jar".getBytes(StandardCharsets.UTF_8));
        Path out = dir.resolve("dispatcher.module");
        KotlinxModules.kmpPublication("root", out.toString(), VERSION, "2.2.21", "1.11.0", jar.toString());
        return JSON.readTree(out.toFile());
    }

    /** dispatcher-jvm's .module as the Maven plugin writes it (a plain Java library's), before KmpPublication's jvm. */
    private Path pluginsJvmModule() throws Exception {
        String file = "{\"name\": \"dispatcher-jvm-" + VERSION + ".jar\", \"url\": \"dispatcher-jvm-" + VERSION + ".jar\", "
                + "\"size\": 3, \"sha512\": \"" + "a".repeat(128) + "\", \"sha256\": \"" + "b".repeat(64) + "\", "
                + "\"sha1\": \"" + "c".repeat(40) + "\", \"md5\": \"" + "d".repeat(32) + "\"}";
        String variant = "{\"name\": \"%s\", \"attributes\": {\"org.gradle.category\": \"library\", "
                + "\"org.gradle.dependency.bundling\": \"external\", \"org.gradle.libraryelements\": \"jar\", "
                + "\"org.gradle.usage\": \"%s\"}, \"dependencies\": [{\"group\": \"org.example\", \"module\": \"lib\", "
                + "\"version\": {\"requires\": \"1.0\"}, \"endorseStrictVersions\": true}], \"files\": [" + file + "]}";
        String module = "{\"formatVersion\": \"1.1\", \"component\": {\"group\": \"dev.forage\", \"module\": \"dispatcher-jvm\", "
                + "\"version\": \"" + VERSION + "\", \"attributes\": {\"org.gradle.status\": \"release\"}}, \"variants\": ["
                + String.format(variant, "apiElements", "java-api") + ", "
                + String.format(variant, "runtimeElements", "java-runtime") + "]}";
        Path out = dir.resolve("dispatcher-jvm.module");
        Files.writeString(out, module);
        return out;
    }

    @Test
    void everyNativeAndWebTargetModuleIsKotlinxsModuleOfTheSameTarget() throws Exception {
        List<String> problems = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        int compared = 0;
        for (String module : KotlinxModules.forageTargetModules()) {
            if (module.equals("dispatcher-jvm")) continue;
            JsonNode ours = targetModule(module);
            MultiplatformPublicationTest.Spec.check(module, ours, problems);
            KotlinxModules.compareTarget(module, ours, KotlinxModules.target(module), VERSION, problems, table);
            byte[] klib = Files.readAllBytes(dir.resolve(module + ".klib"));
            for (JsonNode v : ours.path("variants")) {
                JsonNode f = v.path("files").path(0);
                if (f.path("size").asLong() != klib.length
                        || !f.path("sha256").asText().equals(MultiplatformPublicationTest.hex("SHA-256", klib))) {
                    problems.add(module + " " + v.path("name").asText() + ": size or sha256 is not the klib's");
                }
            }
            compared++;
        }
        System.out.println(table);
        assertTrue(compared >= 10, "JS, Wasm-JS and the eight native targets; compared " + compared);
        assertNoProblems(problems);
    }

    @Test
    void dispatcherJvmsModuleIsRewrittenIntoKotlinxsJvmModuleKeepingDependenciesAndJar() throws Exception {
        Path module = pluginsJvmModule();
        JsonNode before = JSON.readTree(module.toFile());
        KotlinxModules.kmpPublication("jvm", module.toString(), VERSION);
        byte[] once = Files.readAllBytes(module);
        JsonNode ours = JSON.readTree(once);
        List<String> problems = new ArrayList<>();
        MultiplatformPublicationTest.Spec.check("dispatcher-jvm", ours, problems);
        KotlinxModules.compareTarget("dispatcher-jvm", ours, KotlinxModules.target("dispatcher-jvm"), VERSION, problems,
                new StringBuilder());
        assertNoProblems(problems);
        for (int i = 0; i < 2; i++) {
            JsonNode v = ours.path("variants").get(i);
            assertEquals(before.path("variants").get(i).path("dependencies"), v.path("dependencies"), "dependencies kept");
            assertEquals(before.path("variants").get(i).path("files"), v.path("files"), "the jar's entry kept");
            assertEquals("jvm", v.path("attributes").path("org.jetbrains.kotlin.platform.type").asText());
            assertEquals("standard-jvm", v.path("attributes").path("org.gradle.jvm.environment").asText());
        }
        assertEquals("../../dispatcher/" + VERSION + "/dispatcher-" + VERSION + ".module", ours.path("component").path("url").asText());
        // The build runs it on every package; on its own output it must change nothing.
        KotlinxModules.kmpPublication("jvm", module.toString(), VERSION);
        assertArrayEquals(once, Files.readAllBytes(module), "a second rewrite changed the file");
    }

    @Test
    void aJvmVariantOfAnotherUsageFailsTheRewrite() throws Exception {
        Path module = pluginsJvmModule();
        Files.writeString(module, Files.readString(module).replace("\"java-runtime\"", "\"java-documentation\""));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> KotlinxModules.kmpPublication("jvm", module.toString(), VERSION));
        assertTrue(e.getMessage().contains("java-documentation"), e.getMessage());
        Path other = pluginsJvmModule();
        assertThrows(IllegalStateException.class, () -> KotlinxModules.kmpPublication("jvm", other.toString(), "9.9.9"),
                "a .module of another version");
    }

    @Test
    void theRootModuleIsKotlinxsRootForEveryPublishedTarget() throws Exception {
        JsonNode ours = rootModule();
        List<String> problems = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        MultiplatformPublicationTest.Spec.check("dispatcher", ours, problems);
        KotlinxModules.compareRoot(ours, KotlinxModules.root(), KotlinxModules.forageTargetModules(), VERSION, problems, table);
        System.out.println(table);
        assertNoProblems(problems);
        Set<String> reached = new TreeSet<>();
        for (JsonNode v : ours.path("variants")) {
            if (v.has("available-at")) reached.add(v.path("available-at").path("module").asText());
        }
        assertEquals(new TreeSet<>(KotlinxModules.forageTargetModules()), reached, "the modules the root leads to");
    }

    @Test
    void theProjectStructureListsExactlyTheRootsTargetVariants() throws Exception {
        Path out = dir.resolve("structure.json");
        KotlinxModules.kmpPublication("structure", out.toString());
        JsonNode structure = JSON.readTree(out.toFile()).path("projectStructure");
        Set<String> listed = new TreeSet<>();
        for (JsonNode v : structure.path("variants")) listed.add(v.path("name").asText());
        Set<String> root = new TreeSet<>();
        for (JsonNode v : rootModule().path("variants")) {
            if (v.has("available-at")) root.add(v.path("name").asText().replace("-published", ""));
        }
        assertEquals(root, listed);
    }

    /** The comparison itself: each kind of departure from kotlinx's module is reported. */
    @Test
    void theComparisonReportsEveryKindOfDeparture() throws Exception {
        JsonNode good = targetModule("dispatcher-iosarm64");
        JsonNode kotlinx = KotlinxModules.target("dispatcher-iosarm64");
        List<String> none = new ArrayList<>();
        KotlinxModules.compareTarget("dispatcher-iosarm64", good, kotlinx, VERSION, none, new StringBuilder());
        assertNoProblems(none);
        Map<String, Consumer<ObjectNode>> breaks = Map.of(
                "another target's attribute", m -> variant(m).with("attributes").put("org.jetbrains.kotlin.native.target", "ios_x64"),
                "a missing attribute", m -> variant(m).with("attributes").remove("artifactType"),
                "a runtime variant kotlinx does not publish", m -> ((ArrayNode) m.get("variants")).add(variant(m).deepCopy().put("name", "iosArm64RuntimeElements-published")),
                "a file named as a JS klib", m -> ((ObjectNode) variant(m).get("files").get(0)).put("name", "dispatcher-iosarm64-" + VERSION + ".klib"),
                "a component that is not the root", m -> ((ObjectNode) m.get("component")).put("url", "../../dispatcher-iosarm64/" + VERSION + "/x.module"),
                "a component without its url", m -> ((ObjectNode) m.get("component")).remove("url"));
        breaks.forEach((what, edit) -> {
            ObjectNode broken = good.deepCopy();
            edit.accept(broken);
            List<String> problems = new ArrayList<>();
            KotlinxModules.compareTarget("dispatcher-iosarm64", broken, kotlinx, VERSION, problems, new StringBuilder());
            assertFalse(problems.isEmpty(), what + " went unreported");
        });
        ObjectNode root = rootModule().deepCopy();
        for (JsonNode v : root.get("variants")) {
            if (v.path("name").asText().equals("jvmApiElements-published")) {
                ((ObjectNode) v.get("attributes")).put("org.gradle.jvm.environment", "non-jvm");
            }
        }
        List<String> problems = new ArrayList<>();
        KotlinxModules.compareRoot(root, KotlinxModules.root(), KotlinxModules.forageTargetModules(), VERSION, problems, new StringBuilder());
        assertFalse(problems.isEmpty(), "a root variant's wrong attribute went unreported");
    }

    private static ObjectNode variant(ObjectNode module) {
        return (ObjectNode) module.get("variants").get(0);
    }

    private static void assertNoProblems(List<String> problems) {
        assertTrue(problems.isEmpty(), () -> problems.size() + " problem(s):\n  " + String.join("\n  ", problems));
    }
}
