package dev.forage;

import dev.forage.testing.Watchdog;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code CyclicBarrier(threads + 1)} tripped again and again by {@code threads} jobs and the test thread. Every
 * trip needs every worker awake at once, each holding one job, so a single lost wake-up leaves the barrier one
 * party short forever: the watchdog turns that into a failure with a thread dump. Between trips the workers
 * may fall asleep, so every trip exercises waking them, from outside and from inside the pool.
 */
@Watchdog.Budget(seconds = 180)
class BarrierStressTest {
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4, 8})
    void everyTripFindsEveryWorkerAwake(int threads) throws Exception {
        int trips = Pools.longRun() ? 100_000 : 10_000;
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        Runnable party = () -> {
            try {
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new AssertionError(e);
            }
        };
        try (ForagePool pool = Pools.pool(threads)) {
            for (int trip = 0; trip < trips; trip++) {
                if (trip % 64 == 63) {
                    // Workers that keep finding work between trips never sleep; make sure some trips start
                    // from a pool where every worker is blocked.
                    Pools.awaitAllAsleep(pool);
                }
                switch (trip % 3) {
                    case 0: // all parties from outside, through the injector
                        for (int i = 0; i < threads; i++) {
                            pool.execute(party);
                        }
                        break;
                    case 1: // one outside job pushes the other parties on its own deque: thieves must wake
                        pool.execute(() -> {
                            for (int i = 1; i < threads; i++) {
                                pool.execute(party);
                            }
                            party.run();
                        });
                        break;
                    default: // from inside, through the injector
                        pool.execute(() -> {
                            for (int i = 1; i < threads; i++) {
                                pool.executeFair(party);
                            }
                            party.run();
                        });
                        break;
                }
                barrier.await();
            }
            System.out.println("BarrierStressTest " + threads + " workers, " + trips + " trips: " + pool.statistics());
        }
    }
}
