package dev.forage;

import static dev.forage.PoolHarness.LONG;
import static dev.forage.PoolHarness.assertEachOnce;
import static dev.forage.PoolHarness.awaitAllAsleep;
import static dev.forage.PoolHarness.awaitSleeping;
import static dev.forage.PoolHarness.withPool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The core's correctness properties, for every sleep strategy: no job lost or run twice, no lost wake-up (the
 * barrier tests hang without one), join and scope trees, every sleeper woken by a burst, timers while all sleep,
 * targeted latch wake-ups, and a shutdown that drains. Each body runs under {@link Watchdog}; 8 workers on this
 * 2-core machine are included on purpose. {@code -Dforage.stress.long=true} runs ten times the rounds.
 */
class StrategyCorrectnessTest {
    private static final int JOBS = 100_000;
    private static final int BARRIER_ROUNDS = LONG ? 20_000 : 2_000;

    /** Every strategy on a narrow pool and on a wide one (more workers than cores). */
    static Stream<Arguments> strategiesAndSizes() {
        List<Arguments> all = new ArrayList<>();
        for (SleepProtocol s : SleepProtocol.values()) {
            all.add(Arguments.of(s, 2));
            all.add(Arguments.of(s, 8));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void everyJobFromOutsideRunsExactlyOnce(SleepProtocol strategy, int threads) throws Throwable {
        withPool("10^5 outside jobs", strategy, threads, pool -> runOutsideJobsExactlyOnce(pool, JOBS));
    }

    /** Submits {@code jobs} jobs from this (outside) thread and checks that each ran exactly once. */
    private static void runOutsideJobsExactlyOnce(ForagePool pool, int jobs) throws InterruptedException {
        AtomicIntegerArray hits = new AtomicIntegerArray(jobs);
        CountDownLatch done = new CountDownLatch(jobs);
        for (int i = 0; i < jobs; i++) {
            int k = i;
            pool.execute(() -> {
                hits.incrementAndGet(k);
                done.countDown();
            });
        }
        done.await();
        assertEachOnce(hits);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void everyJobFromInsideRunsExactlyOnce(SleepProtocol strategy, int threads) throws Throwable {
        withPool("10^5 inside jobs", strategy, threads, pool -> {
            AtomicIntegerArray hits = new AtomicIntegerArray(JOBS);
            CountDownLatch done = new CountDownLatch(JOBS);
            pool.execute(new Split(pool, 0, JOBS, hits, done));
            done.await();
            assertEachOnce(hits);
        });
    }

    /** Splits a range by submitting its upper halves from inside the pool (internal jobs) down to single jobs. */
    private static final class Split implements Runnable {
        private final ForagePool pool;
        private final int lo;
        private final int hi;
        private final AtomicIntegerArray hits;
        private final CountDownLatch done;

        Split(ForagePool pool, int lo, int hi, AtomicIntegerArray hits, CountDownLatch done) {
            this.pool = pool;
            this.lo = lo;
            this.hi = hi;
            this.hits = hits;
            this.done = done;
        }

        @Override
        public void run() {
            int end = hi;
            while (end - lo > 1) {
                int mid = (lo + end) >>> 1;
                pool.execute(new Split(pool, mid, end, hits, done));
                end = mid;
            }
            hits.incrementAndGet(lo);
            done.countDown();
        }
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void barrierJobsFromOutsideTripEveryRound(SleepProtocol strategy, int threads) throws Throwable {
        // Each round needs every worker at once: a worker left asleep by a lost wake-up hangs the round.
        withPool(BARRIER_ROUNDS + " barrier rounds from outside", strategy, threads, pool -> {
            CyclicBarrier barrier = new CyclicBarrier(threads + 1);
            Runnable waiter = () -> PoolHarness.await(barrier);
            for (int round = 0; round < BARRIER_ROUNDS; round++) {
                for (int i = 0; i < threads; i++) {
                    pool.execute(waiter);
                }
                barrier.await();
                if (round % 50 == 49) {
                    awaitAllAsleep(pool, threads); // and sometimes from a pool that is fully asleep
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void barrierJobsFromInsideTripEveryRound(SleepProtocol strategy, int threads) throws Throwable {
        // One job pushes the barrier jobs on its own deque; its worker then blocks in one of them, so the others
        // must be stolen by workers that new internal jobs woke up.
        withPool(BARRIER_ROUNDS + " barrier rounds from inside", strategy, threads, pool -> {
            CyclicBarrier barrier = new CyclicBarrier(threads + 1);
            Runnable waiter = () -> PoolHarness.await(barrier);
            Runnable spawner = () -> {
                for (int i = 0; i < threads; i++) {
                    pool.execute(waiter);
                }
            };
            for (int round = 0; round < BARRIER_ROUNDS; round++) {
                pool.execute(spawner);
                barrier.await();
                if (round % 50 == 49) {
                    awaitAllAsleep(pool, threads);
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void joinAndScopeTreesComputeTheRightResult(SleepProtocol strategy, int threads) throws Throwable {
        withPool("join and scope trees", strategy, threads, pool -> {
            assertEquals(10946L, pool.install(() -> fib(pool, 21)), "fib(21) by join, installed from outside");
            JoinResult<Long, Long> pair = pool.join(() -> fib(pool, 15), () -> fib(pool, 16));
            assertEquals(610L, pair.first());
            assertEquals(987L, pair.second());

            AtomicInteger leaves = new AtomicInteger();
            pool.scope(s -> {
                s.spawn(tree(10, leaves));
                return null;
            });
            assertEquals(1 << 10, leaves.get(), "scope from outside waits for every spawned job");

            leaves.set(0);
            int nested = pool.install(() -> pool.scope(s -> {
                for (int i = 0; i < 4; i++) {
                    s.spawn(tree(8, leaves));
                }
                return pool.join(() -> 1, () -> 2).second();
            }));
            assertEquals(2, nested);
            assertEquals(4 << 8, leaves.get(), "scope inside a worker waits for every spawned job");
        });
    }

    private static long fib(ForagePool pool, int n) {
        if (n < 2) {
            return n;
        }
        if (n < 8) {
            return fib(pool, n - 1) + fib(pool, n - 2);
        }
        JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1), () -> fib(pool, n - 2));
        return r.first() + r.second();
    }

    private static ScopeTask tree(int depth, AtomicInteger leaves) {
        return (Scope s) -> {
            if (depth == 0) {
                leaves.incrementAndGet();
            } else {
                s.spawn(tree(depth - 1, leaves));
                s.spawn(tree(depth - 1, leaves));
            }
        };
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void aBurstAfterEveryoneSleptWakesEveryWorker(SleepProtocol strategy, int threads) throws Throwable {
        withPool("all asleep, then a burst", strategy, threads, pool -> {
            CyclicBarrier barrier = new CyclicBarrier(threads + 1);
            Runnable waiter = () -> PoolHarness.await(barrier);
            for (int round = 0; round < (LONG ? 200 : 20); round++) {
                awaitAllAsleep(pool, threads);
                for (int i = 0; i < threads; i++) {
                    pool.execute(waiter); // needs every sleeper awake
                }
                barrier.await();
            }
            awaitAllAsleep(pool, threads);
            runOutsideJobsExactlyOnce(pool, 20_000);
        });
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void timersFireWhileEveryWorkerSleeps(SleepProtocol strategy, int threads) throws Throwable {
        withPool("timers while all sleep", strategy, threads, pool -> {
            for (int round = 0; round < 3; round++) {
                awaitAllAsleep(pool, threads);
                int timers = 40;
                AtomicIntegerArray fired = new AtomicIntegerArray(timers);
                CountDownLatch done = new CountDownLatch(timers);
                for (int i = 0; i < timers; i++) {
                    int k = i;
                    // Later timers first, so the earliest deadline keeps moving earlier while the watcher sleeps.
                    pool.schedule(() -> {
                        fired.incrementAndGet(k);
                        done.countDown();
                    }, 1 + (timers - i) % 15, TimeUnit.MILLISECONDS);
                }
                done.await();
                assertEachOnce(fired);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void aLatchSetFromOutsideWakesTheOnlyWorker(SleepProtocol strategy) throws Throwable {
        withPool("latch wake-up, 1 thread", strategy, 1, pool -> {
            AtomicReference<ForageLatch> latch = new AtomicReference<>();
            Thread setter = new Thread(() -> {
                Watchdog.awaitCondition("the latch exists", Watchdog.LIMIT, () -> latch.get() != null, () -> "");
                awaitSleeping(pool, 1); // the worker is asleep on the latch: only the latch can wake it
                latch.get().set();
            }, "latch setter");
            setter.start();
            boolean woke = pool.install(() -> {
                ForageLatch l = ForageLatch.forCurrentThread();
                latch.set(l);
                l.awaitUninterruptibly();
                return l.isSet();
            });
            setter.join();
            assertTrue(woke);
            assertTrue(pool.statistics().latchWakeups() >= 1, "the wake-up was the latch's: " + pool.statistics());
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void aStolenJoinHalfWakesItsSleepingOwner(SleepProtocol strategy) throws Throwable {
        withPool("latch wake-up by join, 2 threads", strategy, 2, pool -> {
            for (int round = 0; round < 20; round++) {
                CountDownLatch bStarted = new CountDownLatch(1);
                JoinResult<String, String> r = pool.install(() -> pool.join(() -> {
                    awaitUninterruptibly(bStarted); // b was stolen: the other worker had to wake for it
                    return "a";
                }, () -> {
                    bStarted.countDown();
                    awaitSleeping(pool, 1); // the joining worker is asleep on b's latch
                    return "b";
                }));
                assertEquals("a", r.first());
                assertEquals("b", r.second());
            }
            assertTrue(pool.statistics().latchWakeups() >= 20, "each round ends with a latch wake-up: "
                    + pool.statistics());
        });
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted (the watchdog gave up on this test)", e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void aForageLatchSetByAnotherWorkerWakesItsOwner(SleepProtocol strategy) throws Throwable {
        withPool("ForageLatch wake-up, 2 threads", strategy, 2, pool -> {
            for (int round = 0; round < 20; round++) {
                AtomicReference<ForageLatch> latch = new AtomicReference<>();
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    ForageLatch l = ForageLatch.forCurrentThread();
                    latch.set(l);
                    pool.execute(() -> {
                        awaitSleeping(pool, 1); // the owner, asleep on its latch (we are the other worker)
                        l.set();
                    });
                    l.awaitUninterruptibly();
                    done.countDown();
                });
                done.await();
                assertTrue(latch.get().isSet());
            }
        });
    }

    @ParameterizedTest(name = "{0} + 20 µs spin")
    @EnumSource(SleepProtocol.class)
    void theSpinPhaseInFrontOfAnyStrategyKeepsItsGuarantees(SleepProtocol strategy) throws Throwable {
        int threads = 8;
        ForagePool pool = ForagePool.builder().threads(threads).sleepProtocol(strategy).spinForWorkNanos(20_000)
                .name("spin-" + strategy).build();
        try {
            Watchdog.within("spin phase + " + strategy, () -> pool.statistics().toString(), () -> {
                CyclicBarrier barrier = new CyclicBarrier(threads + 1);
                Runnable waiter = () -> PoolHarness.await(barrier);
                for (int round = 0; round < BARRIER_ROUNDS / 4; round++) {
                    if (round % 2 == 0) {
                        for (int i = 0; i < threads; i++) {
                            pool.execute(waiter);
                        }
                    } else {
                        pool.execute(() -> {
                            for (int i = 0; i < threads; i++) {
                                pool.execute(waiter);
                            }
                        });
                    }
                    barrier.await();
                    if (round % 50 == 49) {
                        awaitAllAsleep(pool, threads);
                    }
                }
                assertEquals(6765L, pool.install(() -> fib(pool, 20)));
                pool.close();
            });
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("strategiesAndSizes")
    void closeRunsEverythingAcceptedBeforeIt(SleepProtocol strategy, int threads) throws Throwable {
        AtomicInteger outside = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger timers = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        int jobs = 20_000;
        withPool("close drains", strategy, threads, pool -> {
            for (int i = 0; i < jobs; i++) {
                int k = i;
                pool.execute(() -> {
                    outside.incrementAndGet();
                    if (k % 10 == 0) {
                        try {
                            pool.execute(inside::incrementAndGet); // a running job's: accepted before shutdown
                        } catch (RejectedExecutionException e) {
                            refused.incrementAndGet(); // and refused after it, the job told so
                        }
                    }
                });
            }
            for (int i = 0; i < 10; i++) {
                pool.schedule(timers::incrementAndGet, 5, TimeUnit.MILLISECONDS);
            }
            // withPool closes the pool here, under the watchdog.
        });
        assertEquals(jobs, outside.get());
        assertEquals(jobs / 10, inside.get() + refused.get(), "a running job's submission was lost");
        assertEquals(10, timers.get());
    }
}
