package dev.forage;

/**
 * The body of {@link ForagePool#scope(ScopeBody)}: it spawns jobs into the scope and returns a value.
 *
 * @param <T> the result type
 */
public interface ScopeBody<T> {
    /** Runs the body. */
    T run(Scope scope);
}
