package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The queue-wait measurement: its buckets, its sampling, that it measures the wait (not the run, not zero), that
 * the pool's own forks are not counted, that its wrapper never shows (shutdownNow, job names), and its JFR event.
 *
 * <p>Pools here hold a worker in a blocking wait to fill a queue behind it, so they turn blocked-job detection
 * off: its stand-in would run the queued jobs after 20 to 30 ms.
 */
@Watchdog.Budget(seconds = 180)
class QueueWaitTest {
    private static final int JOBS = 64 * 100;
    /** How long the held worker keeps every queued job waiting, at least. */
    private static final long HELD_NANOS = TimeUnit.MILLISECONDS.toNanos(30);

    @Test
    void everyWaitFallsInABucketWhoseUpperEndIsAtMostAQuarterAboveIt() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            long v = i < 5_000 ? i : random.nextLong(1L << random.nextInt(1, 41));
            int b = QueueWaitHistogram.bucket(v);
            long upper = QueueWaitHistogram.upperBound(b);
            assertTrue(v <= upper, v + " above its bucket's end " + upper);
            assertTrue(b == 0 || v > QueueWaitHistogram.upperBound(b - 1), v + " belongs to an earlier bucket");
            assertTrue(upper <= v + v / 4 + 1, v + ": bucket end " + upper + " more than a quarter above");
        }
        assertEquals(QueueWaitHistogram.BUCKETS - 1, QueueWaitHistogram.bucket(Long.MAX_VALUE));
        assertEquals(0, QueueWaitHistogram.bucket(-5), "a clock that stepped back counts as no wait");
    }

    @Test
    void recordsFromManyThreadsAtOnceAreAllCountedAndASnapshotsTotalMatchesItsCounts() throws Exception {
        QueueWaits waits = new QueueWaits("concurrent", PoolEvents.NONE);
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] recorders = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            recorders[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    waits.record(1_000); // 1 µs each, so every snapshot's total is its sample count times 1,000
                }
            });
            recorders[t].start();
        }
        start.countDown();
        // Snapshots taken meanwhile see counts and total from the same moment: a snapshot that read them apart
        // would see a total that is not 1,000 times its samples.
        while (recorders[0].isAlive()) {
            QueueWaitHistogram h = waits.snapshot();
            assertEquals(h.samples() * 1_000, h.totalNanos(), "counts and total from the same moment");
        }
        for (Thread r : recorders) {
            r.join();
        }
        QueueWaitHistogram all = waits.snapshot();
        assertEquals((long) threads * perThread, all.samples(), "every concurrent record counted");
        assertEquals((long) threads * perThread * 1_000, all.totalNanos());
    }

    @Test
    void percentilesOfKnownWaitsAndTheirDifference() {
        QueueWaits waits = new QueueWaits("p", PoolEvents.NONE);
        QueueWaitHistogram empty = waits.snapshot();
        assertEquals(0, empty.percentileNanos(0.99));
        for (int i = 1; i <= 100; i++) {
            waits.record(i * 1000L); // 1 us .. 100 us
        }
        QueueWaitHistogram h = waits.snapshot();
        assertEquals(100, h.samples());
        assertEquals(5_050_000L, h.totalNanos());
        assertBetween(50_000, 50_000 * 5 / 4, h.percentileNanos(0.5));
        assertBetween(99_000, 99_000 * 5 / 4, h.percentileNanos(0.99));
        assertBetween(100_000, 100_000 * 5 / 4, h.maxNanos());
        waits.record(TimeUnit.SECONDS.toNanos(1));
        QueueWaitHistogram later = waits.snapshot().since(h);
        assertEquals(1, later.samples());
        assertBetween(TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(1) * 5 / 4, later.percentileNanos(0.5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.percentileNanos(99));
        assertEquals("quantile must be from 0 to 1 (0.99 for p99), was 99.0", e.getMessage());
    }

    @Test
    void aHeldPoolsSubmissionsAreSampledAndEachWaitedAtLeastAsLongAsTheWorkerWasHeld() throws Exception {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).name(Pools.uniqueName()).build()) {
            AtomicInteger ran = new AtomicInteger();
            QueueWaitHistogram[] beforeFlood = new QueueWaitHistogram[1];
            long[] window = holdWhileSubmitting(pool, () -> ran.incrementAndGet(), beforeFlood);
            Watchdog.awaitCondition("every job ran", Watchdog.LIMIT, () -> ran.get() == JOBS, pool::toString);
            long slowest = System.nanoTime() - window[1];
            // Since the holding job returned: it is a submission too, sampled one time in 64, and it waited for
            // nothing, so counting it would put a wait of a few microseconds below the hold.
            QueueWaitHistogram h = afterEarlierJobs(pool).since(beforeFlood[0]);
            // One in 64 of 6,400: 100 expected; the binomial's standard deviation is about 10.
            assertBetween(40, 180, h.samples());
            long fastest = window[0];
            assertTrue(h.percentileNanos(0.0) >= fastest, "every sampled job waited while the worker was held: "
                    + h + ", held for at least " + fastest + " ns");
            assertTrue(h.maxNanos() <= slowest + slowest / 4, h + ", but no job waited over " + slowest + " ns");
            assertTrue(pool.statistics().toString().contains("queueWaitP99Nanos="), pool.statistics().toString());
        }
    }

    @Test
    void aSampledJobsWaitIsCountedOnceItReturnsAndStillWhenItThrows() throws Exception {
        QueueWaits waits = new QueueWaits("after", PoolEvents.NONE);
        QueueWaitHistogram[] whileRunning = new QueueWaitHistogram[1];
        sampled(waits, () -> whileRunning[0] = waits.snapshot()).run();
        assertEquals(1, waits.snapshot().samples(), "counted once the job returned");
        assertEquals(0, whileRunning[0].samples(), "counted before the job returned");
        Runnable failing = sampled(waits, () -> {
            throw new IllegalStateException("the job's own failure");
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, failing::run);
        assertEquals("the job's own failure", e.getMessage(), "the job's throwable passes through unchanged");
        assertEquals(2, waits.snapshot().samples(), "a job that threw had a wait too");
    }

    /** {@code job} wrapped by {@code waits}' timing wrapper. */
    private static Runnable sampled(QueueWaits waits, Runnable job) {
        Runnable r = waits.timed(job);
        assertNotSame(job, r, "a timed job is wrapped");
        return r;
    }

    @Test
    void forksOfRunningJobsAreNotSubmissionsAndAreNotCounted() {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(2).name(Pools.uniqueName()).build()) {
            assertEquals(6765L, (long) pool.install(() -> JoinAnyDepthTest.fib(pool, 20,
                    new JoinAnyDepthTest.Deepest())));
            pool.scope(s -> {
                for (int i = 0; i < 1000; i++) {
                    s.spawn(() -> { });
                }
                return null;
            });
            assertEquals(0, pool.statistics().queueWait().samples());
        }
    }

    @Test
    void shutdownNowReturnsTheSubmittedJobsAndNamesIgnoreTheTimingWrapper() throws Exception {
        ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).name(Pools.uniqueName()).build();
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        pool.execute(() -> {
            held.countDown();
            JoinAnyDepthTest.await(hold, "the test's release");
        });
        held.await();
        Set<Runnable> submitted = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < JOBS; i++) {
            int n = i;
            Runnable job = () -> assertTrue(n >= 0); // captures n: one object per submission
            submitted.add(job);
            pool.execute(job);
        }
        List<Runnable> never = pool.shutdownNow();
        hold.countDown();
        Set<Runnable> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(never);
        assertEquals(submitted, returned, "shutdownNow hands back what was submitted, never the timing wrapper");
        assertTrue(pool.awaitTermination(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS));

        Runnable user = new Runnable() {
            @Override
            public void run() {
            }
        };
        QueueWaits waits = new QueueWaits("n", PoolEvents.NONE);
        Runnable timed = waits.timed(user);
        assertSame(user, QueueWaits.untimed(timed));
        TaskName name = TaskName.of(timed);
        assertEquals(user.getClass().getName(), name.jobClass);
        assertNull(name.wrapperClass, "the timing wrapper is not the job's wrapper");
    }

    @Test
    void aRecordingGetsAQueueWaitEventPerSampledJobWithTheWaitAsItsDuration() throws Exception {
        Path dir = Paths.get("target", "jfr");
        Files.createDirectories(dir);
        Path file = dir.resolve("forage-queue-wait.jfr");
        String name;
        long fastest;
        long samples;
        Runnable[] flood = new Runnable[1];
        try (Recording recording = new Recording()) {
            recording.enable("dev.forage.QueueWait").withThreshold(java.time.Duration.ZERO);
            recording.start();
            try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1).name(Pools.uniqueName()).build()) {
                name = pool.name();
                AtomicInteger ran = new AtomicInteger();
                flood[0] = () -> ran.incrementAndGet();
                fastest = holdWhileSubmitting(pool, flood[0], new QueueWaitHistogram[1])[0];
                Watchdog.awaitCondition("every job ran", Watchdog.LIMIT, () -> ran.get() == JOBS, pool::toString);
                pool.close(); // every job returned, so every sampled wait is counted (closing again is a no-op)
                samples = pool.statistics().queueWait().samples();
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.forage.QueueWait"))
                .filter(e -> name.equals(e.getString("pool")))
                .collect(Collectors.toList());
        // Every sampled submission of the pool, the holding job and the one that took a snapshot included.
        assertEquals(samples, events.size(), "one event per sampled job");
        assertTrue(samples >= 40, samples + " sampled of " + JOBS);
        for (RecordedEvent e : events) {
            assertTrue(e.getString("jobClass").startsWith(QueueWaitTest.class.getName()), e.toString());
            if (e.getString("jobClass").equals(flood[0].getClass().getName())) {
                assertTrue(e.getDuration().toNanos() >= fastest, "the event's duration is the wait: " + e);
            }
        }
    }

    /**
     * Holds the pool's only worker, submits {@link #JOBS} jobs from this thread, keeps the worker held until
     * {@link #HELD_NANOS} passed since the last submission, then releases it. Returns {the least wait any of
     * the jobs can have had, the clock before the first was submitted}.
     */
    private static long[] holdWhileSubmitting(ForagePool pool, Runnable job) throws InterruptedException {
        return holdWhileSubmitting(pool, job, new QueueWaitHistogram[1]);
    }

    /**
     * As above; {@code beforeFlood[0]} gets the queue waits counted once the holding job returned, taken by a job
     * submitted before the flood (its own wait, if sampled, is as long as the flood's, and is counted after it).
     */
    private static long[] holdWhileSubmitting(ForagePool pool, Runnable job, QueueWaitHistogram[] beforeFlood)
            throws InterruptedException {
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        pool.execute(() -> {
            held.countDown();
            JoinAnyDepthTest.await(hold, "the test's release");
        });
        held.await();
        long start = System.nanoTime();
        pool.execute(() -> beforeFlood[0] = pool.statistics().queueWait());
        for (int i = 0; i < JOBS; i++) {
            pool.execute(job);
        }
        long lastSubmitted = System.nanoTime();
        long released;
        while ((released = System.nanoTime()) - lastSubmitted < HELD_NANOS) {
            LockSupport.parkNanos(HELD_NANOS); // the wait being measured: no job can start before the release
        }
        hold.countDown();
        return new long[] {released - lastSubmitted, start};
    }

    /**
     * The queue waits once every job that started before this call returned, on a pool of one worker: taken by a
     * job, which starts only after them, and whose own wait is counted after the snapshot.
     */
    private static QueueWaitHistogram afterEarlierJobs(ForagePool pool) throws InterruptedException {
        QueueWaitHistogram[] h = new QueueWaitHistogram[1];
        CountDownLatch taken = new CountDownLatch(1);
        pool.execute(() -> {
            h[0] = pool.statistics().queueWait();
            taken.countDown();
        });
        assertTrue(taken.await(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS), "the snapshot job ran");
        return h[0];
    }

    private static void assertBetween(long low, long high, long value) {
        assertTrue(value >= low && value <= high, value + " not within " + low + " .. " + high);
    }
}
