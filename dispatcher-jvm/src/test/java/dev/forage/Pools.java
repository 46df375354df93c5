package dev.forage;

import dev.forage.testing.Poll;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers for pool tests: unique pools, a view of their worker threads, and waiting for observable states. */
final class Pools {
    private static final AtomicInteger NEXT = new AtomicInteger();

    private Pools() {
    }

    /** True when the long variants of the stress tests were asked for ({@code -Dforage.stress.long=true}). */
    static boolean longRun() {
        return Boolean.getBoolean("forage.stress.long");
    }

    /**
     * A new pool with a unique name, so its threads can be told apart from every other test's. Blocked-job
     * detection is off: these pools test the engine's own liveness (a lost wake-up, a job nobody takes), which the
     * monitor's stand-ins must not rescue after 20 ms and so hide; {@code MonitorTest} builds its own.
     */
    static ForagePool pool(int threads) {
        return ForagePool.builder().threads(threads).name(uniqueName())
                .blockingDetection(0, java.util.concurrent.TimeUnit.MILLISECONDS).build();
    }

    static String uniqueName() {
        return "test" + NEXT.incrementAndGet();
    }

    static List<Thread> workerThreads(ForagePool pool) {
        List<Thread> threads = new ArrayList<>();
        ThreadedRunner runner = (ThreadedRunner) pool.registry().runner;
        for (int i = 0; i < runner.threads(); i++) {
            threads.add(runner.thread(i));
        }
        return threads;
    }

    /** Live threads whose names start with the pool's worker prefix. */
    static List<String> liveThreadsOf(ForagePool pool) {
        String prefix = pool.name() + "-worker-";
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /**
     * Waits until every worker is counted as sleeping by the protocol and is parked on its condition (a worker
     * between the sleeper CAS and the block is counted but still runnable; it is not asleep yet). A sleeping worker
     * parks with a timeout when its thread may retire (the keep-alive), so either waiting state counts.
     */
    static void awaitAllAsleep(ForagePool pool) {
        List<Thread> threads = workerThreads(pool);
        Poll.until("every worker of " + pool + " asleep", () -> {
            if (pool.statistics().sleepingWorkers() != pool.parallelism()) {
                return false;
            }
            for (Thread t : threads) {
                Thread.State state = t.getState();
                if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                    return false;
                }
            }
            return true;
        }, () -> pool.statistics() + " " + pool.registry().sleep);
    }

    /**
     * A wake-up that finds no work, made deterministically: once every worker sleeps, wakes one while nothing is
     * queued anywhere, and returns when the pool has counted the wake-up without work.
     */
    static void wakeOneWithoutWork(ForagePool pool) {
        awaitAllAsleep(pool);
        long before = pool.statistics().wakeupsWithoutWork();
        ((JecSleep) pool.registry().sleep).wakeAnyThreads(1);
        Poll.until("a wake-up without work", () -> pool.statistics().wakeupsWithoutWork() > before, pool::toString);
    }

    /**
     * Runs one job on each worker at the same time (they meet at a barrier, so no worker can take two) and
     * returns the threads that ran them; then each job runs {@code after}, which may throw.
     */
    static Set<Thread> runOnEveryWorker(ForagePool pool, Runnable after) throws InterruptedException {
        int n = pool.parallelism();
        CyclicBarrier barrier = new CyclicBarrier(n);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch arrived = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            pool.execute(() -> {
                try {
                    barrier.await();
                } catch (InterruptedException | BrokenBarrierException e) {
                    throw new AssertionError(e);
                }
                threads.add(Thread.currentThread());
                arrived.countDown();
                after.run();
            });
        }
        arrived.await();
        return threads;
    }

    /** Awaits {@code latch} in a job or a test thread; an interrupt there is a failure of the test. */
    static void awaitQuietly(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Spins until {@code flag} is set or {@code maxMillis} pass. Only used to make a race likely (a sibling
     * job being stolen); the test's assertion holds whichever way it goes.
     */
    static void briefly(java.util.concurrent.atomic.AtomicBoolean flag, long maxMillis) {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        while (!flag.get() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }

    /** CPU work the JIT cannot remove, so a job lasts long enough for a race to be visible. */
    static long burn(int iterations) {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        if (x == 42) {
            System.out.print("");
        }
        return x;
    }
}
