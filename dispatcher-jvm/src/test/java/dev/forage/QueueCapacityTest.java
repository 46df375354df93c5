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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bounded queues: a full deque or injector refuses with a {@link RejectedExecutionException} that names the pool
 * and the capacity, changes nothing, and the pool goes on; a runaway spawner meets that refusal, not an
 * {@link OutOfMemoryError}.
 *
 * <p>Pools here hold a worker in a blocking wait to fill a queue behind it, so they turn blocked-job detection
 * off: its stand-in would run the queued jobs after 20 to 30 ms.
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
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(64).name(Pools.uniqueName()).build()) {
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
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(64).name(Pools.uniqueName()).build()) {
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
    void theCapacityIsFromOneTo2To22AndThePolicyIsNeverNull() {
        for (int bad : new int[] {0, -1, ForagePoolBuilder.MAX_QUEUE_CAPACITY + 1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).queueCapacity(bad));
            assertEquals("queueCapacity must be from 1 to 4194304 (2^22) jobs, was " + bad, e.getMessage());
        }
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).whenQueueFull(null));
        assertTrue(e.getMessage().contains("allowed: [REJECT, CALLER_RUNS]"), e.getMessage());
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).name(Pools.uniqueName()).build()) {
            assertEquals(ForagePoolBuilder.MAX_QUEUE_CAPACITY, pool.queueCapacity());
            assertEquals(QueueFullPolicy.REJECT, pool.queueFullPolicy());
        }
    }

    @ParameterizedTest(name = "bound {0}: deque {1}")
    @CsvSource({"1, 64", "64, 64", "65, 128", "1000, 1024", "4194304, 4194304"})
    void aWorkersDequeHoldsTheBoundRoundedUpToAPowerOfTwoFrom64(int jobs, int deque) {
        QueueBound bound = new QueueBound(jobs, QueueFullPolicy.REJECT);
        assertEquals(jobs, bound.injectorCapacity);
        assertEquals(deque, bound.dequeCapacity);
    }

    @Test
    void aChosenBoundHoldsExactlyForOneSubmitter() throws Exception {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(10).name(Pools.uniqueName()).build();
                Held held = new Held(pool)) {
            int accepted = 0;
            RejectedExecutionException e = null;
            while (e == null && accepted <= 10) {
                try {
                    pool.execute(() -> { });
                    accepted++;
                } catch (RejectedExecutionException refused) {
                    e = refused;
                }
            }
            assertEquals(10, accepted, "one submitter meets the bound it chose, not a block later");
            assertTrue(e.getMessage().contains("the injector holds 10 jobs"), e.getMessage());
            assertTrue(e.getMessage().contains("whenQueueFull CALLER_RUNS"), e.getMessage());
        }
    }

    @Test
    void underCallerRunsAFullQueueRunsTheOutsideJobOnItsCallerDecoratedAndItsFailureGoesToTheHandler()
            throws Exception {
        List<Throwable> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger decorated = new java.util.concurrent.atomic.AtomicInteger();
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(2)
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS)
                .taskDecorator(task -> {
                    decorated.incrementAndGet();
                    return task;
                })
                .uncaughtExceptionHandler((t, error) -> handled.add(error))
                .name(Pools.uniqueName()).build();
                Held held = new Held(pool)) {
            List<Thread> ranOn = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> ranOn.add(Thread.currentThread()));
            }
            assertTrue(ranOn.isEmpty(), "the first two wait in the queue");
            pool.execute(() -> ranOn.add(Thread.currentThread()));
            assertEquals(Arrays.asList(Thread.currentThread()), ranOn, "the third ran here, before execute returned");
            IllegalStateException boom = new IllegalStateException("boom");
            pool.execute(() -> {
                throw boom;
            }); // not thrown here: to the handler, as on a worker
            assertEquals(Arrays.asList(boom), handled);
            assertEquals(5, decorated.get(), "every job decorated: the held one, two queued, two run here");
            RejectedExecutionException fair = assertThrows(RejectedExecutionException.class,
                    () -> pool.executeFair(() -> { }));
            assertTrue(fair.getMessage().contains("queue capacity exceeded"), fair.getMessage());
            held.release();
            Watchdog.awaitCondition("the queued jobs ran", Watchdog.LIMIT, () -> ranOn.size() == 3, pool::toString);
            assertTrue(ranOn.get(1).getName().startsWith(pool.name()), "queued jobs ran on the worker: " + ranOn);
        }
    }

    @Test
    void underCallerRunsAWorkersForkToAFullDequeIsStillRefused() {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(64)
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS).name(Pools.uniqueName()).build()) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> pool.install(() -> {
                for (int i = 0; i < 1000; i++) {
                    pool.execute(() -> { });
                }
                return null;
            }));
            assertTrue(e.getMessage().contains("worker 0's deque holds 64 jobs"), e.getMessage());
        }
    }

    @Test
    void underCallerRunsAShutDownPoolStillRejects() {
        ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(1).whenQueueFull(QueueFullPolicy.CALLER_RUNS)
                .name(Pools.uniqueName()).build();
        pool.close();
        List<Runnable> ran = new ArrayList<>();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> pool.execute(() -> ran.add(null)));
        assertTrue(e.getMessage().contains("is shut down"), e.getMessage());
        assertTrue(ran.isEmpty());
    }

    @Test
    void underCallerRunsAFullQueueRefusesOnceTheShutdownBitIsSetThoughTheInjectorIsStillOpen() throws Exception {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(1)
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS).name(Pools.uniqueName()).build();
                Held held = new Held(pool)) {
            pool.execute(() -> { }); // the queue's one place
            // shutdown()'s first half: the bit is set, the injector not closed yet (the window of the race).
            assertTrue(pool.registry().lifecycle.setShutdownBit());
            List<Thread> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> pool.execute(() -> ran.add(Thread.currentThread())));
            assertTrue(e.getMessage().contains("is shut down"), e.getMessage());
            assertTrue(ran.isEmpty(), "a job ran on its caller after shutdown had begun");
            // The same for the blocking executor's queue.
            RejectedExecutionException b = assertThrows(RejectedExecutionException.class,
                    () -> pool.blockingExecutor().execute(() -> ran.add(Thread.currentThread())));
            assertTrue(b.getMessage().contains("is shut down"), b.getMessage());
            assertTrue(ran.isEmpty());
            // The bit's setter is shutdown's first call; only shutdownNow, which never asks who set it, ends the pool.
            held.release();
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void theBlockingExecutorsQueueHoldsThePoolsCapacityAndRefusesTheRestWithTheRule() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(1000).maxBlockingThreads(2)
                .name(Pools.uniqueName()).build();
        try {
            java.util.concurrent.Executor blocking = pool.blockingExecutor(1);
            java.util.concurrent.Executor view = pool.blockingExecutor(1); // a view: a queue of its own
            holdOne(blocking, hold);
            holdOne(view, hold);
            int accepted = fillUntilRefused(blocking, ran, 200_000);
            assertEquals(1000, accepted, "the blocking queue holds the pool's queueCapacity, no more");
            RejectedExecutionException refused = assertThrows(RejectedExecutionException.class,
                    () -> blocking.execute(ran::incrementAndGet));
            assertTrue(refused.getMessage().contains("the blocking executor's queue holds 1000 jobs"),
                    refused.getMessage());
            assertEquals(1000, fillUntilRefused(view, ran, 2000), "a view's queue is bounded the same way");
            hold.countDown();
            Watchdog.awaitCondition("every accepted blocking task ran", Watchdog.LIMIT, () -> ran.get() == 2000,
                    pool::toString);
            blocking.execute(ran::incrementAndGet); // room again
        } finally {
            hold.countDown();
            pool.close();
        }
    }

    /** Holds {@code blocking}'s only permit with a task that waits for {@code hold}. */
    private static void holdOne(java.util.concurrent.Executor blocking, CountDownLatch hold) throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        blocking.execute(() -> {
            holding.countDown();
            JoinAnyDepthTest.await(hold, "the test's release");
        });
        assertTrue(holding.await(60, TimeUnit.SECONDS));
    }

    /** Submits up to {@code most} tasks and returns how many were accepted before the first refusal. */
    private static int fillUntilRefused(java.util.concurrent.Executor blocking,
            java.util.concurrent.atomic.AtomicInteger ran, int most) {
        for (int i = 0; i < most; i++) {
            try {
                blocking.execute(ran::incrementAndGet);
            } catch (RejectedExecutionException e) {
                assertTrue(e.getMessage().contains("queue capacity exceeded"), e.getMessage());
                return i;
            }
        }
        return most;
    }

    @Test
    void underCallerRunsAFullBlockingQueueRunsAnOutsideTaskOnItsCaller() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).queueCapacity(2).maxBlockingThreads(1)
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS).name(Pools.uniqueName()).build()) {
            java.util.concurrent.Executor blocking = pool.blockingExecutor();
            blocking.execute(() -> {
                holding.countDown();
                JoinAnyDepthTest.await(hold, "the test's release");
            });
            assertTrue(holding.await(60, TimeUnit.SECONDS));
            List<Thread> ranOn = new java.util.concurrent.CopyOnWriteArrayList<>();
            blocking.execute(() -> ranOn.add(Thread.currentThread()));
            blocking.execute(() -> ranOn.add(Thread.currentThread()));
            assertTrue(ranOn.isEmpty(), "two wait in the queue");
            blocking.execute(() -> ranOn.add(Thread.currentThread()));
            assertEquals(Arrays.asList(Thread.currentThread()), ranOn, "the third ran here");
            hold.countDown();
            Watchdog.awaitCondition("the queued tasks ran", Watchdog.LIMIT, () -> ranOn.size() == 3,
                    pool::toString);
        }
    }

    /** Holds the pool's only worker in a job until released, so that outside submissions queue. */
    static final class Held implements AutoCloseable {
        private final CountDownLatch hold = new CountDownLatch(1);

        Held(ForagePool pool) throws InterruptedException {
            CountDownLatch running = new CountDownLatch(1);
            pool.execute(() -> {
                running.countDown();
                JoinAnyDepthTest.await(hold, "the test's release");
            });
            running.await();
        }

        void release() {
            hold.countDown();
        }

        @Override
        public void close() {
            release();
        }
    }
}
