package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rayon's {@code join} guarantee, tried as users write code: recursive {@code join} with no sequential cutoff
 * finishes on any pool, using stack in proportion to the depth of the join tree, and a throwable anywhere in a job
 * or around it reaches the waiter instead of leaving it waiting forever.
 *
 * <p>The stack bound is asserted against the pool's own single-threaded stack use: a one-thread pool never helps
 * (nobody steals), so its deepest stack is one path of the tree. Any pool may nest at most
 * {@code maxHelpDepth + 1} such paths, one per job running inside another's wait.
 */
@Watchdog.Budget(seconds = 240)
class JoinAnyDepthTest {
    /** Deepest stack seen at a leaf, in frames; sampled at every 512th leaf, and at the first. */
    static final class Deepest {
        final AtomicInteger frames = new AtomicInteger();
        final AtomicInteger leaves = new AtomicInteger();

        void sample() {
            if ((leaves.getAndIncrement() & 511) == 0) {
                frames.accumulateAndGet(new Throwable().getStackTrace().length, Math::max);
            }
        }
    }

    static long fib(ForagePool pool, int n, Deepest deepest) {
        if (n < 2) {
            deepest.sample();
            return n;
        }
        JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1, deepest), () -> fib(pool, n - 2, deepest));
        return r.first() + r.second();
    }

    static final long FIB_30 = 832_040L;

    /** Frames of one root-to-leaf path of fib(30) on a pool that never helps: a single thread. */
    static int onePathFrames() {
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build()) {
            Deepest d = new Deepest();
            assertEquals(FIB_30, pool.install(() -> fib(pool, 30, d)));
            return d.frames.get();
        }
    }

    private static void assertFibWithinTheStackBound(ForagePoolBuilder builder, int maxHelpDepth) {
        int onePath = onePathFrames();
        try (ForagePool pool = builder.name(Pools.uniqueName()).build()) {
            Deepest d = new Deepest();
            assertEquals(FIB_30, (long) pool.install(() -> fib(pool, 30, d)), "naive fib(30) by join");
            int bound = (maxHelpDepth + 1) * onePath;
            assertTrue(d.frames.get() <= bound, "deepest stack " + d.frames.get() + " frames; one path of the tree is "
                    + onePath + ", and at most " + (maxHelpDepth + 1) + " may nest: " + pool.statistics());
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4, 8})
    void naiveFibWithNoCutoffFinishesWithinTheStackBound(int threads) {
        assertFibWithinTheStackBound(ForagePool.builder().threads(threads), Tuning.DEFAULTS.getInt(Tunable.MAX_HELP_DEPTH));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void naiveFibFinishesWithEverySleepProtocol(SleepProtocol protocol) {
        assertFibWithinTheStackBound(ForagePool.builder().threads(4).sleepProtocol(protocol), Tuning.DEFAULTS.getInt(Tunable.MAX_HELP_DEPTH));
    }

    @Test
    void naiveFibFinishesWithIoWorkers() {
        assertFibWithinTheStackBound(ForagePool.builder().threads(3).ioWorkers(), Tuning.DEFAULTS.getInt(Tunable.MAX_HELP_DEPTH));
    }

    @Test
    void naiveFibFinishesWithTheFairnessRuleOnEveryJob() {
        // The rule that used to hand a take-back the oldest job: it must not matter how often it applies.
        assertFibWithinTheStackBound(ForagePool.builder().threads(4).tune(Tunable.FAIRNESS_INTERVAL, 1), Tuning.DEFAULTS.getInt(Tunable.MAX_HELP_DEPTH));
    }

    @Test
    void naiveFibFinishesOnASingleThreadedPool() {
        try (ForagePool pool = ForagePool.builder().singleThreaded().name(Pools.uniqueName()).build()) {
            Deepest d = new Deepest();
            assertEquals(FIB_30, (long) pool.install(() -> fib(pool, 30, d)));
            assertTrue(d.frames.get() <= onePathFrames() + 64, "a pool that callers run never nests: " + d.frames);
        }
    }

    @Test
    void naiveFibFinishesOnWorkersWithASmallStack() {
        // 256 KiB: the old take-back overflowed the default stack (512 KiB to 1 MiB) on fib(25).
        try (ForagePool pool = ForagePool.builder().threads(4).name(Pools.uniqueName())
                .threadFactory(r -> new Thread(null, r, "small-stack", 256 * 1024)).build()) {
            assertEquals(FIB_30, (long) pool.install(() -> fib(pool, 30, new Deepest())));
        }
    }

    /**
     * A chain in which every wait must help: {@code a} holds its worker until another worker took {@code b}, so
     * each take-back finds {@code b} stolen and helps by stealing the next {@code b}, one level deeper. Without the
     * bound every worker's nesting grows with the chain; with it, a worker at the bound blocks and a stand-in
     * thread takes the next step.
     */
    static int helpChain(ForagePool pool, int k, int n, AtomicInteger deepestJob) {
        deepestJob.accumulateAndGet(Worker.current().jobDepth, Math::max);
        if (k == n) {
            return k;
        }
        CountDownLatch taken = new CountDownLatch(1);
        JoinResult<Integer, Integer> r = pool.join(() -> {
            await(taken, "b of step " + k + " taken by another worker");
            return k;
        }, () -> {
            taken.countDown();
            return helpChain(pool, k + 1, n, deepestJob);
        });
        return r.second();
    }

    @ParameterizedTest(name = "maxHelpDepth {0}")
    @ValueSource(ints = {1, 3})
    void aWaitPastTheHelpBoundBlocksAndAStandInTakesOver(int maxHelpDepth) {
        try (ForagePool pool = ForagePool.builder().threads(2).tune(Tunable.MAX_HELP_DEPTH, maxHelpDepth).name(Pools.uniqueName())
                .build()) {
            AtomicInteger deepestJob = new AtomicInteger();
            assertEquals(60, (int) pool.install(() -> helpChain(pool, 0, 60, deepestJob)));
            assertTrue(deepestJob.get() <= maxHelpDepth + 1, "a job ran " + deepestJob + " jobs deep");
            assertTrue(pool.statistics().compensations() > 0, "a worker at the bound blocked with a stand-in: "
                    + pool.statistics());
        }
    }

    @Test
    void withoutAStandInAWaitPastTheBoundKeepsHelping() {
        // No blocking threads: blocking would leave a 2-thread chain with nobody to steal its next step.
        try (ForagePool pool = ForagePool.builder().threads(2).tune(Tunable.MAX_HELP_DEPTH, 1).maxBlockingThreads(0)
                .name(Pools.uniqueName()).build()) {
            assertEquals(20, (int) pool.install(() -> helpChain(pool, 0, 20, new AtomicInteger())));
        }
    }

    /** A job that spawns the next one into the same scope, {@code left} more times. */
    static void spawnChain(Scope s, int left, AtomicInteger ran) {
        ran.incrementAndGet();
        if (left > 0) {
            s.spawn(inner -> spawnChain(inner, left - 1, ran));
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4})
    void aLongSpawnChainInOneScopeRunsInConstantStack(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            AtomicInteger ran = new AtomicInteger();
            pool.scope(s -> {
                spawnChain(s, 200_000, ran);
                return null;
            });
            assertEquals(200_001, ran.get());
        }
    }

    /** Scopes nested {@code depth} deep, each level's spawned job opening the next level's scope. */
    static int nestedScopes(ForagePool pool, int depth) {
        if (depth == 0) {
            return 0;
        }
        AtomicInteger below = new AtomicInteger();
        pool.scope(s -> {
            s.spawn(() -> below.set(nestedScopes(pool, depth - 1)));
            s.spawn(() -> { });
            return null;
        });
        return below.get() + 1;
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4})
    void deeplyNestedScopesFinish(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            assertEquals(500, (int) pool.install(() -> nestedScopes(pool, 500)));
        }
    }

    // A throwable anywhere reaches the waiter.

    static int recurseForever(int n) {
        return recurseForever(n + 1) + 1;
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4})
    void aStackOverflowInEitherSideOfAJoinReachesTheCaller(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            assertThrows(StackOverflowError.class, () -> pool.install(
                    () -> pool.join(() -> recurseForever(0), () -> 1)));
            assertThrows(StackOverflowError.class, () -> pool.install(
                    () -> pool.join(() -> 1, () -> recurseForever(0))));
            if (threads > 1) {
                // b stolen: a holds its worker until b runs elsewhere, so the overflow happens on the thief.
                CountDownLatch started = new CountDownLatch(1);
                assertThrows(StackOverflowError.class, () -> pool.install(() -> pool.join(
                        () -> await(started, "b started on a thief"),
                        () -> {
                            started.countDown();
                            return recurseForever(0);
                        })));
            }
            assertEquals(FIB_30, (long) pool.install(() -> fib(pool, 30, new Deepest())), "the pool still works");
        }
    }

    /** Recursion through join itself until the stack ends: the overflow strikes anywhere, in user or pool code. */
    static int joinUntilTheStackEnds(ForagePool pool, int n, int pad) {
        JoinResult<Integer, Integer> r = pool.join(() -> padded(pool, n + 1, pad), () -> n & 1);
        return r.first() + r.second();
    }

    /** A few extra frames, so that successive rounds run out of stack at different points of the join code. */
    static int padded(ForagePool pool, int n, int pad) {
        return pad == 0 ? joinUntilTheStackEnds(pool, n, n % 5) : padded(pool, n, pad - 1);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4})
    void recursionThroughJoinUntilTheStackEndsAlwaysReturnsTheOverflow(int threads) {
        try (ForagePool pool = Pools.pool(threads)) {
            for (int round = 0; round < 40; round++) {
                int pad = round % 7;
                Throwable t = assertThrows(Throwable.class, () -> pool.install(() -> joinUntilTheStackEnds(pool, 0,
                        pad)), "round " + round);
                assertInstanceOf(StackOverflowError.class, t, "round " + round);
            }
            assertEquals(FIB_30, (long) pool.install(() -> fib(pool, 30, new Deepest())), "the pool still works");
        }
    }

    // The recovery itself, driven directly on a worker.

    /** A latch whose first {@code set} publishes SET and then throws, as a set cut short by an overflow would. */
    static final class SetCutShort implements Latch {
        volatile boolean set;
        volatile int wakes;

        @Override
        public void set() {
            set = true;
            throw new StackOverflowError("in set, after SET was published");
        }

        @Override
        public void setAndWake() {
            set = true;
            wakes++;
        }

        @Override
        public boolean probe() {
            return set;
        }
    }

    @Test
    void aSetCutShortAfterSetIsRepeatedAsAWakeAndKeepsTheResult() {
        try (ForagePool pool = Pools.pool(1)) {
            SetCutShort latch = new SetCutShort();
            StackJob<String> job = new StackJob<>(() -> "result", latch);
            pool.install(() -> {
                Worker.current().runJob(job);
                return null;
            });
            assertEquals(1, latch.wakes, "the owner is woken again");
            assertEquals("result", job.resultOrThrow(), "the waiter may have read the result: it stays");
        }
    }

    @Test
    void aJobThatCouldNotStartIsFailedWithWhatStoppedIt() {
        try (ForagePool pool = Pools.pool(1)) {
            SetCutShort latch = new SetCutShort();
            latch.set = false;
            StackJob<String> job = new StackJob<>(() -> "result", new Latch() {
                boolean first = true;

                @Override
                public void set() {
                    if (first) {
                        first = false;
                        throw new StackOverflowError("before SET was published");
                    }
                    latch.setAndWake();
                }

                @Override
                public void setAndWake() {
                    latch.setAndWake();
                }

                @Override
                public boolean probe() {
                    return latch.probe();
                }
            });
            pool.install(() -> {
                Worker.current().runJob(job);
                return null;
            });
            assertTrue(latch.probe(), "released");
            StackOverflowError e = assertThrows(StackOverflowError.class, job::resultOrThrow);
            assertEquals("before SET was published", e.getMessage());
        }
    }

    /** A waited job whose recovery itself runs out of stack the first time, as it may right where it failed. */
    static final class AbandonFailsOnce extends WaitedJob {
        final AtomicInteger abandons = new AtomicInteger();
        volatile Throwable recorded;

        @Override
        public void run() {
            throw new StackOverflowError("the job");
        }

        @Override
        boolean abandon(Throwable cause) {
            if (abandons.incrementAndGet() == 1) {
                throw new StackOverflowError("the recovery");
            }
            recorded = cause;
            return true;
        }
    }

    @Test
    void aRecoveryThatRunsOutOfStackIsFinishedByAShallowerFrame() {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName())
                .uncaughtExceptionHandler((t, e) -> reported.add(e)).build()) {
            AbandonFailsOnce inner = new AbandonFailsOnce();
            Runnable outer = () -> Worker.current().runJob(inner);
            pool.install(() -> {
                Worker.current().runJob(outer);
                return null;
            });
            assertEquals(2, inner.abandons.get(), "abandoned where it failed, then again one frame up");
            assertEquals("the job", inner.recorded.getMessage());
            assertEquals(1, reported.size(), "the outer job failed with the recovery's overflow: " + reported);
            assertEquals("the recovery", reported.get(0).getMessage());
        }
    }

    @Test
    void aScopeJobThatCouldNotStartCountsOutOnceAndFailsTheScope() {
        try (ForagePool pool = Pools.pool(2)) {
            AtomicInteger ran = new AtomicInteger();
            StackOverflowError e = assertThrows(StackOverflowError.class, () -> pool.scope(s -> {
                s.spawn(ran::incrementAndGet);
                // What the worker does when a spawned job cannot even start: abandon it with the cause.
                Scope.ScopeJob job = new Scope.ScopeJob(s, null, ran::incrementAndGet);
                countIn(s);
                assertTrue(job.abandon(new StackOverflowError("could not start")));
                assertTrue(!job.abandon(new StackOverflowError("again")), "a second abandon repeats nothing");
                return null;
            }));
            assertEquals("could not start", e.getMessage());
            assertEquals(1, ran.get());
        }
    }

    /** The count a spawn would add, without queueing anything. */
    private static void countIn(Scope s) {
        s.countIn();
    }

    @Test
    void theHelpBoundIsPerPool() {
        Supplier<ForagePoolBuilder> b = () -> ForagePool.builder().threads(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.get().tune(Tunable.MAX_HELP_DEPTH, 0));
        assertTrue(e.getMessage().contains("maxHelpDepth"), e.getMessage());
        try (ForagePool pool = b.get().tune(Tunable.MAX_HELP_DEPTH, 5).name(Pools.uniqueName()).build()) {
            assertEquals(5, pool.registry().tuning.get(Tunable.MAX_HELP_DEPTH));
        }
    }

    /** Waits inside a job for another worker's step; the test's watchdog turns a hang into a failure first. */
    static int await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(10, TimeUnit.MINUTES)) {
                throw new AssertionError("never happened: " + what);
            }
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted waiting for: " + what, e);
        }
        return 0;
    }
}
