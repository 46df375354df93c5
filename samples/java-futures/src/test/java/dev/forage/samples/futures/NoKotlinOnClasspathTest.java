package dev.forage.samples.futures;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sample runs with interop-java and dispatcher-jvm only: a Java user gets no Kotlin jar. */
class NoKotlinOnClasspathTest {

    @Test
    void noKotlinJarIsOnTheClasspathTheSampleRunsWith() {
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kotlin = entries.stream()
                .filter(e -> new File(e).getName().startsWith("kotlin")
                        || e.replace('\\', '/').contains("/org/jetbrains/kotlin"))
                .collect(Collectors.toList());
        assertEquals(List.of(), kotlin, "Kotlin on the classpath");
        // The check above must be looking at the real classpath (Surefire puts it in java.class.path even when
        // it starts the JVM through a manifest-only jar): the facade is on it.
        assertTrue(entries.stream().anyMatch(e -> e.contains("interop-java")), entries.toString());
    }

    @Test
    void kotlinClassesCannotBeLoaded() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlin.Unit"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("kotlinx.coroutines.CoroutineDispatcher"));
        assertFalse(Thread.currentThread().getContextClassLoader().getResource("dev/forage/interop/ForageFutures.class")
                == null, "the facade itself loads");
    }
}
