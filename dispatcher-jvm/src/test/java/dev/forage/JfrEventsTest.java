package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.ChildJvm;
import dev.forage.testing.Watchdog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The JFR events, recorded to a file and read back: a long job and a wake-up that found no work. And the other
 * side: without a recording, a pool never sets up Flight Recorder.
 */
@Watchdog.Budget(seconds = 120)
class JfrEventsTest {
    /** A job that parks until it has provably run longer than the long-job threshold. */
    private static final class LongJob implements Runnable {
        final CountDownLatch done = new CountDownLatch(1);
        volatile long nanos;

        @Override
        public void run() {
            long threshold = TimeUnit.MILLISECONDS.toNanos(Tuning.DEFAULTS.get(Tunable.JFR_LONG_JOB_MILLIS));
            long start = System.nanoTime();
            while (System.nanoTime() - start <= threshold) {
                LockSupport.parkNanos(threshold / 4 + 1);
            }
            nanos = System.nanoTime() - start;
            done.countDown();
        }
    }

    @Test
    void aLongJobAndAWakeUpWithoutWorkAreRecorded() throws Exception {
        Path dir = Paths.get("target", "jfr");
        Files.createDirectories(dir);
        Path file = dir.resolve("forage-events.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.forage.LongJob");
            recording.enable("dev.forage.WakeupWithoutWork");
            String name;
            LongJob job = new LongJob();
            try (ForagePool pool = Pools.pool(2)) {
                name = pool.name();
                // The recording starts while the workers sleep: they learn of it when they wake (the listener
                // in JfrPoolEvents), not from having started during it.
                Pools.awaitAllAsleep(pool);
                recording.start();
                pool.execute(() -> { }); // a short job: never an event
                pool.execute(job);
                job.done.await();
                // A useless wake-up, made deterministically: wake a sleeper while nothing is queued anywhere. Its
                // search finds nothing, which is what the event reports.
                Pools.wakeOneWithoutWork(pool);
            }
            recording.stop();
            recording.dump(file);

            List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> name.equals(e.getString("pool")))
                    .collect(Collectors.toList());
            List<RecordedEvent> longJobs = events.stream()
                    .filter(e -> e.getEventType().getName().equals("dev.forage.LongJob"))
                    .collect(Collectors.toList());
            assertEquals(1, longJobs.size(), "one job ran longer than the threshold: " + longJobs);
            RecordedEvent longJob = longJobs.get(0);
            assertEquals(LongJob.class.getName(), longJob.getString("jobClass"));
            int worker = longJob.getInt("workerIndex");
            assertTrue(worker == 0 || worker == 1, "worker " + worker);
            Duration d = longJob.getDuration("jobDuration");
            assertTrue(d.toNanos() >= TimeUnit.MILLISECONDS.toNanos(Tuning.DEFAULTS.get(Tunable.JFR_LONG_JOB_MILLIS)), d.toString());
            assertTrue(d.toNanos() >= job.nanos, d + " is shorter than the job's own measure " + job.nanos);

            List<RecordedEvent> useless = events.stream()
                    .filter(e -> e.getEventType().getName().equals("dev.forage.WakeupWithoutWork"))
                    .collect(Collectors.toList());
            assertFalse(useless.isEmpty(), "no wake-up without work recorded: " + events);
            for (RecordedEvent e : useless) {
                int w = e.getInt("workerIndex");
                assertTrue(w == 0 || w == 1, "worker " + w);
            }
        }
    }

    /**
     * Creating a JFR event object runs its class's static initializer, which registers the class and, the first
     * time in a JVM, builds Flight Recorder's whole metadata repository: about a tenth of a second of CPU,
     * measured on a worker that had just woken without work. So an event object is made only while a recording
     * wants that event. A fresh JVM, since any recording earlier in this one set the repository up already; its
     * class-loading log shows whether the repository was loaded.
     */
    @Test
    void withoutARecordingWakeUpsWithoutWorkNeverSetUpFlightRecorder() throws Exception {
        String out = ChildJvm.run(2, Collections.singletonList("-Xlog:class+load=info"), JfrUntouchedMain.class);
        assertTrue(out.contains(JfrUntouchedMain.DONE), "the child did not see its wake-ups without work: " + tail(out));
        // The guard is the pool's, not an accident of the classpath: JfrPoolEvents itself is in use.
        assertTrue(out.contains("dev.forage.JfrPoolEvents "), "JfrPoolEvents was not loaded: " + tail(out));
        assertFalse(out.contains("jdk.jfr.internal.MetadataRepository "),
                "Flight Recorder's metadata was set up with no recording: " + grep(out, "dev.forage.jfr."));
    }

    private static String tail(String out) {
        return out.substring(Math.max(0, out.length() - 2000));
    }

    private static String grep(String out, String needle) {
        return java.util.Arrays.stream(out.split("\n")).filter(l -> l.contains(needle))
                .collect(Collectors.joining("\n"));
    }
}
