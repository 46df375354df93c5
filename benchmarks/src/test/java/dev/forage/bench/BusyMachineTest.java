package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner beside a process that spins on a core the whole time ({@code yes > /dev/null}): every run is above
 * the threshold, so each is measured again, stays disturbed, its cell is marked, no goal is judged, and the report
 * opens by saying the machine was too busy. A runner that ignored interference would print plain cells and a
 * verdict.
 */
class BusyMachineTest {
    @Test
    void runsBesideASpinningProcessAreMarkedDisturbedAndNotJudged(@TempDir File out) throws Exception {
        assumeTrue(Interference.procfs() != null, "interference is measured from Linux's /proc only");
        Process spinner;
        try {
            spinner = new ProcessBuilder("yes").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            assumeTrue(false, "no `yes` to load the machine with: " + e);
            return;
        }
        try {
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            int[] status = new int[1];
            Guard.within(300, "Compare beside a spinning process", () -> {
                awaitCpu(spinner, 5);
                status[0] = Compare.run(new String[] {"--tiny", "--scenarios", "fib-join", "--subjects",
                        "forage-jec,forkjoin", "--forks", "1", "--reruns", "1", "--out", out.getPath()},
                        new PrintStream(stdout, true, StandardCharsets.UTF_8),
                        new PrintStream(stderr, true, StandardCharsets.UTF_8));
            });
            assertTrue(spinner.isAlive(), "the load must last the whole run");
            String err = stderr.toString(StandardCharsets.UTF_8);
            assertEquals(0, status[0], "runner failed:\n" + err + stdout.toString(StandardCharsets.UTF_8));
            assertTrue(err.contains("measuring again, attempt 2 of 2"), "each disturbed run is rerun once:\n" + err);
            assertTrue(err.contains("its cell is marked ~"), err);

            String md = Files.readString(new File(out, "results.md").toPath());
            assertTrue(md.startsWith("**The machine was too busy for these results to mean anything.**"), md);
            assertTrue(md.contains("during the runs of 2 of 2 cells"), md);
            String row = md.lines().filter(l -> l.startsWith("| fork-join fib(30)")).findFirst().orElse("");
            assertTrue(row.contains("| ~**") && row.contains("| ~"), "both cells marked: " + row);
            assertTrue(md.contains("| unreliable: "), md);
            assertFalse(md.contains("**PASS**") || md.contains("**MISS**"), md);
            assertTrue(md.contains("**Interference**") && md.contains("~ (2 attempts)"), md);
            assertTrue(stdout.toString(StandardCharsets.UTF_8).contains("**The machine was too busy"),
                    "the console says it too");
        } finally {
            spinner.destroy();
            if (!spinner.waitFor(10, TimeUnit.SECONDS)) {
                spinner.destroyForcibly().waitFor();
            }
        }
    }

    /** Waits until the process has burnt {@code ticks} clock ticks of CPU: it is spinning, not still starting. */
    private static void awaitCpu(Process p, long ticks) throws IOException {
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        while (Interference.parseOwnTicks(Files.readString(stat)) < ticks) {
            assertTrue(p.isAlive(), "the spinning process ended");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a poll of the condition, not a guess at a delay
        }
    }
}
