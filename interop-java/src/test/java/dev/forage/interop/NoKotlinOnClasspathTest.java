package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A Java-only consumer of interop-java gets no Kotlin: this test JVM's runtime classpath is exactly what
 * Maven resolves for this module (dispatcher-jvm's Kotlin dependencies are optional), and it must hold no
 * Kotlin jar and no Kotlin class.
 */
class NoKotlinOnClasspathTest {
    private static List<String> classpath() {
        // Surefire sets java.class.path to the test classpath even when it starts the JVM through a manifest jar.
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .collect(Collectors.toList());
    }

    @Test
    void theClasspathIsTheRealOneAndHoldsTheForageCore() {
        // Guards the test below against inspecting the wrong thing (for example a manifest-only booter jar).
        List<String> cp = classpath();
        assertTrue(cp.stream().anyMatch(e -> e.contains("dispatcher-jvm")), "dispatcher-jvm not found in " + cp);
        assertTrue(cp.stream().anyMatch(e -> e.contains("junit-jupiter-api")), "junit not found in " + cp);
    }

    @Test
    void noKotlinJarIsOnTheClasspath() {
        List<String> kotlin = classpath().stream()
                .filter(e -> {
                    String name = new File(e).getName().toLowerCase(Locale.ROOT);
                    String path = e.replace('\\', '/').toLowerCase(Locale.ROOT);
                    return name.startsWith("kotlin") || path.contains("/org/jetbrains/kotlin");
                })
                .collect(Collectors.toList());
        assertTrue(kotlin.isEmpty(), "Kotlin on a Java-only consumer's classpath: " + kotlin);
    }

    @Test
    void noKotlinClassCanBeLoaded() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlin.Unit"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlinx.coroutines.CoroutineDispatcher"));
        assertNull(getClass().getClassLoader().getResource("kotlin/Unit.class"));
        assertFalse(classpath().isEmpty());
    }
}
