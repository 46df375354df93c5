package dev.forage;

/**
 * A computation that returns a value, run by {@link ForagePool#join}, {@link ForagePool#install} and
 * {@link ForagePool#scope}.
 *
 * <p>Like {@link java.util.concurrent.Callable} without the checked exception: a {@link RuntimeException} or
 * {@link Error} it throws reaches the caller unchanged. (Forage's library code runs on Android API 21, which
 * lacks {@code java.util.function}.)
 *
 * <pre>{@code
 * Computation<Long> sum = () -> LongStream.range(0, n).sum();
 * }</pre>
 *
 * @param <T> the result type
 */
public interface Computation<T> {
    /** Computes the result. */
    T compute();
}
