package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.example.SleepingJob;
import org.junit.jupiter.api.Test;

/** The monitor reports each job it finds blocked as a {@code dev.forage.BlockedJob} JFR event naming the user's code. */
@Watchdog.Budget(seconds = 120)
class BlockedJobEventTest {
    @Test
    void aJobBlockedInThreadSleepIsNamedByTheEvent() throws Exception {
        Path dir = Paths.get("target", "jfr");
        Files.createDirectories(dir);
        Path file = dir.resolve("forage-blocked-job.jfr");
        String name;
        try (Recording recording = new Recording()) {
            recording.enable("dev.forage.BlockedJob");
            recording.start();
            try (ForagePool pool = ForagePool.builder().threads(1).maxBlockingThreads(1)
                    .blockingDetection(10, TimeUnit.MILLISECONDS).name(Pools.uniqueName()).build()) {
                name = pool.name();
                SleepingJob job = new SleepingJob();
                pool.execute(job);
                assertTrue(job.started.await(60, TimeUnit.SECONDS));
                pool.execute(() -> { }); // a job behind it: what makes a blocked worker worth a look
                Watchdog.awaitCondition("the monitor counted the sleeping job blocked", Duration.ofSeconds(60),
                        () -> pool.statistics().blockedJobsDetected() == 1, () -> pool.statistics().toString());
                pool.shutdownNow();
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.forage.BlockedJob"))
                .filter(e -> name.equals(e.getString("pool")))
                .collect(Collectors.toList());
        assertEquals(1, events.size(), events.toString());
        RecordedEvent e = events.get(0);
        assertEquals(SleepingJob.class.getName(), e.getString("jobClass"));
        assertEquals("run", e.getString("jobMethod"));
        assertTrue(e.getString("blockedIn").startsWith("java.lang.Thread.sleep"), e.getString("blockedIn"));
        assertEquals(0, e.getInt("workerIndex"));
        assertTrue(e.getDuration("blockedFor").toNanos() > 0, e.toString());
    }
}
