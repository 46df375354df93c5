/**
 * The JDK Flight Recorder events of Forage pools: {@link dev.forage.jfr.LongJobEvent} and
 * {@link dev.forage.jfr.WakeupWithoutWorkEvent}. Compiled for Java 11 and loaded only on a JVM with JFR; on
 * Android and Java 8 no class of this package is ever touched. Record them with
 * {@code -XX:StartFlightRecording} or a {@code jdk.jfr.Recording} (see {@code docs/observability.md}).
 */
package dev.forage.jfr;
