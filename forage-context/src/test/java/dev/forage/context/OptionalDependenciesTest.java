package dev.forage.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SLF4J and OpenTelemetry are optional dependencies: each decorator must run with its own library alone on the
 * class path, and TaskDecorators with neither. Each case loads a probe ({@link LibraryProbes}) in a class loader
 * that holds this artifact, dispatcher-jvm and the one library (no Kotlin either, and the platform loader as
 * parent, so the test's own class path is out of reach), and runs it on a real pool. The other library's decorator
 * fails in that loader, which shows the loader really lacks it.
 */
@Watchdog.Budget(seconds = 60)
class OptionalDependenciesTest {
    /** The class path entries of each library, by their folder in the local Maven repository. */
    private static final List<String> SLF4J = List.of("/org/slf4j/", "/ch/qos/logback/");
    private static final List<String> OPENTELEMETRY = List.of("/io/opentelemetry/");

    @Test
    void theMdcDecoratorRunsWithoutOpenTelemetry() throws Exception {
        try (URLClassLoader loader = loaderWith(SLF4J)) {
            assertAbsent(loader, "io.opentelemetry.context.Context");
            assertEquals("r-mdc", run(loader, LibraryProbes.Mdc.class));
            assertMissing("io/opentelemetry/context", () -> run(loader, LibraryProbes.OpenTelemetry.class));
        }
    }

    @Test
    void theOpenTelemetryDecoratorRunsWithoutSlf4j() throws Exception {
        try (URLClassLoader loader = loaderWith(OPENTELEMETRY)) {
            assertAbsent(loader, "org.slf4j.MDC");
            assertEquals("r-otel", run(loader, LibraryProbes.OpenTelemetry.class));
            assertMissing("org/slf4j/MDC", () -> run(loader, LibraryProbes.Mdc.class));
        }
    }

    @Test
    void composingNeedsNeitherLibrary() throws Exception {
        try (URLClassLoader loader = loaderWith(List.of())) {
            assertAbsent(loader, "org.slf4j.MDC");
            assertAbsent(loader, "io.opentelemetry.context.Context");
            assertEquals("r-own", run(loader, LibraryProbes.Neither.class));
        }
    }

    /**
     * This artifact's classes, the probes, dispatcher-jvm's classes, and the test class path's entries under the
     * {@code library} folders (each of which must match one at least).
     */
    private static URLClassLoader loaderWith(List<String> library) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(locationOf(MdcTaskDecorator.class));
        urls.add(locationOf(LibraryProbes.class));
        urls.add(locationOf(ForagePool.class));
        // Surefire sets java.class.path to the test class path even when it starts the JVM through a manifest jar.
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        for (String folder : library) {
            int before = urls.size();
            for (String entry : entries) {
                if (entry.replace('\\', '/').contains(folder)) {
                    urls.add(Paths.get(entry).toUri().toURL());
                }
            }
            assertTrue(urls.size() > before, "no jar under " + folder + " on the test class path: " + entries);
        }
        URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        assertAbsent(loader, "kotlin.Unit");
        assertAbsent(loader, "org.junit.jupiter.api.Test");
        return loader;
    }

    private static URL locationOf(Class<?> c) throws MalformedURLException {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    /** Loads {@code probe} by name in {@code loader} (its own copy, not the test's) and calls it. */
    private static String run(ClassLoader loader, Class<?> probe) throws Exception {
        Class<?> isolated = Class.forName(probe.getName(), true, loader);
        assertTrue(isolated != probe && isolated.getClassLoader() == loader, "loaded from the isolated loader");
        Constructor<?> constructor = isolated.getDeclaredConstructor();
        constructor.setAccessible(true);
        try {
            return (String) ((Callable<?>) constructor.newInstance()).call();
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : new Exception(e.getCause());
        }
    }

    private static void assertAbsent(ClassLoader loader, String className) {
        assertThrows(ClassNotFoundException.class, () -> Class.forName(className, false, loader),
                className + " is visible to the isolated loader");
    }

    /** {@code body} fails because {@code missing} cannot be found: a NoClassDefFoundError naming it, in the causes. */
    private static void assertMissing(String missing, Callable<?> body) {
        Throwable thrown = assertThrows(Throwable.class, body::call);
        List<String> chain = new ArrayList<>();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            chain.add(String.valueOf(t));
            if (t instanceof NoClassDefFoundError && String.valueOf(t.getMessage()).contains(missing)) {
                return;
            }
        }
        fail("expected a NoClassDefFoundError for " + missing + ", got " + chain);
    }
}
