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
 * KmpPublicationTest and MultiplatformPublicationTest): the root module's variants point ("available-at") to one
 * module per target, and each target module lists its klib with its size and hashes and names the root as its
 * component. It also writes the root jar's META-INF/kotlin-project-structure-metadata.json, which tells Gradle which
 * metadata source sets each target sees. Run by the build with the JDK's single-file launcher:
 * <pre>
 * java KmpPublication.java root   &lt;out.module&gt; &lt;version&gt; &lt;kotlin&gt; &lt;kotlinx&gt; &lt;metadata jar&gt;
 * java KmpPublication.java target &lt;folder&gt; &lt;out.module&gt; &lt;version&gt; &lt;kotlin&gt; &lt;kotlinx&gt; &lt;atomicfu&gt; &lt;klib&gt;
 * java KmpPublication.java jvm    &lt;dispatcher-jvm .module&gt; &lt;version&gt;
 * java KmpPublication.java structure &lt;out.json&gt;
 * java KmpPublication.java mark-pom &lt;flattened POM&gt;
 * java KmpPublication.java modules
 * </pre>
 * target's folder is the module's artifactId without "dispatcher-" (js, wasm-js, linuxx64, iosarm64...).
 * jvm rewrites, in place, the .module that gradle-module-metadata-maven-plugin wrote for dispatcher-jvm: that plugin
 * knows the dependencies and the jar, but writes a plain Java library's variants, which a JS or native consumer that
 * names dispatcher-jvm would take; the rewrite gives them the JVM target's attributes (org.jetbrains.kotlin.platform.type
 * among them, so such a consumer gets "no matching variant") and names the root as their component, as the Kotlin
 * plugin does for kotlinx-coroutines-core-jvm.
 * mark-pom puts into a flattened POM (the release's, which keeps no comments) the marker comment that makes Gradle
 * read the .module beside it; a missing file is left alone (a build without the release profile flattens nothing,
 * and the project POMs carry the marker already).
 * modules prints the target modules' artifactIds, comma-separated: release/stage-bundle.sh and release/check take
 * the list of what a release publishes from here, so that a target added to {@link #TARGETS} is built, staged and
 * checked without a second list to keep in step.
 * The root always lists every target, whether or not this build made its klib: its variants only point to the
 * target modules, and the release (which builds every target: release/stage-bundle.sh) publishes them together.
 */
public final class KmpPublication {
    static final String GROUP = "dev.forage";
    static final String ROOT = "dispatcher";

    /**
     * One published target: the Kotlin plugin's name for it (the variants' prefix, linuxX64), the folder that is its
     * module's artifactId without "dispatcher-", the attributes Gradle matches its variants on (usage is added per
     * kind), and the kinds of variant it publishes.
     */
    record Target(String prefix, String folder, String attributes, List<String> kinds) {
        String module() {
            return ROOT + "-" + folder;
        }

        boolean jvm() {
            return attributes.contains("platform.type=jvm");
        }

        boolean nativeTarget() {
            return attributes.contains("platform.type=native");
        }

        String usage(String kind) {
            return (jvm() ? "java-" : "kotlin-") + (kind.equals("Api") ? "api" : "runtime");
        }
    }

    /** The published targets, the one list the build, the release script and the release checks work from. */
    static final List<Target> TARGETS = List.of(
        new Target("jvm", "jvm", "org.gradle.category=library,org.gradle.jvm.environment=standard-jvm,"
            + "org.gradle.libraryelements=jar,org.jetbrains.kotlin.platform.type=jvm", List.of("Api", "Runtime")),
        new Target("js", "js", "org.gradle.category=library,org.gradle.jvm.environment=non-jvm,"
            + "org.jetbrains.kotlin.js.compiler=ir,org.jetbrains.kotlin.platform.type=js", List.of("Api", "Runtime")),
        new Target("wasmJs", "wasm-js", "org.gradle.category=library,org.gradle.jvm.environment=non-jvm,"
            + "org.jetbrains.kotlin.platform.type=wasm,org.jetbrains.kotlin.wasm.target=js", List.of("Api", "Runtime")),
        nativeTarget("linuxX64", "linux_x64"),
        nativeTarget("linuxArm64", "linux_arm64"),
        nativeTarget("mingwX64", "mingw_x64"),
        nativeTarget("iosArm64", "ios_arm64"),
        nativeTarget("iosSimulatorArm64", "ios_simulator_arm64"),
        nativeTarget("iosX64", "ios_x64"),
        nativeTarget("macosArm64", "macos_arm64"),
        nativeTarget("watchosArm64", "watchos_arm64"));

    /**
     * A Kotlin/Native target, as Gradle's Kotlin plugin publishes one: the API variant alone (the klib serves
     * compiling and linking alike), with the artifactType attribute the plugin adds to native klibs. The folder is
     * the prefix in lower case (linuxx64), as the plugin names the target's module.
     */
    static Target nativeTarget(String prefix, String konanTarget) {
        return new Target(prefix, prefix.toLowerCase(java.util.Locale.ROOT), "artifactType=org.jetbrains.kotlin.klib,"
            + "org.gradle.category=library,org.gradle.jvm.environment=non-jvm,org.jetbrains.kotlin.native.target="
            + konanTarget + ",org.jetbrains.kotlin.platform.type=native", List.of("Api"));
    }

    static Target byFolder(String folder) {
        List<String> folders = new ArrayList<>();
        for (Target t : TARGETS) {
            if (t.folder().equals(folder)) return t;
            folders.add(t.folder());
        }
        throw new IllegalArgumentException("no published target " + folder + " (one of " + folders + ")");
    }

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "root":
                write(Paths.get(args[1]), root(args[2], args[3], args[4], Paths.get(args[5])));
                break;
            case "target":
                write(Paths.get(args[2]), target(args[1], args[3], args[4], args[5], args[6], Paths.get(args[7])));
                break;
            case "jvm":
                Path module = Paths.get(args[1]);
                write(module, jvm(new String(Files.readAllBytes(module), StandardCharsets.UTF_8), args[2]));
                break;
            case "structure":
                write(Paths.get(args[1]), structure());
                break;
            case "mark-pom":
                markPom(Paths.get(args[1]));
                break;
            case "modules":
                System.out.println(String.join(",", modules()));
                break;
            default:
                throw new IllegalArgumentException(
                    "usage: root ... | target ... | jvm ... | structure ... | mark-pom ... | modules (see the class comment)");
        }
    }

    /** The target modules' artifactIds, dispatcher-jvm first (release/check calls it too). */
    public static List<String> modules() {
        List<String> modules = new ArrayList<>();
        for (Target t : TARGETS) modules.add(t.module());
        return modules;
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
        for (Target t : TARGETS) {
            for (String kind : t.kinds()) {
                variants.add(Json.object()
                    .put("name", t.prefix() + kind + "Elements-published")
                    .put("attributes", attributes(t.attributes() + ",org.gradle.usage=" + t.usage(kind)))
                    .put("available-at", Json.object()
                        .put("url", "../../" + t.module() + "/" + version + "/" + t.module() + "-" + version + ".module")
                        .put("group", GROUP)
                        .put("module", t.module())
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

    static String target(String folder, String version, String kotlin, String kotlinx, String atomicfu, Path klib)
        throws IOException {
        Target t = byFolder(folder);
        if (t.jvm()) throw new IllegalArgumentException("dispatcher-jvm's .module is rewritten by `jvm`, not written here");
        Json deps = Json.array()
            .add(dependency("org.jetbrains.kotlinx", "atomicfu", atomicfu));
        if (folder.equals("js")) deps.add(dependency("org.jetbrains.kotlin", "kotlin-dom-api-compat", kotlin));
        deps.add(dependency("org.jetbrains.kotlin", "kotlin-stdlib", kotlin))
            .add(dependency("org.jetbrains.kotlinx", "kotlinx-coroutines-core", kotlinx));
        // The file's name is the one Gradle gives it: the module's for JS and Wasm-JS, the compilation's
        // (<root>-linuxX64Main-<version>.klib) for a native target; the url is the published file's either way.
        String url = t.module() + "-" + version + ".klib";
        String name = t.nativeTarget() ? ROOT + "-" + t.prefix() + "Main-" + version + ".klib" : url;
        Json variants = Json.array();
        for (String kind : t.kinds()) {
            variants.add(Json.object()
                .put("name", t.prefix() + kind + "Elements-published")
                .put("attributes", attributes(t.attributes() + ",org.gradle.usage=" + t.usage(kind)))
                .put("dependencies", deps)
                .put("files", Json.array().add(file(name, klib, url))));
        }
        return Json.object()
            .put("formatVersion", "1.1")
            .put("component", component(version))
            .put("variants", variants)
            .toString();
    }

    /**
     * dispatcher-jvm's .module as gradle-module-metadata-maven-plugin wrote it (its dependencies and jar kept), with
     * the JVM target's variant names and attributes and the root as its component. Each variant is told apart by its
     * usage (java-api, java-runtime); any other variant fails the build rather than be published unchecked. Running it
     * on its own output gives the same file.
     */
    static String jvm(String written, String version) {
        Target t = byFolder("jvm");
        Json module = (Json) Json.parse(written);
        Object component = module.get("component");
        String writtenVersion = component instanceof Json ? String.valueOf(((Json) component).get("version")) : null;
        if (!version.equals(writtenVersion)) {
            throw new IllegalStateException("the .module is of version " + writtenVersion + ", not " + version);
        }
        Json variants = Json.array();
        for (Object item : ((Json) module.get("variants")).items) {
            Json v = (Json) item;
            Object usage = ((Json) v.get("attributes")).get("org.gradle.usage");
            String kind = null;
            for (String k : t.kinds()) {
                if (t.usage(k).equals(usage)) kind = k;
            }
            if (kind == null) {
                throw new IllegalStateException("dispatcher-jvm's .module has a variant " + v.get("name") + " of usage "
                    + usage + ", which the JVM target does not publish");
            }
            Json renamed = Json.object();
            for (Map.Entry<String, Object> e : v.fields.entrySet()) {
                if (e.getKey().equals("name")) renamed.put("name", t.prefix() + kind + "Elements-published");
                else if (e.getKey().equals("attributes")) {
                    renamed.put("attributes", attributes(t.attributes() + ",org.gradle.usage=" + usage));
                } else renamed.put(e.getKey(), e.getValue());
            }
            variants.add(renamed);
        }
        Json out = Json.object();
        for (Map.Entry<String, Object> e : module.fields.entrySet()) {
            if (e.getKey().equals("component")) out.put("component", component(version));
            else if (e.getKey().equals("variants")) out.put("variants", variants);
            else out.put(e.getKey(), e.getValue());
        }
        return out.toString();
    }

    /**
     * A target module's component: the root, with the url of its .module, as the Kotlin plugin writes it in each
     * target's module (Gradle then knows the target module for a variant of the root's).
     */
    static Json component(String version) {
        return Json.object()
            .put("url", "../../" + ROOT + "/" + version + "/" + ROOT + "-" + version + ".module")
            .put("group", GROUP).put("module", ROOT).put("version", version)
            .put("attributes", Json.object().put("org.gradle.status", status(version)));
    }

    /**
     * Every published target sees the one metadata source set, commonMain (the targets' own code is in their klibs).
     * The native targets share source sets of their own (nativeMain among them), but this build compiles metadata for
     * commonMain only, so that is all the jar holds and all the structure names: a consumer's shared native source
     * set compiles against commonMain's API of the dispatcher, and each of its native targets against that target's
     * klib. No source set is host-specific either, so no Apple target publishes a metadata variant of its own.
     */
    static String structure() {
        Json variants = Json.array();
        for (Target t : TARGETS) {
            for (String kind : t.kinds()) {
                variants.add(Json.object().put("name", t.prefix() + kind + "Elements")
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

    /**
     * A minimal JSON tree, printed with two-space indentation as Gradle prints its own, and read back (jvm mode
     * reads another writer's .module): objects keep their keys' order; numbers are read as Long, or BigDecimal when
     * they have a fraction or an exponent.
     */
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

        Object get(String key) { return fields.get(key); }

        static Object parse(String text) {
            Reader r = new Reader(text);
            Object v = r.value();
            r.skipSpace();
            if (r.at < text.length()) throw r.error("text after the value");
            return v;
        }

        /** A recursive-descent reader of RFC 8259 JSON; it refuses what it does not understand. */
        private static final class Reader {
            private final String s;
            private int at;

            Reader(String s) { this.s = s; }

            IllegalArgumentException error(String what) {
                return new IllegalArgumentException("JSON: " + what + " at offset " + at);
            }

            void skipSpace() {
                while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) at++;
            }

            void expect(char c) {
                skipSpace();
                if (at >= s.length() || s.charAt(at) != c) throw error("expected '" + c + "'");
                at++;
            }

            boolean next(char c) {
                skipSpace();
                if (at < s.length() && s.charAt(at) == c) { at++; return true; }
                return false;
            }

            Object value() {
                skipSpace();
                if (at >= s.length()) throw error("end of text where a value was expected");
                char c = s.charAt(at);
                if (c == '{') {
                    at++;
                    Json o = object();
                    if (next('}')) return o;
                    do {
                        skipSpace();
                        if (at >= s.length() || s.charAt(at) != '"') throw error("expected a key");
                        String key = string();
                        expect(':');
                        if (o.fields.containsKey(key)) throw error("key " + key + " given twice");
                        o.put(key, value());
                    } while (next(','));
                    expect('}');
                    return o;
                }
                if (c == '[') {
                    at++;
                    Json a = array();
                    if (next(']')) return a;
                    do a.add(value()); while (next(','));
                    expect(']');
                    return a;
                }
                if (c == '"') return string();
                for (String word : new String[] {"true", "false", "null"}) {
                    if (s.startsWith(word, at)) {
                        at += word.length();
                        return word.equals("null") ? NULL : Boolean.valueOf(word);
                    }
                }
                int start = at;
                while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) at++;
                String number = s.substring(start, at);
                if (number.isEmpty()) throw error("unexpected '" + c + "'");
                if (number.matches("-?(0|[1-9][0-9]*)")) return Long.valueOf(number);
                if (number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) return new java.math.BigDecimal(number);
                throw error("malformed number " + number);
            }

            String string() {
                at++; // the opening quote
                StringBuilder sb = new StringBuilder();
                while (true) {
                    if (at >= s.length()) throw error("unterminated string");
                    char c = s.charAt(at++);
                    if (c == '"') return sb.toString();
                    if (c < 0x20) throw error("control character in a string");
                    if (c != '\\') { sb.append(c); continue; }
                    if (at >= s.length()) throw error("unterminated escape");
                    char e = s.charAt(at++);
                    switch (e) {
                        case '"': case '\\': case '/': sb.append(e); break;
                        case 'b': sb.append('\b'); break;
                        case 'f': sb.append('\f'); break;
                        case 'n': sb.append('\n'); break;
                        case 'r': sb.append('\r'); break;
                        case 't': sb.append('\t'); break;
                        case 'u':
                            if (at + 4 > s.length()) throw error("short \\u escape");
                            sb.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                            at += 4;
                            break;
                        default: throw error("unknown escape \\" + e);
                    }
                }
            }
        }

        /** JSON's null (a Map value of null would read as a missing key). */
        static final Object NULL = new Object() {
            @Override public String toString() { return "null"; }
        };

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
            } else if (v instanceof Number || v instanceof Boolean || v == NULL) {
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
