package dev.forage.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Watches how busy the JIT compiler is, so that a warm-up can last until compilation has settled instead of for a
 * fixed time, and so a run can say whether the compiler was still working while it was timed.
 *
 * <p>Why: a fixed second was too short for some subjects. Forage's {@code join} is inlined into the user's
 * recursive function, and each rare branch that C2 pruned and later meets (a failed CAS, a sleeper to wake)
 * throws the whole inlined tree back to the interpreter and recompiles it. In fork-join fib that went on for 2 to
 * 4 s, and on two cores a compiler thread at work takes one of the two CPUs from the pool: whether a fork was
 * timed before or after its last big compilation decided a 2.0 or a 4.9 ms median ({@code docs/benchmarks.md},
 * "Method").
 *
 * <p>What it reads: the CPU time of the JVM's compiler threads ({@code C1 CompilerThread*},
 * {@code C2 CompilerThread*}) from Linux's per-thread accounting, {@code /proc/self/task/<tid>/stat}, in clock
 * ticks of 10 ms. The JVM's own counter ({@code CompilationMXBean.getTotalCompilationTime}) is no use here: it
 * grows only when a compilation ends, so a 300 ms compilation in progress looks quiet. Without {@code /proc}
 * (another OS) the watch reports itself unsupported and a warm-up falls back to its minimum length.
 */
final class JitActivity {
    /** The window that must be quiet. */
    static final long WINDOW_NANOS = 500_000_000L;
    /** At most this much compiler CPU in the window counts as quiet: two clock ticks. */
    static final long QUIET_MILLIS = 20;
    /** Reading {@code /proc} costs tens of microseconds; short operations are sampled at most this often. */
    private static final long SAMPLE_EVERY_NANOS = 20_000_000L;
    private static final long MILLIS_PER_TICK = 10; // USER_HZ is 100 on every Linux the JVM runs on

    private final File tasks;
    private final boolean supported;
    /** Pairs of (nanoTime, compiler CPU millis), oldest first, covering at least the last window. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private final long startMillis;

    /** Watches this JVM's compiler threads. */
    JitActivity() {
        this(new File("/proc/self/task"));
    }

    /** Watches the threads listed in {@code tasks}, laid out like {@code /proc/self/task} (tests). */
    JitActivity(File tasks) {
        this.tasks = tasks;
        long now = compilerMillis();
        this.supported = now >= 0;
        this.startMillis = supported ? now : 0L;
    }

    /** Whether this JVM's compiler threads can be watched; without it, {@link #quiet} is always true. */
    boolean supported() {
        return supported;
    }

    /** Records the compiler's CPU time now (at most every {@link #SAMPLE_EVERY_NANOS}). */
    void sample(long now) {
        if (!supported || (!samples.isEmpty() && now - samples.peekLast()[0] < SAMPLE_EVERY_NANOS)) {
            return;
        }
        samples.addLast(new long[] {now, compilerMillis()});
        // Keep one sample at least a window old: the baseline that quiet() compares with.
        while (samples.size() > 2) {
            Iterator<long[]> it = samples.iterator();
            it.next();
            if (now - it.next()[0] < WINDOW_NANOS) {
                break;
            }
            samples.removeFirst();
        }
    }

    /** Whether a whole window was watched and the compiler threads used at most {@link #QUIET_MILLIS} of CPU. */
    boolean quiet(long now) {
        if (!supported) {
            return true;
        }
        if (samples.isEmpty()) {
            return false;
        }
        long[] oldest = samples.peekFirst();
        long[] newest = samples.peekLast();
        return newest[0] - oldest[0] >= WINDOW_NANOS && newest[1] - oldest[1] <= QUIET_MILLIS;
    }

    /** Compiler CPU since this watch was made, in milliseconds (0 when not supported). */
    long millisSinceStart() {
        return supported ? compilerMillis() - startMillis : 0L;
    }

    /** Compiler CPU now, in milliseconds, for a caller that measures a phase itself; -1 when not supported. */
    long millisNow() {
        return supported ? compilerMillis() : -1L;
    }

    /** Sum of the compiler threads' user and system time in milliseconds, or -1 without {@code /proc}. */
    private long compilerMillis() {
        File[] all = tasks.listFiles();
        if (all == null) {
            return -1L;
        }
        long ticks = 0;
        boolean found = false;
        for (File task : all) {
            try {
                String comm = new String(Files.readAllBytes(new File(task, "comm").toPath()),
                        StandardCharsets.US_ASCII);
                if (!comm.contains("CompilerThre")) {
                    continue;
                }
                String stat = new String(Files.readAllBytes(new File(task, "stat").toPath()),
                        StandardCharsets.US_ASCII);
                // Fields after the parenthesised name: state is field 3, utime 14 and stime 15.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                found = true;
            } catch (IOException | RuntimeException e) {
                // The thread ended between the listing and the read (compiler threads come and go): skip it.
            }
        }
        return found ? ticks * MILLIS_PER_TICK : -1L;
    }
}
