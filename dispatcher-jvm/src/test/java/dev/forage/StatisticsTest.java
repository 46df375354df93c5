package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Statistics add up: every job counted once, per worker sums to the total, wake-ups follow sleeps. */
@Watchdog.Budget(seconds = 120)
class StatisticsTest {
    @Test
    void aOneWorkerPoolCountsEachOutsideJobExactlyOnce() throws Exception {
        int n = 5000;
        try (ForagePool pool = Pools.pool(1)) {
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                pool.execute(done::countDown);
            }
            done.await();
            Pools.awaitAllAsleep(pool); // the last job's count is written after it ran
            PoolStatistics s = pool.statistics();
            assertEquals(n, s.jobsRun(), s.toString());
            assertEquals(n, s.injectedJobs(), s.toString());
            assertEquals(n, s.jobsRun(0));
            assertEquals(0, s.steals(), "one worker has nobody to steal from");
        }
    }

    @Test
    void countsAddUpOnABusyPool() throws Exception {
        int n = 20_000;
        try (ForagePool pool = Pools.pool(4)) {
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                if (i % 2 == 0) {
                    pool.execute(done::countDown);
                } else {
                    pool.execute(() -> pool.execute(done::countDown)); // one more job, pushed from inside
                }
            }
            done.await();
            Pools.awaitAllAsleep(pool);
            PoolStatistics s = pool.statistics();
            assertEquals(4, s.threads());
            assertEquals(n + n / 2, s.jobsRun(), s.toString());
            assertEquals(n, s.injectedJobs(), s.toString());
            long perWorker = 0;
            for (int i = 0; i < 4; i++) {
                perWorker += s.jobsRun(i);
            }
            assertEquals(s.jobsRun(), perWorker);
            assertTrue(s.wakeups() <= s.sleeps(), s.toString());
            assertTrue(s.wakeupsWithoutWork() <= s.wakeups(), s.toString());
            assertTrue(s.latchWakeups() <= s.wakeups(), s.toString());
            assertEquals(4, s.sleepingWorkers());
            assertEquals(0, s.idleWorkers());
            assertTrue(s.toString().contains("jobsRun=" + s.jobsRun()));
        }
    }

    @Test
    void joinHalvesAndScopeJobsAreJobsToo() {
        try (ForagePool pool = Pools.pool(1)) {
            pool.install(() -> pool.join(() -> 1, () -> 2)); // install body + b
            pool.scope(s -> {
                s.spawn(() -> { });
                s.spawn(() -> { });
                return null;
            }); // install body + 2 spawned
            Pools.awaitAllAsleep(pool);
            assertEquals(5, pool.statistics().jobsRun(), pool.statistics().toString());
        }
    }
    @Test
    void aTerminatedPoolHasNoActiveWorkers() throws Exception {
        // Plain; with a worker retired before the shutdown; with stand-ins that ran for blocking sections.
        ForagePool plain = Pools.pool(4);
        ForagePool retiring = ForagePool.builder().threads(2).name(Pools.uniqueName())
                .keepAlive(50, TimeUnit.MILLISECONDS).build();
        ForagePool blocking = Pools.pool(2);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            plain.execute(ran::countDown);
            ran.await();
            Poll.until("a worker retired", () -> retiring.statistics().retiredWorkers() > 0,
                    () -> retiring.statistics().toString());
            blocking.install(() -> blocking.join(() -> standIn(), () -> standIn()));
        } finally {
            for (ForagePool pool : new ForagePool[] {plain, retiring, blocking}) {
                pool.close();
                assertTrue(pool.isTerminated());
                PoolStatistics s = pool.statistics();
                assertEquals(0, s.activeWorkers(), s.toString());
                assertTrue(pool.toString().contains("active=0"), pool.toString());
            }
        }
    }

    /**
     * One style for every counter: each {@link PoolCounter} has a public getter on the snapshot named as its key,
     * and it returns what {@code count(counter)} returns. The snapshot's totals are given a distinct value each,
     * so a getter missing, misnamed, or reading another counter's slot fails.
     */
    @Test
    void everyCounterHasAGetterNamedAsItsKeyThatReadsTheSameValueAsCount() throws Exception {
        PoolStatistics s;
        try (ForagePool pool = Pools.pool(1)) {
            s = pool.statistics();
        }
        Field totalsField = PoolStatistics.class.getDeclaredField("totals");
        totalsField.setAccessible(true);
        long[] totals = (long[]) totalsField.get(s);
        assertEquals(PoolCounter.values().length, totals.length);
        for (PoolCounter c : PoolCounter.values()) {
            totals[c.ordinal()] = 1_000 + 7L * c.ordinal();
        }
        for (PoolCounter c : PoolCounter.values()) {
            Method getter;
            try {
                getter = PoolStatistics.class.getMethod(c.key());
            } catch (NoSuchMethodException e) {
                throw new AssertionError("PoolStatistics has no getter " + c.key() + "() for PoolCounter." + c, e);
            }
            assertTrue(Modifier.isPublic(getter.getModifiers()), getter::toString);
            assertEquals(long.class, getter.getReturnType(), getter::toString);
            long expected = 1_000 + 7L * c.ordinal();
            assertEquals(expected, s.count(c), c::toString);
            assertEquals(expected, (long) (Long) getter.invoke(s), () -> c.key() + "() reads another counter");
            assertTrue(s.toString().contains(c.key() + "=" + expected), s::toString);
        }
    }

    private static int standIn() {
        try {
            return ForagePool.managedBlock(() -> 1);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
