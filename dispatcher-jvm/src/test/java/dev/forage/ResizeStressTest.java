package dev.forage;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ForagePool#setParallelism} up and down in a loop while outside threads and the pool's own jobs post
 * (into the injector, onto workers' deques, as join halves, as timers, from inside blocking sections), with
 * retirement on or off. Every job must run exactly once, and afterwards the pool must quiesce with its counts right: every worker in
 * use asleep (or retired), counted as sleeping exactly once, none idle, every worker above the parallelism SHED with
 * its thread ended. A lost wake-up (a job left to a worker that was leaving) hangs the wait for the jobs, which the
 * watchdog turns into a failure with a thread dump; a count left off never quiesces, which {@link Poll} reports.
 */
@Watchdog.Budget(seconds = 240)
class ResizeStressTest {
    /**
     * Outside jobs per producer; every eighth forks two more on its worker's deque, every 16th joins, and every
     * 128th (from the third) schedules one as a timer.
     */
    private static final int JOBS = 4_000;
    private static final int PRODUCERS = 2;
    /** Resizes per round; the producers post a share of their jobs after each, so posts meet every step. */
    private static final int RESIZES = 400;

    @ParameterizedTest(name = "{0}, keep-alive {1} ms")
    @CsvSource({"JEC, 0", "JEC, 1", "RAYON_PRE_RFC5, 0", "EMPER, 0"})
    void resizingWhileJobsArePostedLosesNoneAndTheCountsComeBackRight(SleepProtocol protocol, int keepAliveMillis)
            throws Exception {
        int rounds = Pools.longRun() ? 60 : protocol == SleepProtocol.JEC ? 10 : 3;
        ForagePoolBuilder builder = ForagePool.builder().threads(2).maxParallelism(4).maxBlockingThreads(4)
                .sleepProtocol(protocol).name(Pools.uniqueName());
        if (keepAliveMillis == 0) {
            builder.keepAliveForever();
        } else {
            builder.keepAlive(keepAliveMillis, TimeUnit.MILLISECONDS);
        }
        try (ForagePool pool = builder.build()) {
            for (int round = 0; round < rounds; round++) {
                runRound(pool, round);
            }
        }
    }

    private static void runRound(ForagePool pool, int round) throws Exception {
        int outside = PRODUCERS * JOBS;
        // Ids: outside jobs first, then two children for every eighth, a join half for every 16th, a timer for
        // every 128th from the third.
        int forks = (outside + 7) / 8;
        int joins = (outside + 15) / 16;
        int timers = (outside + 125) / 128;
        int total = outside + 2 * forks + joins + timers;
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        CountDownLatch done = new CountDownLatch(total);
        AtomicInteger resized = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int first = p * JOBS;
            threads.add(new Thread(() -> {
                try {
                    int next = first;
                    for (int tick = 1; tick <= RESIZES; tick++) {
                        while (resized.get() < tick) {
                            Thread.yield(); // paces the posts by the resizes; orders nothing the pool relies on
                        }
                        for (int end = first + (int) ((long) JOBS * tick / RESIZES); next < end; next++) {
                            pool.execute(job(pool, next, outside, forks, runs, done));
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, pool.name() + "-producer-" + p));
        }
        Thread resizer = new Thread(() -> {
            try {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int tick = 1; tick <= RESIZES; tick++) {
                    pool.setParallelism(1 + random.nextInt(pool.maxParallelism()));
                    resized.set(tick);
                    for (int spin = random.nextInt(4); spin > 0; spin--) {
                        Thread.yield(); // a varying gap: sometimes the pool drains and sleeps before the next
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                resized.set(RESIZES);
            }
        }, pool.name() + "-resizer");
        for (Thread t : threads) {
            t.start();
        }
        resizer.start();
        for (Thread t : threads) {
            t.join();
        }
        resizer.join();
        done.await(); // every job ran: a job stranded by a lost wake-up hangs here, and the watchdog reports it
        if (failure.get() != null) {
            throw new AssertionError("round " + round, failure.get());
        }
        for (int i = 0; i < total; i++) {
            if (runs.get(i) != 1) {
                throw new AssertionError("round " + round + ": job " + i + " ran " + runs.get(i) + " times");
            }
        }
        // One more resize, to an end value that shrinks in some rounds and grows in others, then quiescence.
        int end = 1 + round % pool.maxParallelism();
        pool.setParallelism(end);
        awaitQuiescent(pool, end);
    }

    /** Job {@code id}; forks and joins by id, so that the number of jobs is known in advance. */
    private static Runnable job(ForagePool pool, int id, int outside, int forks, AtomicIntegerArray runs,
            CountDownLatch done) {
        return () -> {
            runs.incrementAndGet(id);
            if (id < outside && id % 8 == 0) {
                int child = outside + 2 * (id / 8);
                pool.execute(job(pool, child, outside, forks, runs, done)); // onto this worker's deque
                pool.execute(job(pool, child + 1, outside, forks, runs, done));
            }
            if (id < outside && id % 16 == 0) {
                int half = outside + 2 * forks + id / 16;
                pool.join(() -> {
                    job(pool, half, outside, forks, runs, done).run();
                    return null;
                }, () -> null);
            }
            if (id < outside && id % 128 == 2) {
                int timer = outside + 2 * forks + (outside + 15) / 16 + id / 128;
                pool.schedule(job(pool, timer, outside, forks, runs, done), 50, TimeUnit.MICROSECONDS);
            }
            if (id < outside && id % 64 == 1) {
                try {
                    // A short blocking section: a stand-in joins in, and leaves again, while the pool resizes.
                    ForagePool.managedBlock(() -> {
                        LockSupport.parkNanos(20_000L);
                        return null;
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            done.countDown();
        };
    }

    /**
     * The pool has nothing to do: workers {@code 0..parallelism-1} each asleep (parked, counted once) or retired,
     * none idle, the sleep protocol's sleepers exactly those, workers above SHED with their threads ended, and no
     * worker blocked or stood in for.
     */
    static void awaitQuiescent(ForagePool pool, int parallelism) {
        ThreadedRunner runner = (ThreadedRunner) pool.registry().runner;
        Retirement retirement = runner.retirement();
        Poll.until("pool quiescent at parallelism " + parallelism, () -> {
            PoolStatistics s = pool.statistics();
            if (s.threads() != parallelism || s.idleWorkers() != 0 || s.blockedWorkers() != 0
                    || s.compensatingThreads() != 0) {
                return false;
            }
            int asleep = 0;
            for (int i = 0; i < pool.maxParallelism(); i++) {
                Thread t = runner.thread(i);
                int state = retirement.state(i);
                boolean alive = t != null && t.isAlive();
                if (i >= parallelism) {
                    if (state != Retirement.SHED || alive) {
                        return false;
                    }
                } else if (state == Retirement.RETIRED) {
                    if (alive) {
                        return false; // its thread is still on its way out
                    }
                } else if (state != Retirement.RUNNING || !alive || (t.getState() != Thread.State.WAITING
                        && t.getState() != Thread.State.TIMED_WAITING)) {
                    return false;
                } else {
                    asleep++;
                }
            }
            return s.sleepingWorkers() == asleep && s.retiredWorkers() == parallelism - asleep
                    && retirement.retiredCount() == parallelism - asleep;
        }, () -> pool + " states=" + states(retirement, pool.maxParallelism()) + " " + pool.registry().sleep);
    }

    private static String states(Retirement retirement, int n) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append(retirement.state(i));
        }
        return b.append(']').toString();
    }
}
