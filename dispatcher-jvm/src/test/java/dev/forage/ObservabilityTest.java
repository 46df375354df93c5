package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Queue depths, busy time and the pool's toString: the gauges of a statistics snapshot. */
@Watchdog.Budget(seconds = 120)
class ObservabilityTest {
    @Test
    void injectorSizeCountsSlotsAcrossBlockBoundaries() {
        Injector injector = new Injector(4); // 3 slots per block: boundaries every third job
        int pushed = 0;
        int polled = 0;
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 5; i++) {
                injector.push(() -> { });
                pushed++;
                assertEquals(pushed - polled, injector.approximateSize(), "after push " + pushed);
            }
            for (int i = 0; i < 3; i++) {
                injector.poll();
                polled++;
                assertEquals(pushed - polled, injector.approximateSize(), "after poll " + polled);
            }
        }
        while (injector.poll() != null) {
            polled++;
        }
        assertEquals(0, injector.approximateSize());
    }

    @Test
    void busyClockAddsSpellsAndIgnoresRepeatedTransitions() {
        WorkerStatistics c = new WorkerStatistics();
        assertEquals(0, c.busyNanos(), "a new worker has not been busy");
        long t = System.nanoTime();
        c.busyStarts(t);
        c.busyStarts(t + 5); // already busy: the spell still starts at t
        c.busyEnds(t + 100);
        c.busyEnds(t + 200); // already idle: nothing added
        assertEquals(100, c.busyNanos());
        c.busyStarts(t + 300);
        c.busyEnds(t + 350);
        assertEquals(150, c.busyNanos());
        // A spell in progress counts up to the reader's clock.
        c.busyStarts(System.nanoTime());
        long first = c.busyNanos();
        assertTrue(first >= 150, "" + first);
        long before = System.nanoTime();
        LockSupport.parkNanos(1_000_000);
        long after = System.nanoTime();
        assertTrue(c.busyNanos() - first >= after - before, "the clock runs while busy");
    }

    @Test
    void queuedJobsCountTheWorkersDequeWhileItsOwnerRunsAJob() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            AtomicReference<PoolStatistics> seen = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(6);
            pool.install(() -> {
                for (int i = 0; i < 5; i++) {
                    pool.execute(ran::countDown); // our own deque: one worker, nobody steals
                }
                seen.set(pool.statistics());
                ran.countDown();
                return null;
            });
            ran.await();
            PoolStatistics s = seen.get();
            assertEquals(5, s.queuedJobs(0), s.toString());
            assertEquals(5, s.dequeQueuedJobs(), s.toString());
            assertEquals(0, s.injectorQueuedJobs(), s.toString());
            assertEquals(5, s.queuedJobs(), s.toString());
            assertEquals(1, s.activeWorkers(), s.toString());
        }
    }

    @Test
    void queuedJobsCountTheInjectorOfASingleThreadedPool() {
        try (ForagePool pool = ForagePool.builder().singleThreaded().name(Pools.uniqueName()).build()) {
            for (int i = 0; i < 70; i++) { // more than one injector block
                pool.execute(() -> { });
            }
            PoolStatistics s = pool.statistics();
            assertEquals(70, s.injectorQueuedJobs(), s.toString());
            assertEquals(70, s.queuedJobs(), s.toString());
            assertEquals(70, pool.runPending());
            assertEquals(0, pool.statistics().queuedJobs());
            assertTrue(pool.statistics().busyNanos() > 0, "driving the pool is busy time");
        }
    }

    @Test
    void busyTimeCoversEveryJobAndStopsWhileAsleep() throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            long[] jobNanos = new long[1];
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                long start = System.nanoTime();
                while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(20)) {
                    LockSupport.parkNanos(1_000_000);
                }
                jobNanos[0] = System.nanoTime() - start;
                done.countDown();
            });
            done.await();
            Pools.awaitAllAsleep(pool);
            PoolStatistics s = pool.statistics();
            assertTrue(s.busyNanos() >= jobNanos[0], "busy " + s.busyNanos() + " < job " + jobNanos[0]);
            assertEquals(s.busyNanos(0) + s.busyNanos(1), s.busyNanos());
            assertEquals(s.busyNanos(), pool.statistics().busyNanos(), "asleep, nobody is busy");
            assertEquals(0, s.activeWorkers(), s.toString());
        }
    }

    @Test
    void busyTimeGrowsWhileAJobRuns() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            pool.install(() -> {
                long first = pool.statistics().busyNanos(0);
                long before = System.nanoTime();
                LockSupport.parkNanos(2_000_000);
                long after = System.nanoTime();
                long second = pool.statistics().busyNanos(0);
                assertTrue(second - first >= after - before, first + " then " + second);
                return null;
            });
        }
    }

    @Test
    void toStringShowsStateThreadsWorkersQueuesAndCounters() throws Exception {
        ForagePool pool = Pools.pool(2);
        try {
            CountDownLatch done = new CountDownLatch(10);
            for (int i = 0; i < 10; i++) {
                pool.execute(done::countDown);
            }
            done.await();
            Pools.awaitAllAsleep(pool);
            PoolStatistics s = pool.statistics();
            assertEquals("ForagePool[" + pool.name() + ", running, threads=2, active=0, idle=0, sleeping=2, "
                    + "queued=0 (deques=0, injector=0), steals=" + s.steals() + ", jobsRun=10]", pool.toString());
        } finally {
            pool.close();
        }
        assertTrue(pool.toString().startsWith("ForagePool[" + pool.name() + ", terminated, threads=2, "),
                pool.toString());
    }

    @Test
    void toStringOfASingleThreadedPoolShowsItsQueuedJobs() {
        try (ForagePool pool = ForagePool.builder().singleThreaded().name(Pools.uniqueName()).build()) {
            for (int i = 0; i < 3; i++) {
                pool.execute(() -> { });
            }
            assertEquals("ForagePool[" + pool.name() + ", running, threads=0, active=0, idle=0, sleeping=0, "
                    + "queued=3 (deques=0, injector=3), steals=0, jobsRun=0]", pool.toString());
        }
    }

    @Test
    void statisticsToStringNamesEveryGauge() {
        try (ForagePool pool = Pools.pool(1)) {
            String text = pool.statistics().toString();
            for (String key : new String[] {"queuedJobs=", "injectorQueuedJobs=", "busyNanos=", "queuedPerWorker=",
                    "busyNanosPerWorker="}) {
                assertTrue(text.contains(key), key + " missing in " + text);
            }
        }
    }

    /**
     * The loading rule: Android and Java 8 never touch jdk.jfr or Micrometer. Only JfrPoolEvents (reached through
     * PoolEvents by name) may name jdk.jfr in the engine's package; none of its classes may name Micrometer.
     */
    @Test
    void theEngineNamesNeitherJfrNorMicrometer() throws IOException {
        Path classes = Paths.get(PoolEvents.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .resolve("dev/forage");
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes)) {
            files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> !p.getFileName().toString().startsWith("JfrPoolEvents"))
                    .forEach(p -> {
                        String bytes = new String(read(p), StandardCharsets.ISO_8859_1);
                        if (bytes.contains("jdk/jfr") || bytes.contains("io/micrometer")) {
                            offenders.add(p.getFileName().toString());
                        }
                    });
        }
        assertTrue(offenders.isEmpty(), "engine classes naming jdk.jfr or Micrometer: " + offenders);
        assertTrue(Files.exists(classes.resolve("JfrPoolEvents.class")), "the scan looked at the right folder");
        assertFalse(PoolEvents.INSTANCE == PoolEvents.NONE, "JDK 17 has JFR: the JFR events load");
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
