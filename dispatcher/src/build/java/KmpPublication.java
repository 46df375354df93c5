import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the Gradle module metadata (.module) of the multiplatform publication of dev.forage:dispatcher, in the
 * shape the Kotlin Gradle plugin publishes (compared with kotlinx-coroutines-core's own by release/check's
 * MultiplatformPublicationTest): the root module's variants point ("available-at") to one module per target, and each
 * target module lists its klib with its size and hashes. It also writes the root jar's
 * META-INF/kotlin-project-structure-metadata.json, which tells Gradle which metadata source sets each target sees.
 * Run by the build with the JDK's single-file launcher:
 * <pre>
 * java KmpPublication.java root   &lt;out.module&gt; &lt;version&gt; &lt;kotlin&gt; &lt;kotlinx&gt; &lt;metadata jar&gt;
 * java KmpPublication.java target &lt;js|wasm-js|linuxx64&gt; &lt;out.module&gt; &lt;version&gt; &lt;kotlin&gt; &lt;kotlinx&gt; &lt;atomicfu&gt; &lt;klib&gt;
 * java KmpPublication.java structure &lt;out.json&gt;
 * java KmpPublication.java mark-pom &lt;flattened POM&gt;
 * </pre>
 * mark-pom puts into a flattened POM (the release's, which keeps no comments) the marker comment that makes Gradle
 * read the .module beside it; a missing file is left alone (a build without the release profile flattens nothing,
 * and the project POMs carry the marker already).
 * The published targets: JVM (dispatcher-jvm), JS, Wasm-JS and linuxX64. The root always lists all of them, whether or
 * not this build made the native klib: its variants only point to the target modules, and the release (which builds
 * every target: release/stage-bundle.sh) publishes them together.
 */
public final class KmpPublication {
    static final String GROUP = "dev.forage";
    static final String ROOT = "dispatcher";

    /** The published targets: the per-target module, and the variant attributes Gradle matches on. */
    static final String[][] TARGETS = {
        // variant prefix, module, attributes (key=value, ...), the variant kinds; usage is added per kind
        {"jvm", ROOT + "-jvm", "org.gradle.category=library,org.gradle.jvm.environment=standard-jvm,"
            + "org.gradle.libraryelements=jar,org.jetbrains.kotlin.platform.type=jvm", "Api,Runtime"},
        {"js", ROOT + "-js", "org.gradle.category=library,org.gradle.jvm.environment=non-jvm,"
            + "org.jetbrains.kotlin.js.compiler=ir,org.jetbrains.kotlin.platform.type=js", "Api,Runtime"},
        {"wasmJs", ROOT + "-wasm-js", "org.gradle.category=library,org.gradle.jvm.environment=non-jvm,"
            + "org.jetbrains.kotlin.platform.type=wasm,org.jetbrains.kotlin.wasm.target=js", "Api,Runtime"},
        // A native target, as Gradle's Kotlin plugin publishes one: the API variant alone (the klib serves compiling
        // and linking alike), with the artifactType attribute the plugin adds to native klibs.
        {"linuxX64", ROOT + "-linuxx64", "artifactType=org.jetbrains.kotlin.klib,org.gradle.category=library,"
            + "org.gradle.jvm.environment=non-jvm,org.jetbrains.kotlin.native.target=linux_x64,"
            + "org.jetbrains.kotlin.platform.type=native", "Api"},
    };

    static String[] byFolder(String folder) {
        for (String[] t : TARGETS) {
            if (t[1].equals(ROOT + "-" + folder)) return t;
        }
        throw new IllegalArgumentException("no published target " + folder + " (js, wasm-js or linuxx64)");
    }

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "root":
                write(Paths.get(args[1]), root(args[2], args[3], args[4], Paths.get(args[5])));
                break;
            case "target":
                write(Paths.get(args[2]), target(args[1], args[3], args[4], args[5], args[6], Paths.get(args[7])));
                break;
            case "structure":
                write(Paths.get(args[1]), structure());
                break;
            case "mark-pom":
                markPom(Paths.get(args[1]));
                break;
            default:
                throw new IllegalArgumentException("usage: root ... | target ... | structure ... (see the class comment)");
        }
    }

    static String root(String version, String kotlin, String kotlinx, Path metadataJar) throws IOException {
        Json variants = Json.array();
        variants.add(Json.object()
            .put("name", "metadataApiElements")
            .put("attributes", attributes("org.gradle.category=library,org.gradle.jvm.environment=non-jvm,"
                + "org.gradle.usage=kotlin-metadata,org.jetbrains.kotlin.platform.type=common"))
            .put("dependencies", Json.array()
                .add(dependency("org.jetbrains.kotlin", "kotlin-stdlib", kotlin))
                .add(dependency("org.jetbrains.kotlinx", "kotlinx-coroutines-core", kotlinx)))
            .put("files", Json.array().add(file(ROOT + "-metadata-" + version + ".jar", metadataJar, ROOT + "-" + version + ".jar"))));
        for (String[] t : TARGETS) {
            boolean jvm = t[0].equals("jvm");
            for (String kind : t[3].split(",")) {
                String usage = jvm ? (kind.equals("Api") ? "java-api" : "java-runtime")
                    : (kind.equals("Api") ? "kotlin-api" : "kotlin-runtime");
                variants.add(Json.object()
                    .put("name", t[0] + kind + "Elements-published")
                    .put("attributes", attributes(t[2] + ",org.gradle.usage=" + usage))
                    .put("available-at", Json.object()
                        .put("url", "../../" + t[1] + "/" + version + "/" + t[1] + "-" + version + ".module")
                        .put("group", GROUP)
                        .put("module", t[1])
                        .put("version", version)));
            }
        }
        return Json.object()
            .put("formatVersion", "1.1")
            .put("component", Json.object()
                .put("group", GROUP).put("module", ROOT).put("version", version)
                .put("attributes", Json.object().put("org.gradle.status", status(version))))
            .put("variants", variants)
            .toString();
    }

    static String target(String target, String version, String kotlin, String kotlinx, String atomicfu, Path klib)
        throws IOException {
        String[] t = byFolder(target);
        Json deps = Json.array()
            .add(dependency("org.jetbrains.kotlinx", "atomicfu", atomicfu));
        if (target.equals("js")) deps.add(dependency("org.jetbrains.kotlin", "kotlin-dom-api-compat", kotlin));
        deps.add(dependency("org.jetbrains.kotlin", "kotlin-stdlib", kotlin))
            .add(dependency("org.jetbrains.kotlinx", "kotlinx-coroutines-core", kotlinx));
        // The file's name is the one Gradle gives it: the module's for JS and Wasm-JS, the compilation's
        // (<root>-linuxX64Main-<version>.klib) for a native target; the url is the published file's either way.
        String url = t[1] + "-" + version + ".klib";
        String name = t[2].contains("platform.type=native") ? ROOT + "-" + t[0] + "Main-" + version + ".klib" : url;
        Json variants = Json.array();
        for (String kind : t[3].split(",")) {
            variants.add(Json.object()
                .put("name", t[0] + kind + "Elements-published")
                .put("attributes", attributes(t[2] + ",org.gradle.usage=kotlin-" + kind.toLowerCase()))
                .put("dependencies", deps)
                .put("files", Json.array().add(file(name, klib, url))));
        }
        return Json.object()
            .put("formatVersion", "1.1")
            .put("component", Json.object()
                .put("url", "../../" + ROOT + "/" + version + "/" + ROOT + "-" + version + ".module")
                .put("group", GROUP).put("module", ROOT).put("version", version)
                .put("attributes", Json.object().put("org.gradle.status", status(version))))
            .put("variants", variants)
            .toString();
    }

    /**
     * Every published target sees the one metadata source set, commonMain (the targets' own code is in their klibs).
     * linuxX64 too: nativeMain serves it alone, and Gradle compiles metadata only for a source set that two or more
     * targets share.
     */
    static String structure() {
        Json variants = Json.array();
        for (String[] t : TARGETS) {
            for (String kind : t[3].split(",")) {
                variants.add(Json.object().put("name", t[0] + kind + "Elements")
                    .put("sourceSet", Json.array().add(Json.string("commonMain"))));
            }
        }
        return Json.object().put("projectStructure", Json.object()
            .put("formatVersion", "0.3.3")
            .put("isPublishedAsRoot", "true")
            .put("variants", variants)
            .put("sourceSets", Json.array().add(Json.object()
                .put("name", "commonMain")
                .put("dependsOn", Json.array())
                .put("moduleDependency", Json.array()
                    .add(Json.string("org.jetbrains.kotlin:kotlin-stdlib"))
                    .add(Json.string("org.jetbrains.kotlinx:kotlinx-coroutines-core")))
                .put("binaryLayout", "klib")))).toString();
    }

    static final String MARKER = "<!-- do_not_remove: published-with-gradle-metadata -->";

    static void markPom(Path pom) throws IOException {
        if (!Files.isRegularFile(pom)) return;
        String text = new String(Files.readAllBytes(pom), StandardCharsets.UTF_8);
        if (text.contains(MARKER)) return;
        int at = text.indexOf("<modelVersion>");
        if (at < 0) throw new IllegalStateException(pom + " has no <modelVersion>");
        write(pom, (text.substring(0, at) + MARKER + "\n  " + text.substring(at)).replaceAll("\\s+$", ""));
    }

    static String status(String version) {
        return version.endsWith("-SNAPSHOT") ? "integration" : "release";
    }

    static Json attributes(String list) {
        Map<String, String> sorted = new java.util.TreeMap<>();
        for (String pair : list.split(",")) {
            String[] kv = pair.split("=", 2);
            sorted.put(kv[0], kv[1]);
        }
        Json o = Json.object();
        sorted.forEach(o::put);
        return o;
    }

    static Json dependency(String group, String module, String version) {
        return Json.object().put("group", group).put("module", module)
            .put("version", Json.object().put("requires", version));
    }

    static Json file(String name, Path path, String url) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("the published file " + path + " does not exist: build it first");
        }
        byte[] bytes = Files.readAllBytes(path);
        return Json.object().put("name", name).put("url", url).put("size", bytes.length)
            .put("sha512", hex("SHA-512", bytes)).put("sha256", hex("SHA-256", bytes))
            .put("sha1", hex("SHA-1", bytes)).put("md5", hex("MD5", bytes));
    }

    static String hex(String algorithm, byte[] bytes) {
        try {
            StringBuilder sb = new StringBuilder();
            for (byte b : MessageDigest.getInstance(algorithm).digest(bytes)) sb.append(String.format("%02x", b));
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void write(Path out, String json) throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, (json + "\n").getBytes(StandardCharsets.UTF_8));
        System.out.println("wrote " + out);
    }

    /** A minimal JSON tree, printed with two-space indentation as Gradle prints its own. */
    static final class Json {
        private final Map<String, Object> fields;
        private final List<Object> items;

        private Json(Map<String, Object> fields, List<Object> items) {
            this.fields = fields;
            this.items = items;
        }

        static Json object() { return new Json(new LinkedHashMap<>(), null); }

        static Json array() { return new Json(null, new ArrayList<>()); }

        static Object string(String s) { return s; }

        Json put(String key, Object value) { fields.put(key, value); return this; }

        Json add(Object value) { items.add(value); return this; }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            print(sb, this, "");
            return sb.toString();
        }

        private static void print(StringBuilder sb, Object v, String indent) {
            if (v instanceof Json) {
                Json j = (Json) v;
                String inner = indent + "  ";
                if (j.fields != null) {
                    if (j.fields.isEmpty()) { sb.append("{}"); return; }
                    sb.append("{\n");
                    int i = 0;
                    for (Map.Entry<String, Object> e : j.fields.entrySet()) {
                        sb.append(inner).append(quote(e.getKey())).append(": ");
                        print(sb, e.getValue(), inner);
                        sb.append(++i < j.fields.size() ? ",\n" : "\n");
                    }
                    sb.append(indent).append('}');
                } else {
                    if (j.items.isEmpty()) { sb.append("[]"); return; }
                    sb.append("[\n");
                    for (int i = 0; i < j.items.size(); i++) {
                        sb.append(inner);
                        print(sb, j.items.get(i), inner);
                        sb.append(i + 1 < j.items.size() ? ",\n" : "\n");
                    }
                    sb.append(indent).append(']');
                }
            } else if (v instanceof Number) {
                sb.append(v);
            } else {
                sb.append(quote(String.valueOf(v)));
            }
        }

        private static String quote(String s) {
            StringBuilder sb = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') sb.append('\\').append(c);
                else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                else sb.append(c);
            }
            return sb.append('"').toString();
        }
    }
}
