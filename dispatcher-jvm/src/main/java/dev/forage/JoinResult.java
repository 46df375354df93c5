package dev.forage;

/**
 * Both results of {@link ForagePool#join(Computation, Computation)}.
 *
 * <pre>{@code
 * JoinResult<Long, Long> r = pool.join(() -> fib(n - 1), () -> fib(n - 2));
 * long fib = r.first() + r.second();
 * }</pre>
 *
 * @param <A> the first computation's result type
 * @param <B> the second computation's result type
 */
public final class JoinResult<A, B> {
    private final A first;
    private final B second;

    JoinResult(A first, B second) {
        this.first = first;
        this.second = second;
    }

    /** The first computation's result. */
    public A first() {
        return first;
    }

    /** The second computation's result. */
    public B second() {
        return second;
    }

    @Override
    public String toString() {
        return "JoinResult(" + first + ", " + second + ")";
    }
}
