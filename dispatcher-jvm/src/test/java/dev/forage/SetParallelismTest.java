package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * {@link ForagePool#setParallelism}: its range and refusals, a shrink (the workers above leave after their job,
 * their queued jobs run elsewhere, the counts come back right), a grow (new workers take work at once), and its
 * meeting with retirement, blocking sections and shutdown. The races are {@code ResizeStressTest}'s and the jcstress
 * tests {@code GrowVsLeave} and {@code ShrinkVsRetire}.
 */
@Watchdog.Budget(seconds = 120)
class SetParallelismTest {
    private static ForagePool pool(int threads, int max) {
        return ForagePool.builder().threads(threads).maxParallelism(max).keepAliveForever().name(Pools.uniqueName())
                .build();
    }

    private static Retirement retirement(ForagePool pool) {
        return ((ThreadedRunner) pool.registry().runner).retirement();
    }

    /** Waits until every worker from {@code parallelism} up is SHED and its thread has ended. */
    static void awaitShed(ForagePool pool, int parallelism) {
        ThreadedRunner runner = (ThreadedRunner) pool.registry().runner;
        Poll.until("workers " + parallelism + ".." + (pool.maxParallelism() - 1) + " shed", () -> {
            for (int i = parallelism; i < pool.maxParallelism(); i++) {
                Thread t = runner.thread(i);
                if (runner.retirement().state(i) != Retirement.SHED || t != null && t.isAlive()) {
                    return false;
                }
            }
            return true;
        }, () -> pool + " " + Pools.liveThreadsOf(pool));
    }

    @Test
    void theRangeIsOneToTheMaximumAndBadCallsSayWhatIsAllowed() throws Exception {
        try (ForagePool pool = pool(2, 4)) {
            assertEquals(4, pool.maxParallelism());
            for (int bad : new int[] {0, -1, 5}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> pool.setParallelism(bad));
                assertTrue(e.getMessage().contains("between 1 and 4") && e.getMessage().contains("was " + bad)
                        && e.getMessage().contains("maxParallelism"), e.getMessage());
            }
            assertEquals(2, pool.parallelism(), "a refused call changes nothing");
            pool.shutdown();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.setParallelism(1));
            assertTrue(e.getMessage().contains("is shut down"), e.getMessage());
        }
        try (ForagePool byDefault = Pools.pool(3)) {
            assertEquals(3, byDefault.maxParallelism(), "by default the thread count: shrink, then grow back");
        }
        try (ForagePool single = ForagePool.builder().singleThreaded().build()) {
            assertEquals(0, single.maxParallelism());
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> single.setParallelism(1));
            assertTrue(e.getMessage().contains("is single-threaded"), e.getMessage());
        }
        try (ForagePool io = ForagePool.builder().threads(2).ioWorkers().name(Pools.uniqueName()).build()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> io.setParallelism(1));
            assertTrue(e.getMessage().contains("has ioWorkers"), e.getMessage());
        }
    }

    @Test
    void theBuilderChecksTheMaximumAgainstItsOtherSettings() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ForagePool.builder().maxParallelism(0))
                .getMessage().contains("maxParallelism must be between 1 and " + ForagePoolBuilder.MAX_THREADS));
        String below = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().threads(4).maxParallelism(2).build()).getMessage();
        assertTrue(below.contains("maxParallelism (2) is below threads (4)"), below);
        String single = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().maxParallelism(2).singleThreaded().build()).getMessage();
        assertTrue(single.contains("singleThreaded()"), single);
        String io = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().threads(2).maxParallelism(3).ioWorkers().build()).getMessage();
        assertTrue(io.contains("with ioWorkers"), io);
        String slots = assertThrows(IllegalArgumentException.class, () -> ForagePool.builder().threads(2)
                .maxParallelism(ForagePoolBuilder.MAX_THREADS).maxBlockingThreads(1).build()).getMessage();
        assertTrue(slots.contains("maxParallelism included") && slots.contains("maxBlockingThreads (1)"), slots);
    }

    @Test
    void aShrinkEndsTheThreadsAboveAndEveryCountFollows() throws Exception {
        try (ForagePool pool = pool(4, 4)) {
            Pools.runOnEveryWorker(pool, () -> { }); // every worker ran once
            assertEquals(4, pool.setParallelism(2));
            assertEquals(2, pool.parallelism());
            PoolStatistics s = pool.statistics();
            assertEquals(2, s.threads());
            assertTrue(pool.toString().contains("threads=2"), pool.toString());
            awaitShed(pool, 2);
            // The two left asleep or busy; either way the protocol's counts are back to two sleepers, none idle.
            Pools.awaitAllAsleep(pool);
            assertEquals(0, pool.statistics().idleWorkers());
            assertEquals(2, Pools.liveThreadsOf(pool).size(), Pools.liveThreadsOf(pool).toString());
            assertEquals(2, pool.setParallelism(2), "the same value: nothing to do");
        }
    }

    @Test
    void aShedWorkerFinishesItsJobTakesNoOtherAndItsQueuedJobsRunElsewhere() throws Exception {
        try (ForagePool pool = pool(2, 2)) {
            int queued = 100;
            CountDownLatch inJobs = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch ran = new CountDownLatch(queued);
            AtomicIntegerArray ranOn = new AtomicIntegerArray(2);
            AtomicInteger shedJobFinished = new AtomicInteger();
            CyclicBarrier both = new CyclicBarrier(2);
            for (int k = 0; k < 2; k++) {
                pool.execute(() -> {
                    try {
                        both.await(); // one job per worker
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    if (ForagePool.currentWorkerIndex() == 1) {
                        for (int i = 0; i < queued; i++) {
                            pool.execute(() -> {
                                ranOn.incrementAndGet(ForagePool.currentWorkerIndex());
                                ran.countDown();
                            }); // onto worker 1's own deque
                        }
                    }
                    inJobs.countDown();
                    Pools.awaitQuietly(release);
                    if (ForagePool.currentWorkerIndex() == 1) {
                        shedJobFinished.incrementAndGet();
                    }
                });
            }
            inJobs.await();
            assertEquals(2, pool.setParallelism(1)); // worker 1 is in its job, its deque full
            release.countDown();
            ran.await();
            awaitShed(pool, 1);
            assertEquals(1, shedJobFinished.get(), "the job in hand finished");
            assertEquals(0, ranOn.get(1), "the shed worker took no job after its own");
            assertEquals(queued, ranOn.get(0));
            Pools.awaitAllAsleep(pool);
        }
    }

    @Test
    void aGrowStartsWorkersThatTakeWorkAtOnceAndPostsWakeThem() throws Exception {
        try (ForagePool pool = pool(1, 3)) {
            assertEquals(1, Pools.liveThreadsOf(pool).size(), "workers above the first parallelism have no thread");
            assertEquals(1, pool.setParallelism(3));
            assertEquals(3, pool.statistics().threads());
            Set<Thread> threads = Pools.runOnEveryWorker(pool, () -> { }); // three jobs that meet: three workers
            assertEquals(3, threads.size());
            for (int round = 0; round < 3; round++) {
                Pools.awaitAllAsleep(pool);
                int burst = 300;
                CountDownLatch done = new CountDownLatch(burst);
                for (int i = 0; i < burst; i++) {
                    pool.execute(done::countDown);
                }
                done.await();
            }
            Pools.awaitAllAsleep(pool);
        }
    }

    @Test
    void aGrowBringsBackWhatAShrinkShed() throws Exception {
        try (ForagePool pool = pool(3, 3)) {
            pool.setParallelism(1);
            awaitShed(pool, 1);
            pool.setParallelism(3);
            assertEquals(3, Pools.runOnEveryWorker(pool, () -> { }).size());
            Pools.awaitAllAsleep(pool);
            assertEquals(3, Pools.liveThreadsOf(pool).size(), Pools.liveThreadsOf(pool).toString());
        }
    }

    @Test
    void aGrowWhoseThreadIsRefusedLeavesTheWorkerForTheNextPost() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean refuse = new java.util.concurrent.atomic.AtomicBoolean();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ForagePool pool = ForagePool.builder().threads(1).maxParallelism(2).keepAliveForever()
                .name(Pools.uniqueName()).uncaughtExceptionHandler((t, e) -> failures.add(e))
                .threadFactory(r -> refuse.get() ? null : new Thread(r)).build()) {
            refuse.set(true);
            assertEquals(1, pool.setParallelism(2), "the grow itself succeeds");
            assertEquals(1, failures.size(), failures.toString());
            assertTrue(failures.get(0).getMessage().contains("the thread factory returned null for worker 1"),
                    failures.get(0).getMessage());
            assertEquals(Retirement.RETIRED, retirement(pool).state(1), "left for the next post");
            assertFalse(pool.isShutdown(), "a refused thread after the build fails only itself");
            refuse.set(false);
            assertEquals(2, Pools.runOnEveryWorker(pool, () -> { }).size(), "a post brought worker 1 back");
        }
    }

    @Test
    void retiredWorkersAboveTheNewParallelismAreShedAndNoPostBringsThemBack() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(3).keepAlive(20, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName()).build()) {
            Retirement r = retirement(pool);
            Poll.until("all retired", () -> r.retiredCount() == 3 && Pools.liveThreadsOf(pool).isEmpty(),
                    pool::toString);
            pool.setParallelism(1);
            assertEquals(1, r.retiredCount());
            assertEquals(1, pool.statistics().retiredWorkers());
            assertEquals(Retirement.SHED, r.state(1));
            assertEquals(Retirement.SHED, r.state(2));
            for (int i = 0; i < 20; i++) {
                assertEquals(0, (int) pool.install(ForagePool::currentWorkerIndex), "only worker 0 comes back");
            }
            assertEquals(Retirement.SHED, r.state(1));
            assertEquals(Retirement.SHED, r.state(2));
            pool.setParallelism(3); // a grow starts the shed workers, which then retire again when idle
            assertEquals(3, Pools.runOnEveryWorker(pool, () -> { }).size());
            Poll.until("all retired again", () -> r.retiredCount() == 3 && Pools.liveThreadsOf(pool).isEmpty(),
                    pool::toString);
        }
    }

    @Test
    void blockingSectionsKeepTheirStandInsAcrossAShrink() throws Exception {
        try (ForagePool pool = pool(2, 2)) {
            CountDownLatch blocked = new CountDownLatch(2);
            CountDownLatch unblock = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    try {
                        ForagePool.managedBlock(() -> {
                            blocked.countDown();
                            unblock.await();
                            return null;
                        });
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
            }
            blocked.await(); // both workers blocked, two stand-ins run
            pool.setParallelism(1);
            // A job that only a stand-in can run: both workers are blocked.
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            ran.await();
            unblock.countDown();
            awaitShed(pool, 1);
            Poll.until("no section left", () -> pool.statistics().blockedWorkers() == 0
                    && pool.statistics().compensatingThreads() == 0, pool::toString);
            // Still a pool of one with its compensation: a blocked worker gets a stand-in.
            CountDownLatch second = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    ForagePool.managedBlock(() -> {
                        second.await();
                        return null;
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                done.countDown();
            });
            pool.execute(second::countDown);
            done.await();
        }
    }

    @Test
    void aWorkerMayResizeItsOwnPoolAndShedItself() throws Exception {
        try (ForagePool pool = pool(2, 2)) {
            List<Integer> before = new ArrayList<>();
            CyclicBarrier both = new CyclicBarrier(2);
            CountDownLatch done = new CountDownLatch(2);
            for (int k = 0; k < 2; k++) {
                pool.execute(() -> {
                    try {
                        both.await();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    if (ForagePool.currentWorkerIndex() == 1) {
                        synchronized (before) {
                            before.add(pool.setParallelism(1)); // worker 1 sheds itself, after this job
                        }
                    }
                    done.countDown();
                });
            }
            done.await();
            assertEquals(List.of(2), before);
            awaitShed(pool, 1);
            assertEquals(1, (int) pool.install(() -> pool.join(() -> 1, () -> 0).first()));
        }
    }

    @Test
    void aTimerPendingAtShutdownStillFiresWhenWorkersWereShed() throws Exception {
        for (int round = 0; round < 20; round++) {
            ForagePool pool = pool(4, 4);
            pool.setParallelism(1 + round % 2);
            CountDownLatch fired = new CountDownLatch(1);
            pool.schedule(fired::countDown, 20, TimeUnit.MILLISECONDS);
            pool.shutdown(); // the last live worker stays for the timer: a shed one is not live
            assertTrue(fired.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS), "round " + round + ": " + pool);
            assertTrue(pool.awaitTermination(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void shutdownAfterAShrinkTerminatesAndCountsTheShedWorkersOut() throws Exception {
        ForagePool pool = pool(4, 6);
        pool.setParallelism(2);
        awaitShed(pool, 2);
        pool.close();
        assertTrue(pool.isTerminated());
        assertEquals(List.of(), Pools.liveThreadsOf(pool));
        for (int i = 0; i < 6; i++) {
            assertTrue(i < 2 || retirement(pool).state(i) == Retirement.ENDED, "worker " + i + " counted out");
        }
        assertFalse(pool.statistics().activeWorkers() > 0);
    }
}
