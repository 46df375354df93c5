package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.ChildJvm;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bounded queues: a full deque or injector refuses with a {@link RejectedExecutionException} that names the pool
 * and the capacity, changes nothing, and the pool goes on; a runaway spawner meets that refusal, not an
 * {@link OutOfMemoryError}.
 */
@Watchdog.Budget(seconds = 300)
class QueueCapacityTest {
    @Test
    void aFullDequeRefusesAndKeepsEveryJobItHolds() {
        WorkDeque d = new WorkDeque(64);
        Runnable[] jobs = new Runnable[64];
        for (int i = 0; i < 64; i++) {
            jobs[i] = new Job(i);
            d.push(jobs[i]);
        }
        assertThrows(RejectedExecutionException.class, () -> d.push(new Job(-1)));
        assertEquals(64, d.size());
        assertSame(jobs[0], d.steal());
        for (int i = 63; i >= 1; i--) {
            assertSame(jobs[i], d.pop(), "LIFO order is intact after the refusal");
        }
        assertNull(d.pop());
        d.push(jobs[0]); // room again
        assertSame(jobs[0], d.pop());
    }

    @Test
    void aFullInjectorRefusesSubmissionsButNotThePoolsOwnPushes() {
        Injector q = new Injector(4, 6); // 3 slots a block
        int accepted = 0;
        while (q.pushFromOutside(new Job(accepted)) >= 0) {
            accepted++;
            assertTrue(accepted <= 6 + 3, "at most one block over the capacity");
        }
        assertTrue(accepted >= 6, "accepted up to the capacity: " + accepted);
        assertEquals(Injector.FULL, q.pushFromOutside(new Job(-2)));
        assertEquals(Injector.FULL, q.pushBounded(new Job(-3)));
        q.push(new Job(-4)); // never refused: nobody could be told
        for (int i = 0; i < 4; i++) {
            q.poll();
        }
        assertTrue(q.pushFromOutside(new Job(-5)) >= 0);
        q.close();
        assertEquals(Injector.REJECTED, q.pushFromOutside(new Job(-6)));
    }

    @Test
    void aWorkerThatSubmitsPastTheCapacityIsToldWhyAndThePoolGoesOn() {
        try (ForagePool pool = ForagePool.builder().threads(1).queueCapacity(64).name(Pools.uniqueName()).build()) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> pool.install(() -> {
                for (int i = 0; i < 1000; i++) {
                    pool.execute(() -> { });
                }
                return null;
            }));
            assertTrue(e.getMessage().contains("pool " + pool.name()), e.getMessage());
            assertTrue(e.getMessage().contains("queue capacity exceeded"), e.getMessage());
            assertTrue(e.getMessage().contains("64 jobs"), e.getMessage());
            assertEquals(6765L, (long) pool.install(() -> JoinAnyDepthTest.fib(pool, 20,
                    new JoinAnyDepthTest.Deepest())));
        }
    }

    @Test
    void anOutsideSubmitterPastTheCapacityIsToldWhy() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).queueCapacity(64).name(Pools.uniqueName()).build()) {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch held = new CountDownLatch(1);
            pool.execute(() -> {
                held.countDown();
                JoinAnyDepthTest.await(hold, "the test's release");
            });
            held.await();
            List<Runnable> accepted = new ArrayList<>();
            RejectedExecutionException e = null;
            for (int i = 0; i < 1000 && e == null; i++) {
                try {
                    pool.execute(() -> { });
                    accepted.add(null);
                } catch (RejectedExecutionException refused) {
                    e = refused;
                }
            }
            assertTrue(e != null, "refused after " + accepted.size());
            assertTrue(e.getMessage().contains("the injector holds 64 jobs"), e.getMessage());
            hold.countDown();
            Watchdog.awaitCondition("the injector drained", Watchdog.LIMIT,
                    () -> pool.statistics().injectorQueuedJobs() == 0, pool::toString);
            pool.execute(() -> { }); // and takes jobs again
        }
    }

    @ParameterizedTest(name = "{0} threads, {1} jobs")
    @CsvSource({"1, shared", "2, shared", "4, shared", "1, distinct"})
    void aRunawaySpawnerInA256MiBHeapMeetsTheRejectionNotOutOfMemory(int threads, String jobs) throws Exception {
        String out = ChildJvm.run(5, Arrays.asList("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"), RunawaySpawner.class,
                String.valueOf(threads), jobs);
        assertTrue(out.contains("REJECTED pool runaway: queue capacity exceeded"), out);
        assertTrue(out.contains("TERMINATED true"), out);
    }

    @Test
    void theCapacityIsAPowerOfTwoFrom64() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().queueCapacity(100));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }
}
