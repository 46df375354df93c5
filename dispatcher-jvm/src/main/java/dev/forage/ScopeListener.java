package dev.forage;

/**
 * Told when a scope started by {@link ForagePool#scopeAsync} has ended: its body and every job spawned into it
 * finished. Called exactly once, on the thread that finished last (a pool worker, or the caller when everything
 * finished before {@code scopeAsync} returned), so it should be short: hand longer work to the pool.
 *
 * <pre>{@code
 * pool.scopeAsync(s -> {
 *     s.spawn(() -> index(partA));
 *     s.spawn(() -> index(partB));
 *     return "indexed";
 * }, (result, failure) -> {
 *     if (failure != null) log.error("indexing failed", failure); else log.info(result);
 * });
 * }</pre>
 *
 * @param <T> the body's result type
 */
public interface ScopeListener<T> {
    /**
     * The scope ended. {@code failure} is the first failure of the body or of a spawned job, with later ones
     * attached as suppressed, or null; {@code result} is the body's result, or null when the body threw.
     */
    void scopeEnded(T result, Throwable failure);
}
