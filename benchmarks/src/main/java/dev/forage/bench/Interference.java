package dev.forage.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Interference: the CPU that other processes used while one measuring JVM ran. The runs of the comparison
 * share the machine with whatever else runs on it, and on two cores a build next door takes a worker's core for
 * whole time slices: the numbers then measure the machine's load, not the schedulers.
 *
 * <p>Measured from Linux's accounting: the busy clock ticks of every CPU ({@code /proc/stat}, first line) over
 * the run, minus what the runner's own process used, its threads and its reaped children together
 * ({@code /proc/self/stat}: utime, stime, cutime, cstime). The measuring JVM is a child the runner waits for, so
 * once it is reaped its whole CPU time is in cutime and cstime; reading {@code /proc/<pid>/stat} instead would need
 * the process alive at the end of the window, and the JDK reaps it as it exits. What is left is others' CPU.
 * Both files count in the same clock ticks (USER_HZ, {@code getconf CLK_TCK}), and a reading is a share of the
 * ticks of all CPUs over the same window, so the tick length cancels: nothing here depends on it being 100.
 */
public final class Interference {
    /**
     * The default threshold: others' CPU averaged over a run, in cores. A tenth of one core is a tenth of a worker
     * of a 2-worker pool taken away for the whole run, as large as the differences the goals judge (a ratio
     * within ±15 % of 1 already flips between runs of a quiet machine); the background of an otherwise idle
     * machine (daemons, the kernel's threads) stays far below it.
     */
    public static final double DEFAULT_MAX_CORES = 0.10;
    /** Reruns of a disturbed run, by default: a short burst next door passes, a build that goes on does not. */
    public static final int DEFAULT_RERUNS = 2;
    /**
     * More than this share of the cells stayed disturbed: the run as a whole is not judged. A few disturbed cells
     * leave the rest readable; past a quarter, the clean cells' neighbours were also under load just below the
     * threshold, and the verdicts would report the machine's load as Forage's losses.
     */
    public static final double TOO_BUSY_SHARE = 0.25;

    static final Path PROC_STAT = Path.of("/proc/stat");
    static final Path PROC_SELF_STAT = Path.of("/proc/self/stat");

    private Interference() {
    }

    /** The machine's CPU counters: the first line of {@code /proc/stat}, in ticks summed over every CPU. */
    record Machine(long busy, long total, int cpus) {
    }

    /**
     * Reads {@code /proc/stat}'s text. The {@code cpu} line's fields are user, nice, system, idle, iowait, irq,
     * softirq, steal, guest, guest_nice (older kernels stop earlier). Idle and iowait are not busy; steal is (the
     * host gave the CPU to another guest: on a virtual machine that is interference too); guest and guest_nice are
     * already counted in user and nice, so they are left out of both sums.
     */
    static Machine parseStat(String text) {
        long[] f = null;
        int cpus = 0;
        for (String line : text.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts[0].equals("cpu")) {
                f = new long[10];
                for (int i = 1; i < parts.length && i <= 10; i++) {
                    f[i - 1] = Long.parseLong(parts[i]);
                }
            } else if (parts[0].startsWith("cpu") && parts[0].length() > 3
                    && Character.isDigit(parts[0].charAt(3))) {
                cpus++;
            }
        }
        if (f == null) {
            throw new IllegalArgumentException("no 'cpu' line in /proc/stat's text");
        }
        long idle = f[3] + f[4];
        long busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
        return new Machine(busy, busy + idle, Math.max(cpus, 1));
    }

    /**
     * utime + stime + cutime + cstime of a {@code /proc/<pid>/stat} text: the process's own CPU and that of its
     * children it has waited for. The command name, in parentheses, may hold spaces and parentheses itself, so
     * the fields are counted from the last ')': state is the first after it, utime the 12th.
     */
    static long parseOwnTicks(String pidStat) {
        int close = pidStat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat text: " + pidStat);
        }
        String[] f = pidStat.substring(close + 1).trim().split("\\s+");
        if (f.length < 15) {
            throw new IllegalArgumentException("too few fields in /proc/<pid>/stat: " + pidStat);
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** The counters at one moment: the machine's and the runner's own (with its reaped children). */
    record Snapshot(Machine machine, long ownTicks) {
    }

    /**
     * What others used during one run. {@code othersTicks}: busy ticks not the runner's nor its children's, never
     * below 0 (the two accountings round differently by a tick or two); {@code totalTicks}: every CPU's ticks over
     * the window, busy or not.
     */
    public record Reading(long othersTicks, long totalTicks, int cpus) {
        /** Others' share of the machine's CPU over the run, 0 to 1. */
        public double share() {
            return totalTicks <= 0 ? 0 : (double) othersTicks / totalTicks;
        }

        /** Others' CPU averaged over the run, in cores (1.0: one core busy the whole time). */
        public double cores() {
            return share() * cpus;
        }

        /** As the report prints it: per cent of one core. */
        public String percentOfCore() {
            return Stats.format(cores() * 100) + " %";
        }
    }

    static Reading between(Snapshot before, Snapshot after) {
        long busy = after.machine().busy() - before.machine().busy();
        long own = after.ownTicks() - before.ownTicks();
        long total = after.machine().total() - before.machine().total();
        return new Reading(Math.max(0, busy - own), Math.max(0, total), after.machine().cpus());
    }

    /** Where snapshots come from. */
    interface Meter {
        /** The counters now, or null when they cannot be read (the run is then unmeasured). */
        Snapshot snapshot();
    }

    /** Linux's {@code /proc}, or null where there is none (the runner then says interference is unmeasured). */
    static Meter procfs() {
        if (!Files.isReadable(PROC_STAT) || !Files.isReadable(PROC_SELF_STAT)) {
            return null;
        }
        Meter m = () -> {
            try {
                return new Snapshot(parseStat(Files.readString(PROC_STAT, StandardCharsets.US_ASCII)),
                        parseOwnTicks(Files.readString(PROC_SELF_STAT, StandardCharsets.UTF_8)));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        };
        return m.snapshot() == null ? null : m;
    }

    /**
     * How a run deals with interference. {@code measured} false: no {@code /proc/stat} here, every run is taken
     * as it comes (as on a quiet machine) and the report says so.
     */
    public record Policy(boolean measured, double maxCores, int reruns) {
        public static Policy unmeasured() {
            return new Policy(false, DEFAULT_MAX_CORES, 0);
        }

        /** Whether a reading is above the threshold. */
        public boolean disturbs(Reading r) {
            return measured && r != null && r.cores() > maxCores;
        }

        /** The threshold as the report prints it. */
        public String limitText() {
            return Stats.format(maxCores * 100) + " % of one core";
        }
    }

    /**
     * One measured run (one fork of a cell), as kept: the reading of its last attempt (null: unmeasured), how many
     * attempts it took, and whether the last one was still above the threshold.
     */
    public record Run(int fork, Reading reading, int attempts, boolean disturbed) {
        /** As the report prints it: {@code 3.2 %}, {@code 41.0 % ~ (3 attempts)}. */
        public String text() {
            String s = reading == null ? "unmeasured" : reading.percentOfCore();
            if (disturbed) {
                s += " ~";
            }
            if (attempts > 1) {
                s += " (" + attempts + " attempts)";
            }
            return s;
        }
    }

    /** A run's interference in all: how many cells stayed disturbed, whether that is too many to judge. */
    public record Summary(int cells, int disturbedCells, int runs, int rerunRuns, double maxCores,
            double medianCores) {
        public boolean tooBusy() {
            return cells > 0 && disturbedCells > TOO_BUSY_SHARE * cells;
        }
    }

    /** Every cell of every profile: a cell is disturbed when any of its runs stayed disturbed. */
    public static Summary summarize(Collection<RunData> profiles) {
        int cells = 0;
        int disturbedCells = 0;
        int runs = 0;
        int rerun = 0;
        double max = 0;
        List<Double> cores = new ArrayList<>();
        for (RunData d : profiles) {
            for (List<Run> cell : d.interferenceByCell()) {
                cells++;
                boolean disturbed = false;
                for (Run r : cell) {
                    runs++;
                    disturbed |= r.disturbed();
                    if (r.attempts() > 1) {
                        rerun++;
                    }
                    if (r.reading() != null) {
                        cores.add(r.reading().cores());
                        max = Math.max(max, r.reading().cores());
                    }
                }
                if (disturbed) {
                    disturbedCells++;
                }
            }
        }
        double median = cores.isEmpty() ? Double.NaN : Stats.of(cores).median;
        return new Summary(cells, disturbedCells, runs, rerun, max, median);
    }
}
