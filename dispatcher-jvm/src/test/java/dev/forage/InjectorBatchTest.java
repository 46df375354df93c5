package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Batches from the injector ({@code docs/sleep.md} section 3.9): a worker with an empty deque takes a share of the
 * outside jobs queued (from a backlog of two batches on), runs the oldest and pushes the rest on its deque, in their
 * order; a batch whose first job blocks still gets its other jobs run by a neighbour.
 */
@Watchdog.Budget(seconds = 120)
class InjectorBatchTest {
    private static final int JOBS = 200;

    @Test
    void aLoneWorkerTakesABatchAndRunsItInOrder() throws Exception {
        // 200 queued, one share: the batch is the default cap, 32 (the gate took the block's first slot, so 62 of
        // them are in the head's block). The first job runs; 31 wait on the deque.
        List<Integer> order = runBacklog(ForagePool.builder().threads(1).name(Pools.uniqueName()), 31);
        assertInOrder(order);
    }

    @Test
    void withBatchesOfOneEveryLookTakesOneJob() throws Exception {
        List<Integer> order = runBacklog(
                ForagePool.builder().threads(1).name(Pools.uniqueName()).tune(Tunable.INJECTOR_BATCH, 1), 0);
        assertInOrder(order);
    }

    /**
     * One worker blocked on a gate while {@link #JOBS} outside jobs queue behind it; then the gate opens. Returns
     * the order the jobs ran in, after checking how many jobs the worker's deque held when the first one ran, and
     * that each job counts once as taken from the injector.
     */
    private static List<Integer> runBacklog(ForagePoolBuilder builder, int expectedOnDeque) throws Exception {
        // Blocked-job detection off: the gate is a blocking wait with jobs queued behind it, so on a slow machine
        // (the 200 submissions taking over two thresholds) the monitor's stand-in would take the backlog itself,
        // in batches of its own, and the count on the deque would not be the one worker's.
        builder.blockingDetection(0, TimeUnit.MILLISECONDS);
        try (ForagePool pool = builder.build()) {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch gateRunning = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(JOBS);
            List<Integer> order = new ArrayList<>(); // only the pool's one worker touches it before `done`
            int[] onDequeAtFirst = {-1};
            pool.execute(() -> {
                gateRunning.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            gateRunning.await();
            long injectedBefore = pool.statistics().injectedJobs();
            for (int i = 0; i < JOBS; i++) {
                int id = i;
                pool.execute(() -> {
                    if (id == 0) {
                        onDequeAtFirst[0] = pool.statistics().queuedJobs(0);
                    }
                    order.add(id);
                    done.countDown();
                });
            }
            gate.countDown();
            done.await();
            assertEquals(expectedOnDeque, onDequeAtFirst[0], "jobs on the worker's deque when the first ran");
            assertEquals(JOBS, pool.statistics().injectedJobs() - injectedBefore, pool.statistics().toString());
            return order;
        }
    }

    private static void assertInOrder(List<Integer> order) {
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            expected.add(i);
        }
        assertEquals(expected, order);
    }

    /**
     * Both workers of a pool of two held while 100 outside jobs queue; then released. The first to look takes a
     * batch, from job 0 to job 50 at most (a batch ends at the injector's block), and runs job 0, which blocks (a
     * plain JDK latch, which the pool cannot see) until job 1 runs: the batch's next job, on the blocked worker's
     * deque. The other worker drains the injector one job at a time (too few are left for a batch), then must steal
     * job 1 from the blocked worker. A batch kept where nobody else can take it hangs here, and the watchdog fails
     * the test with a thread dump. Repeated, since which worker looks first varies; in the rare round where the
     * block's end leaves job 0 alone in its batch, job 1 comes from the injector and nothing is stolen.
     */
    @Test
    void aBatchWhoseFirstJobBlocksOnALaterOneFinishes() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            int rounds = Pools.longRun() ? 2_000 : 200;
            int roundsWithASteal = 0;
            for (int round = 0; round < rounds; round++) {
                CountDownLatch gate = new CountDownLatch(1);
                CountDownLatch held = new CountDownLatch(2);
                for (int i = 0; i < 2; i++) {
                    pool.execute(() -> {
                        held.countDown();
                        Pools.awaitQuietly(gate);
                    });
                }
                held.await();
                long stealsBefore = pool.statistics().steals();
                CountDownLatch secondRan = new CountDownLatch(1);
                CountDownLatch done = new CountDownLatch(100);
                for (int i = 0; i < 100; i++) {
                    int id = i;
                    pool.execute(() -> {
                        if (id == 0) {
                            Pools.awaitQuietly(secondRan);
                        } else if (id == 1) {
                            secondRan.countDown();
                        }
                        done.countDown();
                    });
                }
                gate.countDown();
                done.await();
                if (pool.statistics().steals() > stealsBefore) {
                    roundsWithASteal++;
                }
            }
            // A batch of one job needs the head within one slot of its block's end: 1 round in 63 on average.
            assertTrue(roundsWithASteal >= rounds / 2, roundsWithASteal + " of " + rounds
                    + " rounds had job 1 stolen from the blocked worker's batch: " + pool.statistics());
        }
    }
}
