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
 *
 * <p>The second test isolates the race CI found in the first: a job pushes the other parties onto its own deque
 * and then blocks at the barrier, so it never pops them itself. Workers that were idle when the pushes were
 * posted (so nobody was woken) may each steal one party and leave; the hand-off rule of docs/sleep.md section
 * 3.6 must then wake a sleeper for the party still queued on the blocked pusher's deque.
 */
@Watchdog.Budget(seconds = 180)
class BarrierStressTest {
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4, 8})
    void everyTripFindsEveryWorkerAwake(int threads) throws Exception {
        int trips = Pools.longRun() ? 100_000 : 10_000;
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        Runnable party = party(barrier);
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

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {3, 4, 8})
    void partiesLeftOnABlockedPushersDequeAreTaken(int threads) throws Exception {
        int trips = Pools.longRun() ? 200_000 : 20_000;
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        Runnable party = party(barrier);
        try (ForagePool pool = Pools.pool(threads)) {
            Runnable pusher = () -> {
                for (int i = 1; i < threads; i++) {
                    pool.execute(party); // onto this worker's own deque
                }
                party.run(); // blocks until every party runs: the pushed ones must be taken by other workers
            };
            for (int trip = 0; trip < trips; trip++) {
                pool.execute(pusher);
                barrier.await();
            }
            System.out.println("BarrierStressTest (blocked pusher) " + threads + " workers, " + trips + " trips: "
                    + pool.statistics());
        }
    }

    /** A job that waits at {@code barrier}; a broken barrier fails the test. */
    private static Runnable party(CyclicBarrier barrier) {
        return () -> {
            try {
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new AssertionError(e);
            }
        };
    }
}
