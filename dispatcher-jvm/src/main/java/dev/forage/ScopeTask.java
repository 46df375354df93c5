package dev.forage;

/**
 * A job spawned into a {@link Scope}; it receives the scope so it can spawn more jobs into it.
 *
 * <pre>{@code
 * pool.scope(s -> {
 *     s.spawn(inner -> inner.spawn(() -> work()));
 *     return null;
 * });
 * }</pre>
 */
public interface ScopeTask {
    /** Runs the job. */
    void run(Scope scope);
}
