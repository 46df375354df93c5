package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 10^6 jobs (10^7 with {@code -Dforage.stress.long=true}) submitted from several outside threads and from inside
 * the pool, through every submission path: each runs exactly once. 8 workers on this 2-core machine is the
 * oversubscribed case.
 */
@Watchdog.Budget(seconds = 180)
class ExactlyOnceStressTest {
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {2, 8})
    void everyJobRunsExactlyOnce(int threads) throws Exception {
        int total = Pools.longRun() ? 10_000_000 : 1_000_000;
        int half = total / 2;
        int submitters = 4;
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        CountDownLatch done = new CountDownLatch(total);
        try (ForagePool pool = Pools.pool(threads)) {
            List<Thread> outside = new ArrayList<>();
            for (int s = 0; s < submitters; s++) {
                int first = s;
                outside.add(new Thread(() -> {
                    // Outside jobs 0..half-1; each submits its child half+i from inside the pool.
                    for (int i = first; i < half; i += submitters) {
                        int id = i;
                        Runnable job = () -> {
                            runs.incrementAndGet(id);
                            Runnable child = () -> {
                                runs.incrementAndGet(half + id);
                                done.countDown();
                            };
                            if (id % 3 == 0) {
                                pool.executeFair(child); // inside: the injector, or the own deque when it is empty
                            } else {
                                pool.execute(child); // from inside, onto the worker's own deque
                            }
                            done.countDown();
                        };
                        if (id % 5 == 0) {
                            pool.executeFair(job);
                        } else {
                            pool.execute(job);
                        }
                    }
                }, "submitter-" + s));
            }
            Pools.awaitAllAsleep(pool); // the first submissions must wake the pool
            outside.forEach(Thread::start);
            for (Thread t : outside) {
                t.join();
            }
            done.await();
            // Quiescent: any job that ran twice has finished running by now.
            Pools.awaitAllAsleep(pool);
            for (int i = 0; i < total; i++) {
                if (runs.get(i) != 1) {
                    throw new AssertionError("job " + i + " ran " + runs.get(i) + " times; " + pool.statistics());
                }
            }
            assertEquals(total, pool.statistics().jobsRun(), pool.statistics().toString());
        }
    }
}
