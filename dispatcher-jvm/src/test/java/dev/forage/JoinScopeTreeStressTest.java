package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random trees of {@code join} and {@code scope} (scopes spawn plain jobs and jobs that spawn more), evaluated on
 * the pool and sequentially from the same seed: the results must match. One worker (everything nested on one
 * thread, which must run its own children while it waits), two, and eight on two cores.
 */
@Watchdog.Budget(seconds = 180)
class JoinScopeTreeStressTest {
    private static final int MAX_DEPTH = 12;

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 8})
    void randomTreesComputeTheSequentialResult(int threads) {
        int trees = Pools.longRun() ? 10_000 : 1_000;
        SplittableRandom roots = new SplittableRandom(threads * 1_000_003L);
        try (ForagePool pool = Pools.pool(threads)) {
            for (int t = 0; t < trees; t++) {
                long seed = roots.nextLong();
                long expected = sequential(seed, MAX_DEPTH);
                long actual;
                switch (t % 3) {
                    case 0:
                        actual = pool.install(() -> parallel(pool, seed, MAX_DEPTH));
                        break;
                    case 1: // from outside: the join itself enters the pool
                        actual = pool.join(() -> parallel(pool, seed, MAX_DEPTH), () -> 0L).first();
                        break;
                    default:
                        actual = pool.scope(s -> parallel(pool, seed, MAX_DEPTH));
                        break;
                }
                assertEquals(expected, actual, "tree " + t + " (seed " + seed + ")");
            }
            System.out.println("JoinScopeTreeStressTest " + threads + " workers: " + pool.statistics());
        }
    }

    /** A chain of joins as deep as the stack allows comfortably, on one worker: each level waits on the next. */
    @Test
    void aDeepJoinChainOnOneWorker() {
        try (ForagePool pool = Pools.pool(1)) {
            assertEquals(500L, (long) pool.install(() -> chain(pool, 500)));
            assertEquals(500L, (long) pool.install(() -> scopeChain(pool, 500)));
        }
    }

    private static long chain(ForagePool pool, int n) {
        if (n == 0) {
            return 0;
        }
        JoinResult<Long, Long> r = pool.join(() -> 1L, () -> chain(pool, n - 1));
        return r.first() + r.second();
    }

    private static long scopeChain(ForagePool pool, int n) {
        if (n == 0) {
            return 0;
        }
        AtomicLong inner = new AtomicLong();
        pool.scope(s -> {
            s.spawn(() -> inner.set(scopeChain(pool, n - 1)));
            return null;
        });
        return 1 + inner.get();
    }

    /** One node of a random tree, decoded from its seed alone, so both evaluations build the same tree. */
    private static final class Node {
        static final int LEAF = 0;
        static final int JOIN = 1;
        static final int SCOPE = 2;

        final int kind;
        /** The children's seeds: two for a join, one to three for a scope. */
        final long[] children;
        /** A scope's children are spawned by a job that was itself spawned into the scope. */
        final boolean nested;

        Node(long seed, int depth) {
            SplittableRandom r = new SplittableRandom(seed);
            int roll = depth == 0 ? 0 : r.nextInt(10);
            kind = roll < 2 ? LEAF : roll < 6 ? JOIN : SCOPE;
            children = new long[kind == LEAF ? 0 : kind == JOIN ? 2 : 1 + r.nextInt(3)];
            for (int i = 0; i < children.length; i++) {
                children[i] = r.nextLong();
            }
            nested = kind == SCOPE && r.nextBoolean();
        }
    }

    private static long parallel(ForagePool pool, long seed, int depth) {
        Node node = new Node(seed, depth);
        long[] c = node.children;
        if (node.kind == Node.LEAF) {
            return leaf(seed);
        }
        if (node.kind == Node.JOIN) {
            JoinResult<Long, Long> j = pool.join(() -> parallel(pool, c[0], depth - 1),
                    () -> parallel(pool, c[1], depth - 1));
            return join(j.first(), j.second());
        }
        long[] results = new long[c.length];
        long bodyValue = pool.scope(s -> {
            for (int i = 0; i < c.length; i++) {
                int k = i;
                if (node.nested) {
                    // A job that spawns the real child into the same scope: the scope waits for both.
                    s.spawn(inner -> inner.spawn(() -> results[k] = parallel(pool, c[k], depth - 1)));
                } else {
                    s.spawn(() -> results[k] = parallel(pool, c[k], depth - 1));
                }
            }
            return (long) c.length;
        });
        return scope(bodyValue, results);
    }

    private static long sequential(long seed, int depth) {
        Node node = new Node(seed, depth);
        long[] c = node.children;
        if (node.kind == Node.LEAF) {
            return leaf(seed);
        }
        if (node.kind == Node.JOIN) {
            return join(sequential(c[0], depth - 1), sequential(c[1], depth - 1));
        }
        long[] results = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            results[i] = sequential(c[i], depth - 1);
        }
        return scope(c.length, results);
    }

    private static long join(long first, long second) {
        return 31 * first + second;
    }

    private static long scope(long bodyValue, long[] results) {
        long sum = bodyValue;
        for (long x : results) {
            sum = 17 * sum + x;
        }
        return sum;
    }

    private static long leaf(long seed) {
        long z = seed * 0x9E3779B97F4A7C15L;
        return (z ^ (z >>> 29)) & 0xFFFF;
    }
}
