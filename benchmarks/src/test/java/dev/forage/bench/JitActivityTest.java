package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up's compiler watch, on a fake {@code /proc/self/task}: which threads count, how ticks become
 * milliseconds, when a window is quiet, and that a warm-up waits for quiet up to its cap.
 */
class JitActivityTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path tasks;

    /** One fake thread: its name (as in {@code comm}) and its user and system time in clock ticks. */
    private void thread(int tid, String name, long userTicks, long systemTicks) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.write(dir.resolve("comm"), (name + "\n").getBytes(StandardCharsets.US_ASCII));
        // The real layout: pid (comm) state ppid ... with utime and stime as fields 14 and 15. The name holds a
        // space and a parenthesis, as "C2 CompilerThre" does, to make a naive split fail.
        String stat = tid + " (" + name + ") S 1 1 0 0 -1 4194624 10 0 0 0 " + userTicks + " " + systemTicks
                + " 0 0 20 0 30 0 100 0 0\n";
        Files.write(dir.resolve("stat"), stat.getBytes(StandardCharsets.US_ASCII));
    }

    /** One compiler thread that has used no CPU yet, and a watch over the fake {@code /proc}. */
    private JitActivity watchOneIdleCompilerThread() throws IOException {
        thread(2, "C2 CompilerThre", 0, 0);
        return new JitActivity(tasks.toFile());
    }

    /** A throughput budget with no minimum warm-up time: the cap, the least warm-up operations, the timed ones. */
    private static Budget warmupBudget(long maxWarmupNanos, int minWarmupOps, int timedOps) {
        return new Budget("test", 1, 0, maxWarmupNanos, minWarmupOps, timedOps, Long.MAX_VALUE, 1, MS, 1, MS, 0);
    }

    /** An operation of a few milliseconds (its length is not what is tested). */
    private static void work(long millis) {
        long end = System.nanoTime() + millis * MS;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void sumsOnlyTheCompilerThreadsInMilliseconds() throws IOException {
        thread(1, "java", 5000, 100);
        thread(2, "C2 CompilerThre", 30, 2);
        thread(3, "C1 CompilerThre", 7, 1);
        thread(4, "forage-worker-0", 900, 9);
        JitActivity jit = new JitActivity(tasks.toFile());
        assertTrue(jit.supported());
        assertEquals((30 + 2 + 7 + 1) * 10L, jit.millisNow());
        thread(2, "C2 CompilerThre", 45, 2);
        assertEquals(150, jit.millisSinceStart());
    }

    @Test
    void withoutCompilerThreadsOrProcItIsUnsupportedAndAlwaysQuiet() throws IOException {
        thread(1, "java", 5000, 100);
        JitActivity noCompiler = new JitActivity(tasks.toFile());
        assertFalse(noCompiler.supported());
        assertTrue(noCompiler.quiet(0));
        JitActivity noProc = new JitActivity(new File(tasks.toFile(), "absent"));
        assertFalse(noProc.supported());
        assertTrue(noProc.quiet(0));
    }

    @Test
    void quietOnlyAfterAWholeWindowWithAtMostTwoTicks() throws IOException {
        thread(2, "C2 CompilerThre", 100, 0);
        JitActivity jit = new JitActivity(tasks.toFile());
        long t = 1_000_000_000L;
        jit.sample(t);
        assertFalse(jit.quiet(t), "nothing watched yet");
        thread(2, "C2 CompilerThre", 102, 0); // 20 ms: at the limit
        jit.sample(t + 499 * MS);
        assertFalse(jit.quiet(t + 499 * MS), "less than a window watched");
        jit.sample(t + 510 * MS); // within 20 ms of the last sample: not read, so still less than a window
        assertFalse(jit.quiet(t + 510 * MS));
        jit.sample(t + 520 * MS);
        assertTrue(jit.quiet(t + 520 * MS));
        thread(2, "C2 CompilerThre", 105, 0); // 30 ms more: a compilation
        jit.sample(t + 700 * MS);
        assertFalse(jit.quiet(t + 700 * MS));
        // The compilation leaves the window only once a whole window has passed since it was seen.
        jit.sample(t + 1100 * MS);
        assertFalse(jit.quiet(t + 1100 * MS));
        jit.sample(t + 1250 * MS);
        assertTrue(jit.quiet(t + 1250 * MS));
    }

    @Test
    void aWarmupWaitsForTheCompilerUpToItsCapAndSaysSo() throws Exception {
        JitActivity busy = watchOneIdleCompilerThread();
        Budget budget = warmupBudget(300 * MS, 1, 2);
        Results out = new Results();
        long[] ticks = {0};
        Measure.timeMillis(budget, out, "time", () -> {
            // The compiler works on: 10 ms more CPU at every operation, past the quiet limit in any window.
            ticks[0]++;
            thread(2, "C2 CompilerThre", ticks[0], 0);
            work(5);
        }, busy);
        long warmupMillis = Long.parseLong(out.info().get("warmupMillis"));
        // A lower bound the rule guarantees (the cap), not a speed: the compiler never went quiet.
        assertTrue(warmupMillis >= 300, "the warm-up ran to its cap: " + warmupMillis + " ms");
        Map<String, String> info = out.info();
        assertEquals("false", info.get("warmupSettled"));
        assertEquals(2, out.samples().get("time").size());
        assertTrue(Long.parseLong(info.get("warmupJitMillis")) > 0);
    }

    @Test
    void aWarmupEndsOnceTheCompilerIsQuiet() throws Exception {
        JitActivity quiet = watchOneIdleCompilerThread();
        Budget budget = warmupBudget(60_000 * MS, 1, 2);
        Results out = new Results();
        Measure.timeMillis(budget, out, "time", () -> work(5), quiet);
        long warmupMillis = Long.parseLong(out.info().get("warmupMillis"));
        assertEquals("true", out.info().get("warmupSettled"));
        // A lower bound the rule guarantees, not a speed; "settled" says it ended by quiet, not by its cap.
        assertTrue(warmupMillis >= 500, "a whole quiet window was watched: " + warmupMillis + " ms");
        assertEquals("0", out.info().get("measuredJitMillis"));
    }

    @Test
    void theTimingHookRunsOnceBetweenTheWarmupAndTheFirstTimedOperation() throws Exception {
        JitActivity quiet = watchOneIdleCompilerThread();
        Budget budget = warmupBudget(60_000 * MS, 3, 4);
        Results out = new Results();
        int[] ops = {0};
        int[] opsAtHook = {-1};
        int[] hookRuns = {0};
        out.onTimingStart(() -> {
            hookRuns[0]++;
            opsAtHook[0] = ops[0];
        });
        Measure.timeMillis(budget, out, "time", () -> ops[0]++, quiet);
        int warm = Integer.parseInt(out.info().get("warmupOps"));
        assertEquals(1, hookRuns[0]);
        assertEquals(warm, opsAtHook[0], "the hook ran after every warm-up operation and before any timed one");
        assertEquals(warm + 4, ops[0]);
        out.timingStarts();
        assertEquals(1, hookRuns[0], "a second start does not run the hook again");
    }

    @Test
    void theRunDetailsNameCappedForksAndCompilationWhileTimed() {
        String text = Report.warmupText(List.of("1200", "6000"), List.of("300", "2500"), List.of("true", "false"),
                List.of("0", "40"));
        assertEquals("warm-up 1.20/6.00 s (compiler CPU 0.300/2.50 s), compiler still busy at the cap in 1 fork(s),"
                + " compiler CPU while timed 0/40 ms", text);
        assertEquals("warm-up 1.00 s (compiler CPU 0.100 s)",
                Report.warmupText(List.of("1000"), List.of("100"), List.of("true"), List.of("0")));
    }
}
