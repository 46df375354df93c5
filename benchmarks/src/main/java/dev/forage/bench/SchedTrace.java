package dev.forage.bench;

import dev.forage.bench.scenario.PeriodicWakeup;
import dev.forage.bench.scenario.WakeupLatency;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the outside wake-up's time goes, step by step, from the kernel's scheduler events on the jobs' own clock.
 * The comparison runner's {@code wakeup-outside} row gives one number per sample, from {@code execute} to the job's
 * first instruction; this tool splits each sample into three steps:
 * <ol>
 *   <li><b>execute to waking</b>: the submitter's path until the kernel marks the worker runnable
 *       ({@code sched:sched_waking}, fired inside the pool's {@code unpark});</li>
 *   <li><b>waking to on-CPU</b>: the kernel's part, until the worker is switched in ({@code sched:sched_switch}
 *       with the worker as the next task);</li>
 *   <li><b>on-CPU to job</b>: the worker's path from its park's return to the job's first instruction.</li>
 * </ol>
 * For each subject it runs fresh JVMs (alternating subjects, as the runner does) under
 * {@code perf record -a -k mono}: system-wide, because a task switched in on an idle CPU shows in the trace of the
 * idle task, not of the JVM; CLOCK_MONOTONIC, the clock of {@code System.nanoTime()}, so the events and the
 * samples' clocks line up. Each sample records its submitter's clock before {@code execute}, the job's first clock
 * read and the job's thread id (from {@code /proc/thread-self}), and is matched to the first waking of that thread
 * after the submit and that thread's first switch-in after the waking. The loop is the runner's: 10,000 unrecorded
 * wake-ups at a 200 µs gap for the compiler, then samples 0.8 to 1.2 ms apart, the workers asleep at each submit
 * ({@code --loop outside}, the default); or, with {@code --loop periodic}, the runner's periodic submissions: one job
 * per 2 ms deadline, the submitter parking until the next deadline instead of waiting for the job; or, with
 * {@code --loop inside}, the runner's wake-up from inside: a trigger job on a worker submits the sample's job and
 * spins until another worker starts it, the trigger's worker being that sample's submitter.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.SchedTrace --subjects forage-jec,forkjoin --jvms 2
 * </pre>
 * Needs Linux {@code perf} with access to the scheduler's tracepoints (root, or {@code perf_event_paranoid} -1).
 * Options: {@code --subjects} (runner ids; default forage-jec,forkjoin), {@code --jvms} per subject (default 2),
 * {@code --samples} per JVM (default 6000), {@code --threads} (default 2), {@code --jvm} (a java binary; default
 * this one's), {@code --jvm-args} (more flags for the measuring JVMs, space-separated, after the runner's), {@code
 * --out} (where the perf data and the sample files go; default target/sched-trace), {@code --loop} (outside,
 * inside or periodic). It prints, per subject and over all its JVMs, the median of each step in bands of samples
 * ordered by latency, with how often the worker was switched in on the submitter's CPU in the submitter's place,
 * how often the submitter was still runnable then (the worker preempted it; otherwise it waited until the submitter
 * slept), and how often the worker was switched in on another CPU than the one it slept on.
 */
public final class SchedTrace {
    /** The bands the report shows, as fractions of the samples ordered by latency. */
    static final double[][] BANDS = {{0, .5}, {.5, .9}, {.9, .97}, {.97, .99}, {.99, 1}};
    static final String[] EVENTS = {"sched:sched_waking", "sched:sched_switch"};
    private static final List<String> OPTIONS = List.of("subjects", "jvms", "samples", "threads", "jvm", "jvm-args",
            "out", "loop");

    private SchedTrace() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(args);
            return;
        }
        Map<String, String> opts = ToolOptions.parse(args, OPTIONS);
        List<String> subjects = Arrays.asList(opts.getOrDefault("subjects", "forage-jec,forkjoin").split(","));
        for (String s : subjects) {
            Subjects.byId(s); // an unknown id fails here, with the list of known ones
        }
        int jvms = ToolOptions.positive(opts, "jvms", 2);
        int samples = ToolOptions.positive(opts, "samples", 6000);
        int threads = ToolOptions.positive(opts, "threads", 2);
        String java = opts.getOrDefault("jvm", ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("--jvm: this JVM's own binary is unknown; name one")));
        List<String> jvmArgs = opts.containsKey("jvm-args")
                ? Arrays.asList(opts.get("jvm-args").trim().split("\\s+")) : List.of();
        String loop = opts.getOrDefault("loop", "outside");
        if (!loop.equals("outside") && !loop.equals("periodic") && !loop.equals("inside")) {
            throw new IllegalArgumentException("--loop " + loop + ": the loops are outside (the runner's wake-up from "
                    + "outside, the default), inside (its wake-up from inside) and periodic (its periodic "
                    + "submissions)");
        }
        Path out = Paths.get(opts.getOrDefault("out", "target/sched-trace"));
        Files.createDirectories(out);
        checkPerf();
        Map<String, List<Row>> bySubject = new LinkedHashMap<>();
        Map<String, int[]> totals = new LinkedHashMap<>(); // per subject: samples, samples whose thread was awake
        for (int round = 1; round <= jvms; round++) {
            for (String subject : subjects) {
                Path data = out.resolve(subject + "-" + round + ".data");
                Path dump = out.resolve(subject + "-" + round + ".samples");
                record(java, jvmArgs, subject, threads, samples, loop, data, dump);
                List<Event> events = perfScript(data);
                List<Sample> recorded = readSamples(dump);
                Match m = correlate(events, recorded);
                System.out.printf(Locale.ROOT, "%s, JVM %d: %d samples, %d matched, %d with no waking of the job's "
                        + "thread (it was awake)%n", subject, round, recorded.size(), m.rows.size(), m.notWoken);
                bySubject.computeIfAbsent(subject, k -> new ArrayList<>()).addAll(m.rows);
                int[] t = totals.computeIfAbsent(subject, k -> new int[2]);
                t[0] += recorded.size();
                t[1] += m.notWoken;
            }
        }
        System.out.println();
        for (Map.Entry<String, List<Row>> e : bySubject.entrySet()) {
            int[] t = totals.get(e.getKey());
            System.out.printf(Locale.ROOT, "%s: %d JVMs, %d samples, %d matched, %d with the job's thread awake%n",
                    e.getKey(), jvms, t[0], e.getValue().size(), t[1]);
            report(e.getValue(), System.out);
            System.out.println();
        }
    }

    // The measuring JVM.

    /**
     * {@code --child subject threads samples dumpFile loop}: the loop of the runner's wake-up from outside, from
     * inside, or its periodic submissions; writes the recorded samples to {@code dumpFile}.
     */
    private static void child(String[] args) throws Exception {
        Subject subject = Subjects.byId(args[1]);
        int threads = Integer.parseInt(args[2]);
        int samples = Integer.parseInt(args[3]);
        Path dump = Paths.get(args[4]);
        String loop = args[5];
        int warm = Budget.FULL.wakeupCompileSamples;
        try (Running running = subject.open(threads)) {
            Recording recorded = loop.equals("periodic")
                    ? periodic(running.executor(), warm, samples)
                    : submitAndWait(running.executor(), loop.equals("inside"), warm, samples);
            recorded.write(dump);
        }
    }

    /** The calling thread's kernel id, looked up once per thread. */
    private static final ThreadLocal<Long> THREAD_ID = ThreadLocal.withInitial(SchedTrace::threadId);

    /**
     * The samples of one measuring JVM: per sample the submitter's clock before {@code execute}, the job's first
     * clock read, the job's thread and the submitter's thread. Slot {@code samples} is the spare one that every
     * unrecorded sample writes, so that it runs the same branches as a recorded one: a branch first taken when the
     * recorded samples begin would make C2 throw away the compiled code that inlined the job (the pool's worker loop
     * with it) and run it at a lower tier for thousands of samples.
     */
    static final class Recording {
        final int samples;
        final AtomicLongArray submit;
        final AtomicLongArray start;
        final AtomicLongArray thread;
        final AtomicLongArray submitter;

        Recording(int samples) {
            this.samples = samples;
            this.submit = new AtomicLongArray(samples + 1);
            this.start = new AtomicLongArray(samples + 1);
            this.thread = new AtomicLongArray(samples + 1);
            this.submitter = new AtomicLongArray(samples + 1);
        }

        /** The job of sample {@code i}, first thing: its clock, then its thread. */
        void started(int i, long now) {
            start.set(i, now);
            thread.set(i, THREAD_ID.get());
        }

        /** One line per recorded sample, "submit start thread submitter", once every job has written its thread. */
        void write(Path dump) throws IOException {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dump, StandardCharsets.UTF_8))) {
                for (int i = 0; i < samples; i++) {
                    while (thread.get(i) == 0) {
                        Thread.onSpinWait(); // a job writes its thread after it woke the submitter
                    }
                    w.println(submit.get(i) + " " + start.get(i) + " " + thread.get(i) + " " + submitter.get(i));
                }
            }
        }
    }

    /**
     * The runner's wake-up from outside or from inside ({@code wakeup-outside}, {@code wakeup-inside}): {@code warm}
     * unrecorded samples at its compiling gap, then {@code samples} at its measured gap, each waited for. From
     * outside this thread submits the job; from inside it submits a trigger, which on a worker spins for a random
     * time below the runner's bound, submits the job and spins until another worker started it, and the trigger's
     * worker is the sample's submitter (a sample whose job ran on that worker, none having taken it within the
     * runner's spin limit, is matched as "not woken").
     */
    static Recording submitAndWait(Executor ex, boolean inside, int warm, int samples) {
        Probe probe = new Probe(ex, inside, Thread.currentThread(), new Recording(samples));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < warm + samples; i++) {
            WakeupLatency.idle(random, i < warm ? WakeupLatency.COMPILE_GAP_NANOS : WakeupLatency.GAP_NANOS);
            long work = inside ? random.nextLong(WakeupLatency.INSIDE_MAX_WORK_NANOS) : 0L;
            probe.once(i < warm ? samples : i - warm, work);
        }
        return probe.recording;
    }

    /** The trigger (this, from inside) and the job ({@link #job}) of one waited-for sample at a time. */
    private static final class Probe implements Runnable {
        private final Executor executor;
        private final boolean inside;
        private final Thread waiter;
        private final long waiterThread = THREAD_ID.get();
        private final Runnable job = this::started;
        final Recording recording;
        private volatile int index;
        private volatile long workNanos;
        private volatile boolean done;

        Probe(Executor executor, boolean inside, Thread waiter, Recording recording) {
            this.executor = executor;
            this.inside = inside;
            this.waiter = waiter;
            this.recording = recording;
        }

        /** Sample {@code i}: submits, and parks until the job started. */
        void once(int i, long work) {
            index = i;
            workNanos = work;
            done = false;
            if (inside) {
                executor.execute(this);
                park();
            } else {
                long before = System.nanoTime();
                executor.execute(job);
                park();
                recording.submit.set(i, before);
                recording.submitter.set(i, waiterThread);
            }
        }

        private void park() {
            while (!done) {
                LockSupport.park(this);
            }
        }

        /** The inside trigger, on a worker. */
        @Override
        public void run() {
            int i = index;
            recording.submitter.set(i, THREAD_ID.get());
            long workStart = System.nanoTime();
            long work = workNanos;
            while (System.nanoTime() - workStart < work) {
                Thread.onSpinWait();
            }
            long before = System.nanoTime();
            recording.submit.set(i, before);
            executor.execute(job);
            while (!done) {
                if (System.nanoTime() - before > WakeupLatency.INSIDE_SPIN_LIMIT_NANOS) {
                    return; // this worker runs the job itself once we return
                }
                Thread.onSpinWait();
            }
        }

        private void started() {
            long now = System.nanoTime();
            int i = index;
            recording.start.set(i, now);
            done = true;
            LockSupport.unpark(waiter);
            recording.thread.set(i, THREAD_ID.get());
        }
    }

    /**
     * The runner's periodic submissions ({@code wakeup-periodic}): {@code warm} unrecorded samples at its compiling
     * gap as the period, then one job per 2 ms deadline, this thread never waiting for a job.
     */
    static Recording periodic(Executor ex, int warm, int samples) {
        Recording recording = new Recording(samples);
        long self = THREAD_ID.get();
        long period = WakeupLatency.COMPILE_GAP_NANOS;
        long next = System.nanoTime() + period;
        for (int k = 0; k < warm + samples; k++) {
            if (k == warm) {
                period = PeriodicWakeup.PERIOD_NANOS;
                next = System.nanoTime() + period;
            }
            long now;
            while ((now = System.nanoTime()) - next < 0) {
                LockSupport.parkNanos(next - now);
            }
            next += period;
            final int i = k < warm ? samples : k - warm;
            final long before = System.nanoTime();
            ex.execute(() -> recording.started(i, System.nanoTime()));
            recording.submit.set(i, before);
            recording.submitter.set(i, self);
        }
        return recording;
    }

    /** The calling thread's kernel id, from {@code /proc/thread-self} (Linux). */
    static long threadId() {
        try {
            Path p = Files.readSymbolicLink(Paths.get("/proc/thread-self"));
            return Long.parseLong(p.getFileName().toString());
        } catch (IOException e) {
            throw new IllegalStateException("/proc/thread-self is unreadable: this tool needs Linux", e);
        }
    }

    // The recording.

    private static void checkPerf() throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("perf", "--version").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("perf is not installed (Debian: apt-get install linux-perf); this tool "
                    + "reads the kernel's scheduler events with it", e);
        }
        p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("`perf --version` failed; this tool needs a working perf");
        }
    }

    private static void record(String java, List<String> jvmArgs, String subject, int threads, int samples,
            String loop, Path data, Path dump) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("perf", "record", "-q", "-a", "-k", "mono",
                "-e", String.join(",", EVENTS), "-o", data.toString(), "--", java));
        cmd.addAll(Compare.CHILD_FLAGS);
        cmd.addAll(Arrays.asList(Subject.sizingFlags(threads)));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SchedTrace.class.getName(), "--child",
                subject, String.valueOf(threads), String.valueOf(samples), dump.toString(), loop));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || !Files.exists(dump)) {
            throw new IllegalStateException("the recording of " + subject + " failed (exit " + p.exitValue() + "): "
                    + output + "\ncommand: " + String.join(" ", cmd)
                    + "\nperf needs the scheduler's tracepoints: root, or perf_event_paranoid -1");
        }
    }

    private static List<Event> perfScript(Path data) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("perf", "script", "-i", data.toString(), "--ns",
                "-F", "comm,tid,cpu,time,event,trace").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Event> events = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Event e = Event.parse(line);
                if (e != null) {
                    events.add(e);
                }
            }
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("perf script -i " + data + " failed (exit " + p.exitValue() + ")");
        }
        return events;
    }

    // The analysis: package-private and pure, for the tests.

    /** One scheduler event: a waking of {@code target}, or a switch from {@code prev} to {@code target}. */
    static final class Event {
        private static final Pattern LINE = Pattern.compile(
                "^\\s*(.*?)\\s+(\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d{9}):\\s+sched:(sched_waking|sched_switch):\\s+(.*)$");
        private static final Pattern WAKEE = Pattern.compile(" pid=(\\d+) prio=");
        private static final Pattern SWITCH = Pattern.compile(
                "prev_pid=(\\d+) .*prev_state=(\\S+) .* next_pid=(\\d+) ");

        final long time;
        final int cpu;
        final boolean waking;
        /** The woken task, or the task switched in. */
        final long target;
        /** The task switched out; -1 for a waking. */
        final long prev;
        /**
         * The task switched out was still runnable ({@code prev_state=R}): it was preempted, where {@code S} or
         * {@code D} means it went to sleep.
         */
        final boolean prevRunnable;

        Event(long time, int cpu, boolean waking, long target, long prev, boolean prevRunnable) {
            this.time = time;
            this.cpu = cpu;
            this.waking = waking;
            this.target = target;
            this.prev = prev;
            this.prevRunnable = prevRunnable;
        }

        /**
         * A line of {@code perf script --ns -F comm,tid,cpu,time,event,trace}, or null for any other line. The
         * task names (comm) may hold spaces, so the fields are found by their names.
         */
        static Event parse(String line) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                return null;
            }
            long time = Long.parseLong(m.group(4)) * 1_000_000_000L + Long.parseLong(m.group(5));
            int cpu = Integer.parseInt(m.group(3));
            String trace = m.group(7) + " ";
            if (m.group(6).equals("sched_waking")) {
                Matcher w = WAKEE.matcher(trace);
                return w.find() ? new Event(time, cpu, true, Long.parseLong(w.group(1)), -1, false) : null;
            }
            Matcher s = SWITCH.matcher(trace);
            return s.find() ? new Event(time, cpu, false, Long.parseLong(s.group(3)), Long.parseLong(s.group(1)),
                    s.group(2).startsWith("R")) : null;
        }
    }

    /** One recorded wake-up: the submitter's clock before {@code execute}, the job's first read, its thread. */
    static final class Sample {
        final long submit;
        final long start;
        final long thread;
        final long submitter;

        Sample(long submit, long start, long thread, long submitter) {
            this.submit = submit;
            this.start = start;
            this.thread = thread;
            this.submitter = submitter;
        }
    }

    /** A matched sample's steps, in ns. */
    static final class Row {
        final long latency;
        final long toWaking;
        final long toOnCpu;
        final long toJob;
        /** The worker was switched in in place of the submitter, on the submitter's CPU. */
        final boolean tookSubmitterCpu;
        /**
         * ... and the submitter was still runnable then: the worker preempted it (inside its {@code execute} or on
         * its way back to sleep), instead of waiting until it slept.
         */
        final boolean preemptedSubmitter;
        /** The worker was switched in on another CPU than the one it last left (false if that is not in the trace). */
        final boolean migrated;

        Row(long latency, long toWaking, long toOnCpu, long toJob, boolean tookSubmitterCpu,
                boolean preemptedSubmitter, boolean migrated) {
            this.latency = latency;
            this.toWaking = toWaking;
            this.toOnCpu = toOnCpu;
            this.toJob = toJob;
            this.tookSubmitterCpu = tookSubmitterCpu;
            this.preemptedSubmitter = preemptedSubmitter;
            this.migrated = migrated;
        }
    }

    static final class Match {
        final List<Row> rows;
        /** Samples inside the trace whose job's thread was not woken between the submit and the job: awake. */
        final int notWoken;

        Match(List<Row> rows, int notWoken) {
            this.rows = rows;
            this.notWoken = notWoken;
        }
    }

    /** The samples {@link Recording#write} wrote. */
    static List<Sample> readSamples(Path dump) throws IOException {
        List<Sample> samples = new ArrayList<>();
        for (String line : Files.readAllLines(dump, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split(" ");
            samples.add(new Sample(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    Long.parseLong(f[3])));
        }
        return samples;
    }

    /**
     * Matches each sample to the first waking of its job's thread at or after the submit and before the job, and
     * to that thread's first switch-in after the waking. Samples outside the trace's span are left out; samples
     * with no such waking are counted ({@link Match#notWoken}); {@code events} are in time order.
     */
    static Match correlate(List<Event> events, List<Sample> samples) {
        long[] times = new long[events.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = events.get(i).time;
        }
        List<Row> rows = new ArrayList<>();
        int notWoken = 0;
        for (Sample s : samples) {
            if (times.length == 0 || s.submit < times[0] || s.start > times[times.length - 1]) {
                continue;
            }
            int i = lowerBound(times, s.submit);
            int lastCpu = -1; // where the job's thread last left a CPU before the submit
            for (int k = i - 1; k >= 0; k--) {
                Event e = events.get(k);
                if (!e.waking && e.prev == s.thread) {
                    lastCpu = e.cpu;
                    break;
                }
            }
            Event waking = null;
            Event onCpu = null;
            for (; i < times.length && times[i] <= s.start; i++) {
                Event e = events.get(i);
                if (waking == null) {
                    if (e.waking && e.target == s.thread) {
                        waking = e;
                    }
                } else if (!e.waking && e.target == s.thread) {
                    onCpu = e;
                    break;
                }
            }
            if (waking == null) {
                notWoken++;
            } else if (onCpu != null) {
                rows.add(new Row(s.start - s.submit, waking.time - s.submit, onCpu.time - waking.time,
                        s.start - onCpu.time, onCpu.prev == s.submitter,
                        onCpu.prev == s.submitter && onCpu.prevRunnable, lastCpu >= 0 && lastCpu != onCpu.cpu));
            }
        }
        return new Match(rows, notWoken);
    }

    private static int lowerBound(long[] a, long key) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The bands of {@code rows} ordered by latency, each with its median per step, as a Markdown table. */
    static void report(List<Row> rows, PrintStream out) {
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingLong(r -> r.latency));
        out.println("| samples by latency | n | latency | execute to waking | waking to on-CPU | on-CPU to job "
                + "| took the submitter's CPU | preempted the submitter | switched in on another CPU |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        int n = sorted.size();
        for (double[] band : BANDS) {
            List<Row> b = sorted.subList((int) (n * band[0]), (int) (n * band[1]));
            if (b.isEmpty()) {
                continue;
            }
            long took = b.stream().filter(r -> r.tookSubmitterCpu).count();
            long preempted = b.stream().filter(r -> r.preemptedSubmitter).count();
            long migrated = b.stream().filter(r -> r.migrated).count();
            out.printf(Locale.ROOT, "| %d-%d %% | %d | %.1f | %.1f | %.1f | %.1f | %.0f %% | %.0f %% | %.0f %% |%n",
                    Math.round(band[0] * 100), Math.round(band[1] * 100), b.size(),
                    median(b, r -> r.latency), median(b, r -> r.toWaking), median(b, r -> r.toOnCpu),
                    median(b, r -> r.toJob), 100.0 * took / b.size(), 100.0 * preempted / b.size(),
                    100.0 * migrated / b.size());
        }
        out.println("Medians in µs within each band; the steps' medians need not add up to the latency's.");
    }

    /** The median of {@code f} over {@code rows}, in µs (the upper median of an even count). */
    static double median(List<Row> rows, java.util.function.ToLongFunction<Row> f) {
        long[] v = rows.stream().mapToLong(f).sorted().toArray();
        return v[v.length / 2] / 1e3;
    }
}
