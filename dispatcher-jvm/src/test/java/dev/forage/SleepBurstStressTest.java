package dev.forage;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every worker asleep, then a burst: from outside, fanned out from inside by one job, or as due timers. All of it
 * must run, exactly once, each time. The fully asleep pool is where a lost wake-up strands work.
 */
@Watchdog.Budget(seconds = 180)
class SleepBurstStressTest {
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {2, 8})
    void burstsIntoAFullyAsleepPoolAllRun(int threads) throws Exception {
        int rounds = Pools.longRun() ? 500 : 45;
        int burst = 2_000;
        try (ForagePool pool = Pools.pool(threads)) {
            for (int round = 0; round < rounds; round++) {
                Pools.awaitAllAsleep(pool);
                AtomicIntegerArray runs = new AtomicIntegerArray(burst);
                CountDownLatch done = new CountDownLatch(burst);
                Runnable[] jobs = new Runnable[burst];
                for (int i = 0; i < burst; i++) {
                    int id = i;
                    jobs[i] = () -> {
                        runs.incrementAndGet(id);
                        done.countDown();
                    };
                }
                switch (round % 3) {
                    case 0:
                        for (Runnable job : jobs) {
                            pool.execute(job);
                        }
                        break;
                    case 1:
                        pool.execute(() -> {
                            for (Runnable job : jobs) {
                                pool.execute(job);
                            }
                        });
                        break;
                    default:
                        for (Runnable job : jobs) {
                            pool.schedule(job, 0, java.util.concurrent.TimeUnit.NANOSECONDS);
                        }
                        break;
                }
                done.await();
                Pools.awaitAllAsleep(pool);
                for (int i = 0; i < burst; i++) {
                    if (runs.get(i) != 1) {
                        throw new AssertionError("round " + round + ": job " + i + " ran " + runs.get(i) + " times");
                    }
                }
            }
        }
    }
}
