package dev.forage.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The staged bundle against the Central Portal's published requirements (central.sonatype.org, "Requirements"):
 * every component has its POM, and a jar component its main, sources and javadoc jars; every file has a .asc
 * signature and .md5 / .sha1 checksums; every POM has name, description, url, licenses, developers and scm; no
 * SNAPSHOT. Beyond the Portal: the contents of checksums and signatures are verified (against the release's public
 * key), nothing but the published artifacts is in the bundle (no test jars, samples or benchmarks), the BOM lists
 * the published libraries, the jars carry LICENSE and NOTICE, and the Gradle module metadata matches the jars.
 *
 * <p>Each test lists every problem it finds, so one run shows all that is wrong with a bundle.
 */
class CentralBundleTest {
    private static final String GROUP_ID = "dev.forage";
    private static final Map<String, String> CHECKSUMS =
            Map.of(".md5", "MD5", ".sha1", "SHA-1", ".sha256", "SHA-256", ".sha512", "SHA-512");
    private static final List<String> REQUIRED_CHECKSUMS = List.of(".md5", ".sha1");
    private static final String GRADLE_MARKER = "do_not_remove: published-with-gradle-metadata";

    private static Bundle bundle;
    private static String version;
    private static Path signingKey;
    private static List<String> published;

    @BeforeAll
    static void readBundle() {
        version = required("forage.version");
        signingKey = Path.of(required("forage.signingKey"));
        published = List.of(required("forage.published").split(","));
        bundle = Bundle.read(Path.of(required("forage.bundle")), GROUP_ID);
    }

    private static String required(String property) {
        String value = System.getProperty(property, "");
        if (value.isBlank()) {
            throw new IllegalArgumentException(
                    "system property " + property + " is not set (release/stage-bundle.sh sets it)");
        }
        return value;
    }

    @Test
    void holdsExactlyThePublishedArtifactsInCentralsLayout() {
        List<String> problems = new ArrayList<>();
        for (String path : bundle.files.keySet()) {
            String[] parts = bundle.relative(path);
            if (parts == null) problems.add(path + ": not at " + bundle.groupPath + "/<artifactId>/<version>/<file>");
            else if (!parts[1].equals(version)) problems.add(path + ": version directory is not " + version);
            else if (!parts[2].startsWith(parts[0] + "-" + version)) {
                problems.add(path + ": file name does not start with " + parts[0] + "-" + version);
            }
        }
        assertEquals(new TreeSet<>(published), new TreeSet<>(bundle.artifactIds()), "artifacts in the bundle");
        assertNoProblems(problems);
    }

    @Test
    void everyComponentHasItsPomAndAJarComponentItsMainSourcesAndJavadocJars() {
        List<String> problems = new ArrayList<>();
        for (String artifactId : published) {
            String base = artifactId + "-" + version;
            byte[] pom = bundle.file(artifactId, version, base + ".pom");
            if (pom == null) {
                problems.add(artifactId + ": no " + base + ".pom");
                continue;
            }
            if (new Pom(pom).packaging().equals("pom")) continue;
            for (String jar : List.of(base + ".jar", base + "-sources.jar", base + "-javadoc.jar")) {
                byte[] bytes = bundle.file(artifactId, version, jar);
                if (bytes == null) problems.add(artifactId + ": no " + jar);
                else if (entries(bytes).stream().noneMatch(e -> !e.endsWith("/") && !e.startsWith("META-INF/"))) {
                    problems.add(artifactId + ": " + jar + " holds no content");
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void shipsNoTestJars() {
        List<String> problems = new ArrayList<>();
        for (String path : bundle.files.keySet()) {
            if (path.matches(".*-tests?(-sources|-javadoc)?\\.jar(\\..*)?")) problems.add(path + ": a test jar");
        }
        assertNoProblems(problems);
    }

    @Test
    void everyFileHasMd5AndSha1ChecksumsThatMatchIt() throws NoSuchAlgorithmException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, byte[]> file : bundle.files.entrySet()) {
            String path = file.getKey();
            if (CHECKSUMS.keySet().stream().anyMatch(path::endsWith)) continue;
            boolean isSignature = path.endsWith(".asc");
            for (Map.Entry<String, String> sum : CHECKSUMS.entrySet()) {
                byte[] stated = bundle.files.get(path + sum.getKey());
                if (stated == null) {
                    // The Portal requires md5 and sha1 for published files; a signature needs none.
                    if (!isSignature && REQUIRED_CHECKSUMS.contains(sum.getKey())) {
                        problems.add(path + ": no " + sum.getKey());
                    }
                    continue;
                }
                String expected = hex(sum.getValue(), file.getValue());
                String actual = new String(stated, StandardCharsets.US_ASCII).trim().split("\\s+")[0].toLowerCase();
                if (!actual.equals(expected)) {
                    problems.add(path + sum.getKey() + ": says " + actual + ", the file's is " + expected);
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void everyFileIsSignedByTheReleaseKey() {
        Signatures signatures = new Signatures(signingKey);
        List<String> problems = new ArrayList<>();
        int verified = 0;
        for (String artifactId : published) {
            for (String name : bundle.publishedFiles(artifactId, version)) {
                byte[] asc = bundle.file(artifactId, version, name + ".asc");
                String problem = asc == null
                        ? "no .asc signature"
                        : signatures.problem(bundle.file(artifactId, version, name), asc);
                if (problem == null) verified++;
                else problems.add(artifactId + "/" + name + ": " + problem);
            }
        }
        assertNoProblems(problems);
        assertTrue(verified >= published.size(), "verified only " + verified + " signatures");
    }

    @Test
    void everyPomHasTheMetadataCentralRequiresAndNoSnapshot() {
        List<String> problems = new ArrayList<>();
        for (String artifactId : published) {
            byte[] bytes = bundle.file(artifactId, version, artifactId + "-" + version + ".pom");
            if (bytes == null) continue; // reported by the component test
            Pom pom = new Pom(bytes);
            String where = artifactId + ".pom: ";
            String groupId = pom.get("/project/groupId", "/project/parent/groupId");
            String pomVersion = pom.get("/project/version", "/project/parent/version");
            if (!groupId.equals(GROUP_ID)) problems.add(where + "groupId is '" + groupId + "'");
            if (!pom.get("/project/artifactId").equals(artifactId)) {
                problems.add(where + "artifactId is '" + pom.get("/project/artifactId") + "'");
            }
            if (!pomVersion.equals(version)) problems.add(where + "version is '" + pomVersion + "'");
            for (String required : List.of("name", "description", "url",
                    "licenses/license/name", "licenses/license/url",
                    "scm/url", "scm/connection")) {
                if (pom.get("/project/" + required).isEmpty()) problems.add(where + "no <" + required + ">");
            }
            if (pom.get("/project/developers/developer/name", "/project/developers/developer/id").isEmpty()) {
                problems.add(where + "no <developers> with a name or id");
            }
            if (pom.text.contains("SNAPSHOT")) problems.add(where + "mentions a SNAPSHOT");
            // A library's POM is what its users resolve: flattened, with nothing left to inherit or interpolate.
            if (!pom.packaging().equals("pom") || artifactId.endsWith("-bom")) {
                if (!pom.get("/project/parent").isEmpty()) problems.add(where + "still has a <parent> (not flattened)");
                for (String v : pom.all("//dependency/version")) {
                    if (v.isEmpty() || v.contains("${")) {
                        problems.add(where + "dependency version '" + v + "' is not resolved");
                    }
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void theBomManagesExactlyThePublishedLibraries() {
        String bomId = published.stream().filter(a -> a.endsWith("-bom")).findFirst().orElseThrow(() ->
                new AssertionError("no *-bom among the published artifacts " + published));
        Pom bom = new Pom(bundle.file(bomId, version, bomId + "-" + version + ".pom"));
        List<String> managed = new ArrayList<>();
        List<String> groups = bom.all("/project/dependencyManagement/dependencies/dependency/groupId");
        List<String> ids = bom.all("/project/dependencyManagement/dependencies/dependency/artifactId");
        List<String> versions = bom.all("/project/dependencyManagement/dependencies/dependency/version");
        for (int i = 0; i < ids.size(); i++) managed.add(groups.get(i) + ":" + ids.get(i) + ":" + versions.get(i));
        // Every published artifact but the BOM itself and the parent POM (which no project depends on): the jars,
        // and the multiplatform root and its JS and Wasm-JS variants (POM packaging, their files named by the Gradle
        // module metadata), which Gradle users align too.
        List<String> libraries = new ArrayList<>();
        for (String artifactId : published) {
            if (!artifactId.equals(bomId) && !artifactId.endsWith("-parent")) {
                libraries.add(GROUP_ID + ":" + artifactId + ":" + version);
            }
        }
        assertEquals(new TreeSet<>(libraries), new TreeSet<>(managed), "the BOM's entries against the published artifacts");
    }

    @Test
    void mainAndSourcesJarsCarryLicenseAndNotice() {
        List<String> problems = new ArrayList<>();
        for (String artifactId : published) {
            for (String name : bundle.publishedFiles(artifactId, version)) {
                if (!name.endsWith(".jar") || name.endsWith("-javadoc.jar")) continue;
                List<String> entries = entries(bundle.file(artifactId, version, name));
                for (String legal : List.of("META-INF/LICENSE", "META-INF/NOTICE")) {
                    if (!entries.contains(legal)) problems.add(artifactId + "/" + name + ": no " + legal);
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void gradleModuleMetadataIsAnnouncedByThePomAndMatchesTheFilesItNames() throws NoSuchAlgorithmException {
        Pattern fileEntry = Pattern.compile(
                "\"url\": \"([^\"]+)\",\\s*\"size\": (\\d+),.*?\"sha1\": \"([0-9a-f]+)\"", Pattern.DOTALL);
        List<String> problems = new ArrayList<>();
        for (String artifactId : published) {
            String base = artifactId + "-" + version;
            byte[] module = bundle.file(artifactId, version, base + ".module");
            byte[] pom = bundle.file(artifactId, version, base + ".pom");
            boolean announced = pom != null && new String(pom, StandardCharsets.UTF_8).contains(GRADLE_MARKER);
            if (module == null) {
                if (announced) {
                    problems.add(artifactId + ": the POM announces Gradle metadata, but there is no .module");
                }
                continue;
            }
            if (!announced) {
                problems.add(artifactId + ": a .module is there, but the POM lacks the marker Gradle looks for");
            }
            Matcher m = fileEntry.matcher(new String(module, StandardCharsets.UTF_8));
            int files = 0;
            while (m.find()) {
                files++;
                byte[] named = bundle.file(artifactId, version, m.group(1));
                if (named == null) {
                    problems.add(artifactId + ".module names " + m.group(1) + ", which is not in the bundle");
                } else if (named.length != Long.parseLong(m.group(2))
                        || !hex("SHA-1", named).equals(m.group(3))) {
                    problems.add(artifactId + ".module: size or sha1 of " + m.group(1) + " differ from the file's");
                }
            }
            if (files == 0) problems.add(artifactId + ".module names no file");
        }
        assertNoProblems(problems);
    }

    private static String hex(String algorithm, byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
    }

    private static List<String> entries(byte[] jar) {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) names.add(e.getName());
        } catch (IOException e) {
            names.add("<unreadable jar: " + e + ">");
        }
        return names;
    }

    private static void assertNoProblems(List<String> problems) {
        assertTrue(problems.isEmpty(), () -> problems.size() + " problem(s):\n  " + String.join("\n  ", problems));
    }
}
