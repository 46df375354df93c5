package dev.forage.api;

import dev.forage.ForagePool;
import dev.forage.testing.ApiDump;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.List;
import kotlin.Metadata;
import kotlin.jvm.JvmClassMappingKt;
import kotlin.reflect.KFunction;
import kotlin.reflect.KProperty;
import kotlin.reflect.KVisibility;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.junit.jupiter.api.Test;

/**
 * Guards the public API of dispatcher-jvm against {@code api/dispatcher-jvm.api} ({@link ApiDump}); after a
 * meant change: {@code mvn -pl dispatcher-jvm test -Dtest=PublicApiTest -Dforage.api.update=true}. Kotlin
 * declarations are judged by their Kotlin visibility (kotlin-reflect): {@code internal} classes, constructors and
 * functions compile to public JVM members but are not API.
 */
class PublicApiTest {
    @Test
    void publicApiMatchesTheCommittedDump() throws Exception {
        new ApiDump("dispatcher-jvm", List.of("dev.forage", "dev.forage.coroutines", "dev.forage.metrics"),
                ForagePool.class, PublicApiTest::kotlinHidden, PublicApiTest::kotlinHidden,
                PublicApiTest::isKotlinFileFacade).check();
    }

    private static boolean isKotlinFileFacade(Class<?> c) {
        Metadata metadata = c.getAnnotation(Metadata.class);
        return metadata != null && (metadata.k() == 2 || metadata.k() == 4);
    }

    /** A Kotlin class that is internal or private, or a compiler-generated one (lambdas, continuations). */
    private static boolean kotlinHidden(Class<?> c) {
        Metadata metadata = c.getAnnotation(Metadata.class);
        if (metadata == null) return false;
        if (metadata.k() == 3) return true;          // synthetic class
        if (metadata.k() != 1) return false;         // file facades are as public as their members
        return !isKotlinVisible(JvmClassMappingKt.getKotlinClass(c).getVisibility());
    }

    /** A Kotlin constructor, function or property that is internal or private (public in the bytecode). */
    private static boolean kotlinHidden(Member m) {
        if (!m.getDeclaringClass().isAnnotationPresent(Metadata.class)) return false;
        try {
            KVisibility visibility = null;
            if (m instanceof Method) {
                KFunction<?> f = ReflectJvmMapping.getKotlinFunction((Method) m);
                if (f != null) visibility = f.getVisibility();
            } else if (m instanceof Constructor) {
                KFunction<?> f = ReflectJvmMapping.getKotlinFunction((Constructor<?>) m);
                if (f != null) visibility = f.getVisibility();
            } else if (m instanceof Field) {
                KProperty<?> p = ReflectJvmMapping.getKotlinProperty((Field) m);
                if (p != null) visibility = p.getVisibility();
            }
            return visibility != null && !isKotlinVisible(visibility);
        } catch (RuntimeException | Error e) {
            return false;                            // no Kotlin view of it: judged by its JVM modifiers
        }
    }

    private static boolean isKotlinVisible(KVisibility v) {
        return v == null || v == KVisibility.PUBLIC || v == KVisibility.PROTECTED;
    }
}
