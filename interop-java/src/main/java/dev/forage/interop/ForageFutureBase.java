package dev.forage.interop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The Java 9 methods of {@link CompletableFuture} that return the future itself or a new one, declared with the
 * JDK's exact signatures so that {@link ForageFuture} can narrow their return type to {@code ForageFuture}.
 *
 * <p>Why this class exists: {@code ForageFuture} is compiled against the Java 8 API, where these methods do not
 * exist, so if it declared them directly with a {@code ForageFuture} return type, nothing would override the
 * JDK's versions on Java 9+ (the JVM matches methods by their exact descriptor, return type included), and a
 * call through a {@code CompletableFuture} reference would run the JDK's code and its timer thread. Declared
 * here with the JDK's descriptors, they do override the JDK's on Java 9+; {@code ForageFuture} then overrides
 * them covariantly, and the compiler adds the bridge methods that carry the JDK's descriptors to
 * {@code ForageFuture}'s implementations. On Java 8 and Android they are simply new methods.
 */
abstract class ForageFutureBase<T> extends HelpingFuture<T> {
    /** See {@link ForageFuture#orTimeout}. */
    public abstract CompletableFuture<T> orTimeout(long timeout, TimeUnit unit);

    /** See {@link ForageFuture#completeOnTimeout}. */
    public abstract CompletableFuture<T> completeOnTimeout(T value, long timeout, TimeUnit unit);

    /** See {@link ForageFuture#completeAsync(Supplier)}. */
    public abstract CompletableFuture<T> completeAsync(Supplier<? extends T> supplier);

    /** See {@link ForageFuture#completeAsync(Supplier, Executor)}. */
    public abstract CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor);

    /** See {@link ForageFuture#copy()}. */
    public abstract CompletableFuture<T> copy();
}
