package dev.forage.testing;

import dev.forage.ForagePool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Records the {@code dev.forage.LongJob} events of one pool while a scenario runs, for the tests of what those
 * events name. The pool is closed (so every worker has committed its events) before the recording stops.
 */
public final class LongJobRecording {
    /** The threshold the tests' pools use: long enough that an ordinary short job never reaches it. */
    public static final long THRESHOLD_MILLIS = 20;
    /** How long the tests' long jobs run: well past the threshold. */
    public static final long LONG_JOB_MILLIS = 3 * THRESHOLD_MILLIS;

    private static final AtomicInteger FILES = new AtomicInteger();

    private LongJobRecording() {
    }

    /** A scenario that may throw. */
    public interface Scenario {
        void run() throws Exception;
    }

    /** A pool whose long-job threshold is {@link #THRESHOLD_MILLIS}. */
    public static ForagePool pool(String name, int threads) {
        return ForagePool.builder().name(name).threads(threads)
                .longJobThreshold(THRESHOLD_MILLIS, TimeUnit.MILLISECONDS).build();
    }

    /**
     * One recording for the whole test JVM, never stopped. A recording per scenario loses strings: JFR writes a
     * string it has seen into the constant pool of the chunk that first needed it, and a later recording's dump
     * may not carry that chunk, so the string reads back as null. Each scenario dumps this one instead and keeps
     * its own pool's events (pool names are unique).
     */
    private static Recording recording;

    private static synchronized Recording recording() {
        if (recording == null) {
            recording = new Recording();
            recording.setName("forage-long-job-tests");
            recording.enable("dev.forage.LongJob").withThreshold(java.time.Duration.ZERO);
            recording.start();
        }
        return recording;
    }

    /** Runs {@code scenario}, closes {@code pool}, and returns the LongJob events of that pool. */
    public static List<RecordedEvent> record(ForagePool pool, Scenario scenario) throws Exception {
        Recording r = recording();
        Path dir = Paths.get("target", "jfr");
        Files.createDirectories(dir);
        Path file = dir.resolve("long-jobs-" + FILES.incrementAndGet() + ".jfr");
        try {
            scenario.run();
        } finally {
            pool.close(); // waits for the workers to end: every event they commit is committed by now
        }
        r.dump(file);
        String name = pool.name();
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.forage.LongJob"))
                .filter(e -> name.equals(e.getString("pool")))
                .collect(Collectors.toList());
    }

    /** The one event whose job class is {@code jobClass}; fails, listing the events, if there is none or more. */
    public static RecordedEvent naming(List<RecordedEvent> events, String jobClass) {
        List<RecordedEvent> matching = events.stream()
                .filter(e -> jobClass.equals(e.getString("jobClass")))
                .collect(Collectors.toList());
        if (matching.size() != 1) {
            throw new AssertionError("expected one LongJob event naming " + jobClass + ", found "
                    + matching.size() + " among: " + describe(events));
        }
        return matching.get(0);
    }

    /** The events' job, coroutine and wrapper names, for failure messages. */
    public static String describe(List<RecordedEvent> events) {
        return events.stream()
                .map(e -> "{jobClass=" + e.getString("jobClass") + ", coroutineName=" + e.getString("coroutineName")
                        + ", wrapperClass=" + e.getString("wrapperClass") + "}")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** Occupies the calling thread for {@link #LONG_JOB_MILLIS}: a long job. */
    public static void runLong() {
        long nanos = TimeUnit.MILLISECONDS.toNanos(LONG_JOB_MILLIS);
        long start = System.nanoTime();
        long left;
        while ((left = nanos - (System.nanoTime() - start)) > 0) {
            LockSupport.parkNanos(left);
        }
    }
}
