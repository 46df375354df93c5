package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.ChildJvm;
import dev.forage.testing.Watchdog;
import java.net.ServerSocket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The pool's monitor ({@code docs/monitor.md}) as users meet it: timers that fire on time while every worker is
 * busy or blocked, cancelled timers that let the workers retire, and blocking calls without {@code managedBlock}
 * that no longer hold back the jobs behind them.
 *
 * <p>The bounds here are the contracts' outer edges, not speed claims: the monitor promises a few milliseconds,
 * and each test allows {@link #BOUND} (seconds), far below what the behaviour without the monitor gives (the
 * blocked or spinning workers are released only after the assertion, or never).
 */
@Watchdog.Budget(seconds = 240)
class MonitorTest {
    private static final Duration BOUND = Watchdog.scaled(Duration.ofSeconds(20));

    private static ForagePool pool(int threads, int maxBlocking) {
        return ForagePool.builder().threads(threads).maxBlockingThreads(maxBlocking)
                .blockingDetection(10, TimeUnit.MILLISECONDS).name(Pools.uniqueName()).build();
    }

    /** Jobs that hold every worker of a pool until released: spinning on the CPU, or blocked on a latch. */
    private static final class Occupied implements AutoCloseable {
        final CountDownLatch started;
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean released;

        Occupied(ForagePool pool, boolean spin) throws InterruptedException {
            int n = pool.parallelism();
            started = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                pool.execute(() -> {
                    started.countDown();
                    if (spin) {
                        while (!released) {
                            Thread.onSpinWait();
                        }
                    } else {
                        Pools.awaitQuietly(release);
                    }
                });
            }
            assertTrue(started.await(BOUND.getSeconds(), TimeUnit.SECONDS), "every worker took its job");
        }

        @Override
        public void close() {
            released = true;
            release.countDown();
        }
    }

    // Timers under load.

    @Test
    void aTimeoutFiresWhileEveryWorkerSpins() throws Exception {
        timeoutFiresWhileEveryWorkerIsHeld(true);
    }

    @Test
    void aTimeoutFiresWhileEveryWorkerIsBlocked() throws Exception {
        timeoutFiresWhileEveryWorkerIsHeld(false);
    }

    /** No stand-in can help (no blocking threads): only the monitor can run the action. */
    private static void timeoutFiresWhileEveryWorkerIsHeld(boolean spin) throws Exception {
        try (ForagePool pool = pool(2, 0); Occupied held = new Occupied(pool, spin)) {
            CountDownLatch fired = new CountDownLatch(1);
            AtomicReference<String> ranOn = new AtomicReference<>();
            pool.scheduleTimeout(() -> {
                ranOn.set(Thread.currentThread().getName());
                fired.countDown();
            }, 50, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(BOUND.getSeconds(), TimeUnit.SECONDS),
                    "the timeout did not fire while every worker was held: " + pool.statistics());
            assertEquals(pool.name() + "-monitor", ranOn.get());
        }
    }

    @Test
    void aTimerWhoseJobNeedsAWorkerIsQueuedOnTimeAndRunsWhenOneIsFree() throws Exception {
        try (ForagePool pool = pool(2, 0)) {
            CountDownLatch ran = new CountDownLatch(1);
            TimerHandle timer;
            try (Occupied held = new Occupied(pool, true)) {
                timer = pool.schedule(ran::countDown, 50, TimeUnit.MILLISECONDS);
                Watchdog.awaitCondition("the timer fired (queued on the injector) while every worker spins", BOUND,
                        timer::hasFired, pool::toString);
                assertEquals(1L, ran.getCount(), "no worker was free to run it yet");
            }
            assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS), "it ran once a worker was free");
        }
    }

    // Cancelled timers release their watcher.

    @Test
    void aCancelledTimerLetsItsWatcherRetireAfterTheKeepAlive() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).keepAlive(100, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName()).build()) {
            TimerHandle timer = pool.schedule(() -> { }, 10, TimeUnit.MINUTES);
            PoolTimers timers = pool.registry().timers;
            Watchdog.awaitCondition("a sleeping worker took the timer watch", BOUND,
                    () -> timers.watcher() != TimerQueue.NO_WATCHER, pool::toString);
            assertTrue(timer.cancel());
            Watchdog.awaitCondition("every worker retired after the cancel", BOUND,
                    () -> Pools.liveThreadsOf(pool).isEmpty(), () -> pool + " live=" + Pools.liveThreadsOf(pool));
        }
    }

    /** The user's view: a non-daemon pool dropped after a cancel lets the JVM exit. */
    @Test
    void aNonDaemonPoolLetsTheJvmExitAfterACancelledTimer() throws Exception {
        String out = ChildJvm.run(2, Collections.<String>emptyList(), CancelledTimerMain.class);
        assertTrue(out.contains(CancelledTimerMain.DONE), out);
    }

    // Blocking calls without managedBlock.

    @Test
    void jobsBehindWorkersBlockedInThreadSleepRun() throws Exception {
        try (ForagePool pool = pool(2, 2)) {
            CountDownLatch sleeping = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    sleeping.countDown();
                    try {
                        Thread.sleep(TimeUnit.MINUTES.toMillis(10));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // shutdownNow ends the sleep
                    }
                });
            }
            assertTrue(sleeping.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS),
                    "a job behind two sleeping workers did not run: " + pool.statistics());
            assertTrue(pool.statistics().blockedJobsDetected() >= 1, pool.statistics().toString());
            pool.shutdownNow();
        }
    }

    /** A blocking accept: the thread state says RUNNABLE, so only its CPU time shows it blocked. */
    @Test
    void jobsBehindWorkersBlockedInASocketAcceptRun() throws Exception {
        try (ForagePool pool = pool(2, 2); ServerSocket server = new ServerSocket(0)) {
            CountDownLatch accepting = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    accepting.countDown();
                    try {
                        server.accept().close();
                    } catch (SocketException closed) {
                        // the test closed the server socket: the accept is over
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
            }
            assertTrue(accepting.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS),
                    "a job behind two workers in accept() did not run: " + pool.statistics());
            server.close();
        }
    }

    @Test
    void theStandInLeavesOnceTheBlockedJobEnds() throws Exception {
        try (ForagePool pool = pool(1, 1)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                Pools.awaitQuietly(release);
                done.countDown();
            });
            CountDownLatch behind = new CountDownLatch(1);
            pool.execute(behind::countDown); // a job behind it: what makes a blocked worker worth a look
            assertTrue(behind.await(BOUND.getSeconds(), TimeUnit.SECONDS), pool::toString);
            Watchdog.awaitCondition("the monitor counted the job blocked and a stand-in runs", BOUND,
                    () -> {
                        PoolStatistics s = pool.statistics();
                        return s.detectedBlockedWorkers() == 1 && s.compensatingThreads() == 1;
                    }, () -> pool.statistics().toString());
            release.countDown();
            assertTrue(done.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            Watchdog.awaitCondition("the count was undone and the stand-in left", BOUND,
                    () -> {
                        PoolStatistics s = pool.statistics();
                        return s.detectedBlockedWorkers() == 0 && s.compensatingThreads() == 0
                                && s.blockedWorkers() == 0;
                    }, () -> pool.statistics().toString());
            assertEquals(1L, pool.statistics().blockedJobsDetected());
        }
    }

    @Test
    void aMarkedBlockingSectionIsNotCountedTwice() throws Exception {
        try (ForagePool pool = pool(1, 2)) {
            CountDownLatch inSection = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    pool.managedBlock(() -> {
                        inSection.countDown();
                        Pools.awaitQuietly(release);
                        return null;
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(inSection.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            // The section's stand-in busy for several sampling periods with a job queued behind it, so that the
            // monitor samples (jobs wait, no worker idle) while the worker sits in its marked section.
            CountDownLatch spun = new CountDownLatch(1);
            pool.execute(() -> {
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                spun.countDown();
            });
            CountDownLatch behind = new CountDownLatch(1);
            pool.execute(behind::countDown);
            assertTrue(spun.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            assertTrue(behind.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            assertTrue(pool.registry().monitor.thread() != null, "the monitor never sampled: " + pool.statistics());
            PoolStatistics s = pool.statistics();
            assertEquals(0, s.detectedBlockedWorkers(), s.toString());
            assertEquals(1, s.blockedWorkers(), s.toString());
            release.countDown();
        }
    }

    @Test
    void byDefaultANestedFutureGetOnAOneThreadPoolReturns() throws Exception {
        // new ForkJoinPool(1) returns 42 here (CompletableFuture.get on its worker goes through managedBlock); a
        // Forage worker blocked in get() is found by the monitor, and a stand-in runs the inner job.
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build()) {
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(() -> {
                try {
                    return CompletableFuture.supplyAsync(() -> 42, pool).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertEquals(42, (int) outer.get(BOUND.getSeconds(), TimeUnit.SECONDS), pool::toString);
            assertTrue(pool.statistics().blockedJobsDetected() >= 1, pool.statistics().toString());
        }
    }

    @Test
    void byDefaultNestedGetsOnEveryWorkerOfASmallPoolReturn() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name(Pools.uniqueName()).build()) {
            List<CompletableFuture<Integer>> outers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int n = i;
                outers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return CompletableFuture.supplyAsync(() -> n * 10, pool).get() + 1;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(i * 10 + 1, (int) outers.get(i).get(BOUND.getSeconds(), TimeUnit.SECONDS),
                        pool::toString);
            }
        }
    }

    @Test
    void busyWorkersWithNoJobQueuedBehindThemAreNotSampledButAQueuedJobIsRun() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).tune(Tunable.MONITOR_LINGER_MILLIS, 3_600_000)
                .name(Pools.uniqueName()).build();
                Occupied held = new Occupied(pool, false)) {
            Monitor monitor = (Monitor) pool.registry().monitor;
            // A post that lands before a new thread's first idle spell may wake the monitor once: let it settle.
            Watchdog.awaitCondition("the monitor does not sample", BOUND, () -> !monitor.gate.isSampling(),
                    pool::toString);
            long before = monitor.samples();
            // Time passes (a timer the monitor itself fires, the worker being held) with nothing queued.
            CountDownLatch fired = new CountDownLatch(1);
            pool.scheduleTimeout(fired::countDown, 50, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            assertEquals(before, monitor.samples(), "the monitor sampled a held worker with nothing behind it");
            assertFalse(monitor.gate.isSampling());
            // A job queued behind the blocked worker is what makes it sample: the job runs on a stand-in.
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS), pool::toString);
            assertTrue(monitor.samples() > before);
        }
    }

    @Test
    void aMonitorWokenByBurstsOfWaitingJobsSamplesOnInsteadOfBeingWokenForEachAndStillDetects() throws Exception {
        // A server at a moderate rate: now and then a job waits behind a worker that is busy for a moment, a few
        // milliseconds apart. Woken for each burst and dormant again after one empty sample, the monitor would
        // cost every such post an unpark and itself a wake-up; it samples on instead (Monitor.woken).
        try (ForagePool pool = ForagePool.builder().threads(1).blockingDetection(10, TimeUnit.MILLISECONDS)
                .tune(Tunable.MONITOR_LINGER_MILLIS, 3_600_000).name(Pools.uniqueName()).build()) {
            Monitor monitor = (Monitor) pool.registry().monitor;
            int bursts = 300;
            for (int i = 0; i < bursts; i++) {
                CountDownLatch holding = new CountDownLatch(1);
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(() -> {
                    holding.countDown();
                    long end = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(200);
                    while (System.nanoTime() - end < 0) {
                        Thread.onSpinWait();
                    }
                });
                assertTrue(holding.await(BOUND.getSeconds(), TimeUnit.SECONDS));
                pool.execute(ran::countDown); // waits behind the busy worker: J2
                assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // the bursts' pace, not a synchronization
            }
            long wakes = monitor.dormantWakes();
            // Woken for a burst and dormant after one empty sample, it covers the next three or four bursts at
            // most: 55 wakes when measured with MAX_QUIET_SAMPLES at 1.
            assertTrue(wakes <= 25, wakes + " wakes of the dormant monitor for " + bursts + " bursts");
            // Sampling on, posts no longer wake it: a worker blocked now is found by its own samples.
            try (Occupied held = new Occupied(pool, false)) {
                CountDownLatch queued = new CountDownLatch(1);
                pool.execute(queued::countDown);
                assertTrue(queued.await(BOUND.getSeconds(), TimeUnit.SECONDS), pool::toString);
            }
        }
    }

    @Test
    void aPoolAtLowLoadTakesAlmostNoSamples() throws Exception {
        // Low load, one job a millisecond: a post finds a worker asleep or idle, so nothing waits behind a blocked
        // one. Sampling whenever a worker is busy (at most every 40 ms) would take at least fifteen samples here; a
        // post may still find both workers between jobs now and then, and wake the monitor for one look.
        try (ForagePool pool = ForagePool.builder().threads(2).tune(Tunable.MONITOR_LINGER_MILLIS, 3_600_000)
                .name(Pools.uniqueName()).build()) {
            Monitor monitor = (Monitor) pool.registry().monitor;
            CountDownLatch first = new CountDownLatch(1);
            pool.execute(first::countDown);
            assertTrue(first.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            Pools.awaitAllAsleep(pool);
            Watchdog.awaitCondition("the monitor does not sample", BOUND, () -> !monitor.gate.isSampling(),
                    pool::toString);
            long before = monitor.samples();
            long start = System.nanoTime();
            for (int i = 0; i < 600; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the load's pace, not a synchronization
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long taken = monitor.samples() - before;
            assertTrue(taken <= 6, taken + " samples in " + millis + " ms of low load");
        }
    }

    @Test
    void detectionOffStartsNoMonitorForBusyWorkersOnlyForATimerNobodyWatches() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).blockingDetection(0, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName()).build();
                Occupied held = new Occupied(pool, false)) {
            CountDownLatch queued = new CountDownLatch(1);
            pool.execute(queued::countDown); // waits behind the held worker: no stand-in without detection
            assertNull(pool.registry().monitor.thread(), "a monitor thread started with detection off");
            // A timer nobody watches is the one thing that starts it then.
            CountDownLatch fired = new CountDownLatch(1);
            pool.scheduleTimeout(fired::countDown, 1, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            assertEquals(1, queued.getCount(), "the queued job ran though its worker is held");
        }
    }

    @Test
    void anIdlePoolEndsItsMonitorAfterTheLinger() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).tune(Tunable.MONITOR_LINGER_MILLIS, 50)
                .blockingDetection(10, TimeUnit.MILLISECONDS).name(Pools.uniqueName()).build()) {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(BOUND.getSeconds(), TimeUnit.SECONDS));
            Monitor monitor = (Monitor) pool.registry().monitor;
            Watchdog.awaitCondition("the monitor ended once nothing was left to watch", BOUND,
                    () -> !monitor.gate.isRunning() && (monitor.thread() == null || !monitor.thread().isAlive()),
                    pool::toString);
            // Its last look (X2) reads every worker in use, and only those: the pool's extra slots, made on
            // first use, are still empty here, and reading one would end a monitor with an exception instead.
            assertFalse(monitor.anythingToWatch(), pool::toString);
            CountDownLatch again = new CountDownLatch(1);
            pool.execute(again::countDown);
            assertTrue(again.await(BOUND.getSeconds(), TimeUnit.SECONDS));
        }
    }
}
