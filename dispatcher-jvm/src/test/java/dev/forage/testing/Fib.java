package dev.forage.testing;

import dev.forage.ForagePool;
import dev.forage.JoinResult;

/** The tests' fork-join workload: naive Fibonacci, one {@code join} per call, no sequential cutoff. */
public final class Fib {
    private Fib() {
    }

    /** fib(n) by {@code pool.join} at every level (a caller that waits helps, as any join does). */
    public static long join(ForagePool pool, int n) {
        if (n < 2) {
            return n;
        }
        JoinResult<Long, Long> r = pool.join(() -> join(pool, n - 1), () -> join(pool, n - 2));
        return r.first() + r.second();
    }
}
