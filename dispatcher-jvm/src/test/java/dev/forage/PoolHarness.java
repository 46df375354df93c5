package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** Shared pieces of the strategy tests: a watched pool, waiting for all workers to sleep, exactly-once checks. */
final class PoolHarness {
    static final boolean LONG = Boolean.getBoolean("forage.stress.long");

    interface PoolBody {
        void run(ForagePool pool) throws Throwable;
    }

    private PoolHarness() {
    }

    /**
     * A pool of exactly {@code threads} workers for the protocol's counts. Blocked-job detection is off: jobs here
     * wait for protocol states (a stolen half waits until its owner sleeps), which the monitor rightly sees as
     * blocked and gives a stand-in, a thread more than the counts these tests pin.
     */
    static ForagePool pool(SleepProtocol strategy, int threads) {
        return ForagePool.builder().threads(threads).sleepProtocol(strategy)
                .blockingDetection(0, java.util.concurrent.TimeUnit.MILLISECONDS)
                .name("strategies-" + strategy + "-" + threads).build();
    }

    /**
     * Runs {@code body} on a fresh pool under the watchdog, then closes the pool (also watched: a close that
     * hangs is a failure too). A failed or hung body leaves the pool to shutdownNow.
     */
    static void withPool(String what, SleepProtocol strategy, int threads, PoolBody body) throws Throwable {
        ForagePool pool = pool(strategy, threads);
        boolean closed = false;
        try {
            Watchdog.within(what + " [" + strategy + ", " + threads + " threads]", () -> pool.statistics().toString(),
                    () -> {
                        body.run(pool);
                        pool.close();
                    });
            closed = true;
            assertTrue(pool.isTerminated(), "close() returned but the pool is not terminated: " + pool);
        } finally {
            if (!closed) {
                pool.shutdownNow();
            }
        }
    }

    /** Polls the statistics until every worker is counted as sleeping. */
    static void awaitAllAsleep(ForagePool pool, int threads) {
        Watchdog.awaitCondition("all " + threads + " workers sleep", Duration.ofSeconds(30),
                () -> pool.statistics().sleepingWorkers() == threads, () -> pool.statistics().toString());
    }

    /** Polls the statistics until at least {@code n} workers are counted as sleeping. */
    static void awaitSleeping(ForagePool pool, int n) {
        Watchdog.awaitCondition(n + " workers sleep", Duration.ofSeconds(30),
                () -> pool.statistics().sleepingWorkers() >= n, () -> pool.statistics().toString());
    }

    static void assertEachOnce(AtomicIntegerArray hits) {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < hits.length() && wrong.size() < 10; i++) {
            if (hits.get(i) != 1) {
                wrong.add("job " + i + " ran " + hits.get(i) + " times");
            }
        }
        assertEquals(List.of(), wrong, "every job must run exactly once");
    }

    static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("barrier wait interrupted", e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException("barrier broken", e);
        }
    }
}
