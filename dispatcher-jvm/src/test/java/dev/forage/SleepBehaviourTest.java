package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sleep protocol as a user can observe it, through statistics and thread states, never through time.
 *
 * <p>What the protocol guarantees for one job injected into a pool whose N workers are all blocked:
 * <ol>
 *   <li>The injection wakes exactly one worker: {@code newInjectedJobs} sees N sleepers and 0 idle workers, so
 *       it wakes {@code min(1 - 0, N) = 1} (JecSleep.newJobs).</li>
 *   <li>That worker finds the job and leaves the idle state; {@code workFound} then wakes
 *       {@code min(sleeping, WAKE_ON_WORK_FOUND)} more. Rayon's ramp-up wakes 2 here, on every idle-to-active
 *       transition; Forage's default is 0 (Tuning explains the measurement).</li>
 *   <li>Any extra worker finds nothing and goes back to sleep without leaving the idle state, so nothing
 *       wakes further.</li>
 * </ol>
 * So exactly one wake-up finds work, and at most {@code 1 + min(WAKE_ON_WORK_FOUND, N - 1)} workers wake in
 * total: with the default, exactly one; with Rayon's 2, three of a pool of 4 or 8; never all of a pool of 4
 * or more.
 */
@Watchdog.Budget(seconds = 120)
class SleepBehaviourTest {
    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4, 8})
    void anIdlePoolEndsWithEveryWorkerAsleep(int threads) throws Exception {
        try (ForagePool pool = Pools.pool(threads)) {
            Pools.awaitAllAsleep(pool);
            assertEquals(0, pool.statistics().idleWorkers());
            // And again after a burst of work.
            CountDownLatch done = new CountDownLatch(1000);
            for (int i = 0; i < 1000; i++) {
                pool.execute(done::countDown);
            }
            done.await();
            Pools.awaitAllAsleep(pool);
            assertEquals(0, pool.statistics().idleWorkers());
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {4, 8})
    void oneJobIntoASleepingPoolWakesOneUsefulWorkerAndNeverAll(int threads) throws Exception {
        try (ForagePool pool = Pools.pool(threads)) {
            int rampUp = Math.min(Tuning.DEFAULTS.getInt(Tunable.WAKE_ON_WORK_FOUND), threads - 1);
            for (int round = 0; round < 10; round++) {
                Pools.awaitAllAsleep(pool);
                PoolStatistics before = pool.statistics();
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                ran.await();
                Pools.awaitAllAsleep(pool); // every worker that woke has searched and gone back to sleep
                PoolStatistics after = pool.statistics();
                long wakeups = after.wakeups() - before.wakeups();
                long useless = after.wakeupsWithoutWork() - before.wakeupsWithoutWork();
                String detail = "round " + round + ": before " + before + "\nafter " + after;
                assertEquals(1, after.jobsRun() - before.jobsRun(), detail);
                assertEquals(1, wakeups - useless, "exactly one woken worker must find the job; " + detail);
                assertTrue(wakeups <= 1 + rampUp, "woke " + wakeups + " workers for one job; " + detail);
                assertTrue(wakeups < threads, "one job woke the whole pool; " + detail);
                System.out.println("SleepBehaviourTest " + threads + " workers, round " + round + ": one job woke "
                        + wakeups + " (" + useless + " without work)");
            }
        }
    }
}
