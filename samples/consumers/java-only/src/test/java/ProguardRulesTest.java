import dev.forage.ForagePool;
import dev.forage.ForagePoolBuilder;
import dev.forage.interop.ForageFuture;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The R8/ProGuard consumer rules travel inside the libraries' jars (where an Android build picks them up), keep
 * every field a field updater looks up by name, and name only fields that exist.
 */
class ProguardRulesTest {

    private static final String DISPATCHER_RULES = "META-INF/proguard/forage-dispatcher.pro";
    private static final String INTEROP_RULES = "META-INF/proguard/forage-interop.pro";

    /** {@code -keepclassmembers class a.b.C { volatile TYPE name; }} */
    private static final Pattern FIELD_RULE =
            Pattern.compile("-keepclassmembers class ([\\w.$]+) \\{ volatile [\\w.$]+ (\\w+); \\}");

    /** {@code newUpdater(C.class, "name")} or {@code newUpdater(C.class, V.class, "name")}. */
    private static final Pattern UPDATER =
            Pattern.compile("newUpdater\\(\\s*(\\w+)\\.class\\s*,\\s*(?:[\\w.]+\\.class\\s*,\\s*)?\"(\\w+)\"");

    @Test
    void theRulesAreInsideTheLibraryJars() throws Exception {
        assertPackaged(ForagePool.class, DISPATCHER_RULES);
        assertPackaged(ForageFuture.class, INTEROP_RULES);
    }

    @Test
    void everyFieldUpdaterTargetIsKept() throws IOException {
        Path root = ReadmeSnippetsTest.repositoryRoot();
        assertUpdatersKept(root.resolve("dispatcher-jvm/src/main/java"), rules(DISPATCHER_RULES));
        assertUpdatersKept(root.resolve("interop-java/src/main/java"), rules(INTEROP_RULES));
    }

    @Test
    void everyKeptFieldExistsAndIsVolatile() throws Exception {
        int fields = 0;
        for (String rules : new String[] {rules(DISPATCHER_RULES), rules(INTEROP_RULES)}) {
            Matcher m = FIELD_RULE.matcher(rules);
            while (m.find()) {
                Field field = Class.forName(m.group(1)).getDeclaredField(m.group(2));
                assertTrue(Modifier.isVolatile(field.getModifiers()), field + " is not volatile");
                fields++;
            }
        }
        assertEquals(15, fields, "field rules (one per field updater)");
    }

    @Test
    void theReflectivelyCalledBuilderMethodExists() throws Exception {
        String rules = rules(DISPATCHER_RULES);
        assertTrue(rules.contains("uncaughtExceptionHandler(java.lang.Thread$UncaughtExceptionHandler)"), rules);
        assertEquals(ForagePoolBuilder.class, ForagePoolBuilder.class
                .getMethod("uncaughtExceptionHandler", Thread.UncaughtExceptionHandler.class).getReturnType());
    }

    private static void assertUpdatersKept(Path sources, String rules) throws IOException {
        List<String> missing = new ArrayList<>();
        int updaters = 0;
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
                String java = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                Matcher pkg = Pattern.compile("(?m)^package ([\\w.]+);").matcher(java);
                String prefix = pkg.find() ? pkg.group(1) + "." : "";
                Matcher m = UPDATER.matcher(java);
                while (m.find()) {
                    updaters++;
                    Pattern rule = Pattern.compile("-keepclassmembers class " + Pattern.quote(prefix + m.group(1))
                            + " \\{[^}]*\\b" + m.group(2) + ";");
                    if (!rule.matcher(rules).find()) missing.add(prefix + m.group(1) + "." + m.group(2));
                }
            }
        }
        assertTrue(updaters > 0, "no field updater found under " + sources);
        assertEquals(new ArrayList<String>(), missing, "fields found by name with no keep rule");
    }

    private static String rules(String resource) throws IOException {
        try (InputStream in = ProguardRulesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is not on the classpath");
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        }
    }


    /** In `mvn verify` the reactor hands this module the libraries' jars; in `mvn test`, their class folders. */
    private static void assertPackaged(Class<?> libraryClass, String resource) throws IOException, URISyntaxException {
        File location = new File(libraryClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (location.isFile()) {
            try (JarFile jar = new JarFile(location)) {
                ZipEntry entry = jar.getEntry(resource);
                assertNotNull(entry, resource + " missing from " + location);
                assertTrue(entry.getSize() > 0, resource + " is empty in " + location);
            }
        } else {
            assertTrue(new File(location, resource).isFile(), resource + " missing from " + location);
        }
    }
}
