package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.PeriodicWakeup;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace tool's analysis, on lines in the format of {@code perf script --ns -F comm,tid,cpu,time,event,trace}. */
class SchedTraceTest {
    private static final long SUBMITTER = 500;
    private static final long WORKER = 601;
    private static final long OTHER_WORKER = 602;

    @Test
    void perfScriptLinesParseWithSpacesInTaskNamesAndOtherLinesAreSkipped() {
        SchedTrace.Event w = SchedTrace.Event.parse("  C2 CompilerThre   812 [001] 11733.834046237: sched:sched_waking: "
                + "comm=forage-worker pid=601 prio=120 target_cpu=000");
        assertTrue(w.waking);
        assertEquals(11_733_834_046_237L, w.time);
        assertEquals(1, w.cpu);
        assertEquals(WORKER, w.target);

        SchedTrace.Event s = SchedTrace.Event.parse("         swapper     0 [000] 11733.834175258: sched:sched_switch: "
                + "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=C2 CompilerThre "
                + "next_pid=812 next_prio=120");
        assertFalse(s.waking);
        assertEquals(0, s.prev);
        assertTrue(s.prevRunnable, "prev_state=R: the task switched out was preempted");
        assertFalse(SchedTrace.Event.parse(switchIn(1_000, SUBMITTER, WORKER, "S")).prevRunnable);
        assertFalse(SchedTrace.Event.parse(switchIn(1_000, SUBMITTER, WORKER, "D")).prevRunnable);
        assertTrue(SchedTrace.Event.parse(switchIn(1_000, SUBMITTER, WORKER, "R+")).prevRunnable);
        assertEquals(812, s.target);

        assertNull(SchedTrace.Event.parse("            perf 23042 [000] 11733.834046: sched:sched_waking: comm=x "
                + "pid=1 prio=0 target_cpu=000"), "microsecond time stamps are refused: the tool asks for --ns");
        assertNull(SchedTrace.Event.parse("            java 100 [000] 11733.834046237: sched:sched_wakeup: comm=x "
                + "pid=1 prio=0 target_cpu=000"));
        assertNull(SchedTrace.Event.parse(""));
    }

    @Test
    void eachSampleIsSplitAtItsOwnThreadsWakingAndSwitchIn() {
        List<String> lines = new ArrayList<>();
        lines.add(waking(900, SUBMITTER)); // the trace begins before the first sample
        lines.add(switchOut(950, WORKER, 1)); // our thread went to sleep on CPU 1
        // Sample 1, at 1000: the other worker is woken and switched in first (not this sample's thread), then ours,
        // on an idle CPU.
        lines.add(waking(1_002, OTHER_WORKER));
        lines.add(switchIn(1_003, 0, OTHER_WORKER));
        lines.add(waking(1_004, WORKER));
        lines.add(switchIn(1_010, 0, WORKER));
        // Sample 2, at 2000: ours preempts the submitter, still runnable.
        lines.add(switchOut(1_500, WORKER, 0)); // after sample 1's job, asleep again on CPU 0
        lines.add(waking(2_001, WORKER));
        lines.add(switchIn(2_003, SUBMITTER, WORKER, "R"));
        // Sample 3, at 3000: no waking of its thread (it was awake).
        lines.add(switchIn(3_001, 0, OTHER_WORKER));
        // A waking of our thread before sample 4's submit does not count for it.
        lines.add(waking(3_990, WORKER));
        lines.add(switchIn(3_995, 0, WORKER));
        // Sample 4: ours takes the submitter's CPU when the submitter goes to sleep.
        lines.add(waking(4_002, WORKER));
        lines.add(switchIn(4_020, SUBMITTER, WORKER, "S"));
        lines.add(waking(9_000, SUBMITTER));
        List<SchedTrace.Event> events = lines.stream().map(SchedTrace.Event::parse).collect(Collectors.toList());

        List<SchedTrace.Sample> samples = List.of(
                new SchedTrace.Sample(800, 1_001, WORKER, SUBMITTER), // before the trace began: left out
                new SchedTrace.Sample(1_000, 1_011, WORKER, SUBMITTER),
                new SchedTrace.Sample(2_000, 2_005, WORKER, SUBMITTER),
                new SchedTrace.Sample(3_000, 3_002, WORKER, SUBMITTER),
                new SchedTrace.Sample(4_000, 4_030, WORKER, SUBMITTER),
                new SchedTrace.Sample(10_000, 10_001, WORKER, SUBMITTER)); // after the trace ended: left out
        SchedTrace.Match m = SchedTrace.correlate(events, samples);

        assertEquals(1, m.notWoken);
        assertEquals(3, m.rows.size());
        assertRow(m.rows.get(0), 11, 4, 6, 1, false, false, true);
        assertRow(m.rows.get(1), 5, 1, 2, 2, true, true, false);
        assertRow(m.rows.get(2), 30, 2, 18, 10, true, false, false);
    }

    @Test
    void theReportGivesEachBandsMedianPerStep() {
        List<SchedTrace.Row> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // Latency i µs; the slowest 3 % spend their extra time on the worker's side.
            long toJob = i >= 97 ? 50_000 : 1_000;
            rows.add(new SchedTrace.Row(i * 1_000L, 2_000, 3_000, toJob, i < 99, i % 2 == 0, i >= 90));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SchedTrace.report(rows, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("| 0-50 % | 50 | 25.0 | 2.0 | 3.0 | 1.0 | 100 % | 50 % | 0 % |", lines[2]);
        assertEquals("| 50-90 % | 40 | 70.0 | 2.0 | 3.0 | 1.0 | 100 % | 50 % | 0 % |", lines[3]);
        assertEquals("| 97-99 % | 2 | 98.0 | 2.0 | 3.0 | 50.0 | 100 % | 50 % | 100 % |", lines[5]);
        assertEquals("| 99-100 % | 1 | 99.0 | 2.0 | 3.0 | 50.0 | 0 % | 0 % | 100 % |", lines[6]);
    }

    @Test
    void thePeriodicLoopWritesOneSamplePerDeadlineWithTheJobsOwnThread(@TempDir Path dir) throws Exception {
        Recorded r = recordOnTwoThreads(dir, pool -> SchedTrace.periodic(pool, 20, 30));
        assertEquals(30, r.samples.size());
        for (int i = 0; i < r.samples.size(); i++) {
            SchedTrace.Sample s = r.samples.get(i);
            assertEquals(SchedTrace.threadId(), s.submitter);
            assertTrue(r.poolThreads.contains(s.thread), "the job ran on the pool: " + s.thread);
            assertTrue(s.start >= s.submit, "a job starts after its submit");
            if (i > 0) {
                long gap = s.submit - r.samples.get(i - 1).submit;
                assertTrue(gap >= PeriodicWakeup.PERIOD_NANOS / 2, "submits follow 2 ms deadlines, not back to back: "
                        + gap + " ns");
            }
        }
    }

    @Test
    void theInsideLoopNamesEachSamplesTriggerWorkerAsItsSubmitter(@TempDir Path dir) throws Exception {
        Recorded r = recordOnTwoThreads(dir, pool -> SchedTrace.submitAndWait(pool, true, 10, 20));
        assertEquals(20, r.samples.size());
        for (SchedTrace.Sample s : r.samples) {
            assertTrue(r.poolThreads.contains(s.submitter), "the submitter is the trigger's worker: " + s.submitter);
            assertTrue(r.poolThreads.contains(s.thread), "the job ran on the pool: " + s.thread);
            assertTrue(s.thread != s.submitter, "the job was taken by the other worker, the trigger spinning");
            assertTrue(s.start >= s.submit, "a job starts after its submit");
        }
    }

    @Test
    void theOutsideLoopNamesThisThreadAsEachSamplesSubmitter(@TempDir Path dir) throws Exception {
        Recorded r = recordOnTwoThreads(dir, pool -> SchedTrace.submitAndWait(pool, false, 10, 20));
        assertEquals(20, r.samples.size());
        for (SchedTrace.Sample s : r.samples) {
            assertEquals(SchedTrace.threadId(), s.submitter);
            assertTrue(r.poolThreads.contains(s.thread), "the job ran on the pool: " + s.thread);
            assertTrue(s.start >= s.submit, "a job starts after its submit");
        }
    }

    /** The samples a loop recorded on a pool of two threads, read back from its sample file, and the two threads. */
    private record Recorded(List<SchedTrace.Sample> samples, Set<Long> poolThreads) {
    }

    private static Recorded recordOnTwoThreads(Path dir, Function<Executor, SchedTrace.Recording> loop)
            throws Exception {
        Path dump = dir.resolve("samples");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Set<Long> poolThreads = ConcurrentHashMap.newKeySet();
        try {
            for (int i = 0; i < 2; i++) {
                pool.submit(() -> poolThreads.add(SchedTrace.threadId())).get(); // a fixed pool's two threads
            }
            loop.apply(pool).write(dump);
        } finally {
            pool.shutdownNow();
        }
        return new Recorded(SchedTrace.readSamples(dump), poolThreads);
    }

    private static void assertRow(SchedTrace.Row r, long latency, long toWaking, long toOnCpu, long toJob,
            boolean tookCpu, boolean preempted, boolean migrated) {
        assertEquals(latency, r.latency, "latency");
        assertEquals(toWaking, r.toWaking, "execute to waking");
        assertEquals(toOnCpu, r.toOnCpu, "waking to on-CPU");
        assertEquals(toJob, r.toJob, "on-CPU to job");
        assertEquals(tookCpu, r.tookSubmitterCpu, "took the submitter's CPU");
        assertEquals(preempted, r.preemptedSubmitter, "preempted the submitter");
        assertEquals(migrated, r.migrated, "switched in on another CPU");
    }

    private static String waking(long nanos, long pid) {
        return String.format("            java %d [001] %s: sched:sched_waking: comm=forage-worker pid=%d prio=120 "
                + "target_cpu=000", SUBMITTER, time(nanos), pid);
    }

    private static String switchIn(long nanos, long prev, long next) {
        return switchIn(nanos, prev, next, "S");
    }

    private static String switchIn(long nanos, long prev, long next, String prevState) {
        return String.format("            java %d [000] %s: sched:sched_switch: prev_comm=java prev_pid=%d "
                + "prev_prio=120 prev_state=%s ==> next_comm=forage-worker next_pid=%d next_prio=120", prev,
                time(nanos), prev, prevState, next);
    }

    private static String switchOut(long nanos, long prev, int cpu) {
        return String.format("            java %d [%03d] %s: sched:sched_switch: prev_comm=forage-worker prev_pid=%d "
                + "prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", prev, cpu, time(nanos),
                prev, cpu);
    }

    /** {@code perf script --ns}'s time stamp: seconds, a dot and nine digits of nanoseconds. */
    private static String time(long nanos) {
        return String.format("%d.%09d", nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }
}
