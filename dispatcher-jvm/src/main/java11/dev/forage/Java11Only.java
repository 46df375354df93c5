package dev.forage;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A Java 11 class of the multi-release jar's {@code META-INF/versions/11}, which a Java 8 JVM or Android never loads:
 * the build's Android API check (animal-sniffer) skips it. For a class that uses Java 11 API outside
 * {@code jdk.jfr} (whose references the check ignores by name); loaded only by name, after a test that fails on
 * Java 8 and Android.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
@interface Java11Only {
}
