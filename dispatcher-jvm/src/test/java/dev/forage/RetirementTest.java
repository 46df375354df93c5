package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Idle workers retire: after the keep-alive a worker's thread ends, and the next job starts it again through the
 * post that queues the job. Nothing posted while the last thread retires is left behind.
 */
@Watchdog.Budget(seconds = 180)
class RetirementTest {
    private static ForagePool retiringPool(int threads, SleepProtocol protocol) {
        return ForagePool.builder().threads(threads).sleepProtocol(protocol).keepAlive(20, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName()).build();
    }

    private static void awaitAllRetired(ForagePool pool) {
        Retirement r = ((ThreadedRunner) pool.registry().runner).retirement();
        Watchdog.awaitCondition("every worker's thread retired", Watchdog.LIMIT,
                () -> r.retiredCount() == pool.parallelism() && Pools.liveThreadsOf(pool).isEmpty(),
                () -> pool + " retired=" + r.retiredCount() + " live=" + Pools.liveThreadsOf(pool));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void idleThreadsRetireAndTheNextJobBringsThemBack(SleepProtocol protocol) throws Exception {
        try (ForagePool pool = retiringPool(2, protocol)) {
            for (int round = 0; round < 3; round++) {
                awaitAllRetired(pool);
                assertEquals(55L, (long) pool.install(() -> JoinAnyDepthTest.fib(pool, 10,
                        new JoinAnyDepthTest.Deepest())), "a job after retirement " + round + " runs");
            }
        }
    }

    @Test
    void everyKindOfPostBringsARetiredPoolBack() throws Exception {
        try (ForagePool pool = retiringPool(1, SleepProtocol.JEC)) {
            awaitAllRetired(pool);
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS), "outside execute");

            awaitAllRetired(pool);
            CountDownLatch fired = new CountDownLatch(1);
            pool.schedule(fired::countDown, 1, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS), "a timer scheduled meanwhile");

            awaitAllRetired(pool);
            assertEquals(3, (int) pool.join(() -> 1, () -> 2).first() + 2, "a join from outside");
        }
    }

    @Test
    void aPendingTimerKeepsAWorkerToFireIt() throws Exception {
        try (ForagePool pool = retiringPool(2, SleepProtocol.JEC)) {
            CountDownLatch fired = new CountDownLatch(1);
            // Far beyond the keep-alive: a worker must stay (or come back) to fire it.
            pool.schedule(fired::countDown, 300, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS));
            awaitAllRetired(pool);
        }
    }

    @Test
    void jobsPostedWhileWorkersRetireAllRun() throws Exception {
        // Posts at about the keep-alive, so that they meet threads in every step of retiring.
        ForagePool pool = ForagePool.builder().threads(2).keepAlive(1, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName()).build();
        int jobs = 400;
        try (ForagePool closed = pool) {
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < jobs; i++) {
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    ran.incrementAndGet();
                    done.countDown();
                });
                assertTrue(done.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS), "job " + i + ": " + pool);
                long until = System.nanoTime() + (i % 7) * 300_000L; // varies the phase, orders nothing
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }
            assertEquals(jobs, ran.get());
        }
        // After close: a worker counts a job once it returned, which is after the job's countDown above.
        assertTrue(pool.statistics().jobsRun() >= jobs);
    }

    @Test
    void aPoolDroppedWithoutCloseEndsItsThreadsAndIsCollected() throws Exception {
        WeakReference<ForagePool> dropped = dropAPool();
        Watchdog.awaitCondition("the dropped pool was collected", Watchdog.LIMIT, () -> {
            System.gc();
            return dropped.get() == null;
        }, () -> "still reachable; threads: " + Thread.getAllStackTraces().keySet());
    }

    private static WeakReference<ForagePool> dropAPool() throws Exception {
        ForagePool pool = retiringPool(2, SleepProtocol.JEC);
        assertEquals(6765L, (long) pool.install(() -> JoinAnyDepthTest.fib(pool, 20, new JoinAnyDepthTest.Deepest())));
        awaitAllRetired(pool);
        return new WeakReference<>(pool);
    }

    @Test
    void closingARetiredPoolTerminatesAtOnce() throws Exception {
        ForagePool pool = retiringPool(3, SleepProtocol.JEC);
        awaitAllRetired(pool);
        pool.close();
        assertTrue(pool.isTerminated());
        assertEquals(List.of(), Pools.liveThreadsOf(pool));
    }

    @Test
    void theKeepAliveIsSixtySecondsByDefaultAndForeverForIoWorkersOrOnRequest() throws Exception {
        try (ForagePool byDefault = Pools.pool(2);
                ForagePool forever = ForagePool.builder().threads(2).keepAliveForever().name(Pools.uniqueName()).build();
                ForagePool io = ForagePool.builder().threads(2).ioWorkers().name(Pools.uniqueName()).build()) {
            for (ForagePool pool : List.of(byDefault, forever, io)) {
                Pools.runOnEveryWorker(pool, () -> { }); // each worker's thread has set its keep-alive
            }
            for (int i = 0; i < 2; i++) {
                assertEquals(TimeUnit.SECONDS.toNanos(60), byDefault.registry().workers[i].retireAfterNanos);
                assertEquals(0L, forever.registry().workers[i].retireAfterNanos, "never retires");
                assertEquals(0L, io.registry().workers[i].retireAfterNanos, "an IO worker owns its selector");
            }
        }
    }

    @Test
    void aKeepAliveBelowOneMillisecondIsRefusedWithTheWayToKeepThreads() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().keepAlive(0, TimeUnit.SECONDS));
        assertTrue(e.getMessage().contains("keepAliveForever()"), e.getMessage());
        assertThrows(NullPointerException.class, () -> ForagePool.builder().keepAlive(1, null));
    }
}
