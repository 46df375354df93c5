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
     * {@code --child subject threads samples dumpFile [loop]}: the loop of the runner's wake-up from outside, or with
     * {@code periodic} that of its periodic submissions, or with {@code inside} that of its wake-up from inside.
     */
    private static void child(String[] args) throws Exception {
        Subject subject = Subjects.byId(args[1]);
        int threads = Integer.parseInt(args[2]);
        int samples = Integer.parseInt(args[3]);
        Path dump = Paths.get(args[4]);
        boolean periodic = args.length > 5 && args[5].equals("periodic");
        long submitter = threadId();
        try (Running running = subject.open(threads)) {
            if (periodic) {
                periodic(running.executor(), Budget.FULL.wakeupCompileSamples, samples, dump, submitter);
                return;
            }
            if (args.length > 5 && args[5].equals("inside")) {
                inside(running.executor(), Budget.FULL.wakeupCompileSamples, samples, dump);
                return;
            }
            Probe probe = new Probe(running.executor(), Thread.currentThread(), samples);
            SplittableRandom random = new SplittableRandom(42);
            // The runner's loop: its full budget's unrecorded wake-ups for the compiler, then its gap.
            for (int i = 0; i < Budget.FULL.wakeupCompileSamples; i++) {
                WakeupLatency.idle(random, WakeupLatency.COMPILE_GAP_NANOS);
                probe.once(samples); // the spare slot: the same code as a recorded sample
            }
            for (int i = 0; i < samples; i++) {
                WakeupLatency.idle(random, WakeupLatency.GAP_NANOS);
                probe.once(i);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dump, StandardCharsets.UTF_8))) {
                w.println("# submitter " + submitter);
                for (int i = 0; i < samples; i++) {
                    while (probe.tid.get(i) == 0) {
                        Thread.onSpinWait(); // each job writes its thread after it woke us
                    }
                    w.println(probe.t0[i] + " " + probe.start.get(i) + " " + probe.tid.get(i));
                }
            }
        }
    }

    /**
     * The runner's periodic submissions ({@code wakeup-periodic}): {@code warm} unrecorded samples at a 200 µs period
     * for the compiler, then one job per 2 ms deadline, the submitter never waiting for a job. Each job writes its
     * clock and its thread; an unrecorded one writes to the spare last slot, so that it runs the recorded jobs' code.
     * Writes the samples to {@code dump} in the outside loop's format.
     */
    static void periodic(Executor ex, int warm, int samples, Path dump, long submitter) throws IOException {
        long[] t0 = new long[samples + 1];
        AtomicLongArray start = new AtomicLongArray(samples + 1);
        AtomicLongArray tid = new AtomicLongArray(samples + 1);
        ThreadLocal<Long> threadIds = ThreadLocal.withInitial(SchedTrace::threadId);
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
            final long submitted = System.nanoTime();
            ex.execute(() -> {
                start.set(i, System.nanoTime());
                tid.set(i, threadIds.get());
            });
            t0[i] = submitted;
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dump, StandardCharsets.UTF_8))) {
            w.println("# submitter " + submitter);
            for (int i = 0; i < samples; i++) {
                while (tid.get(i) == 0) {
                    Thread.onSpinWait();
                }
                w.println(t0[i] + " " + start.get(i) + " " + tid.get(i));
            }
        }
    }

    /**
     * The runner's wake-up from inside ({@code wakeup-inside}): this thread submits a trigger, which a worker runs;
     * the trigger works (spins) for a random time below the runner's bound, reads the clock, submits the sampled
     * job and spins until another worker has started it. {@code warm} unrecorded samples at the compiling gap, then
     * {@code samples} at the measured one. Each sample's submitter is the trigger's worker, written as a fourth
     * column; a sample whose job ran on the trigger's own worker (none took it within the runner's spin limit) is
     * matched as "not woken".
     */
    static void inside(Executor ex, int warm, int samples, Path dump) throws IOException {
        InsideProbe probe = new InsideProbe(ex, Thread.currentThread(), samples);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < warm; i++) {
            WakeupLatency.idle(random, WakeupLatency.COMPILE_GAP_NANOS);
            probe.once(samples, random.nextLong(WakeupLatency.INSIDE_MAX_WORK_NANOS));
        }
        for (int i = 0; i < samples; i++) {
            WakeupLatency.idle(random, WakeupLatency.GAP_NANOS);
            probe.once(i, random.nextLong(WakeupLatency.INSIDE_MAX_WORK_NANOS));
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dump, StandardCharsets.UTF_8))) {
            w.println("# submitter per sample");
            for (int i = 0; i < samples; i++) {
                w.println(probe.t0.get(i) + " " + probe.start.get(i) + " " + probe.tid.get(i) + " "
                        + probe.triggerTid.get(i));
            }
        }
    }

    /** The trigger (this) and the sampled job ({@link #target}) of the inside loop; one sample at a time. */
    private static final class InsideProbe implements Runnable {
        private static final ThreadLocal<Long> TID = ThreadLocal.withInitial(SchedTrace::threadId);
        private final Executor executor;
        private final Thread waiter;
        private final Runnable target = this::started;
        final AtomicLongArray t0;
        final AtomicLongArray start;
        final AtomicLongArray tid;
        final AtomicLongArray triggerTid;
        private volatile int index;
        private volatile long workNanos;
        private volatile boolean done;

        InsideProbe(Executor executor, Thread waiter, int samples) {
            this.executor = executor;
            this.waiter = waiter;
            this.t0 = new AtomicLongArray(samples + 1);
            this.start = new AtomicLongArray(samples + 1);
            this.tid = new AtomicLongArray(samples + 1);
            this.triggerTid = new AtomicLongArray(samples + 1);
        }

        /** Sample {@code i} (the spare last slot when unrecorded): submits the trigger and parks until it is done. */
        void once(int i, long work) {
            index = i;
            workNanos = work;
            done = false;
            executor.execute(this);
            while (!done) {
                LockSupport.park(this);
            }
        }

        /** The trigger, on a worker. */
        @Override
        public void run() {
            int i = index;
            triggerTid.set(i, TID.get());
            long workStart = System.nanoTime();
            long work = workNanos;
            while (System.nanoTime() - workStart < work) {
                Thread.onSpinWait();
            }
            long s = System.nanoTime();
            t0.set(i, s);
            executor.execute(target);
            while (!done) {
                if (System.nanoTime() - s > WakeupLatency.INSIDE_SPIN_LIMIT_NANOS) {
                    return; // this worker runs the target itself once we return
                }
                Thread.onSpinWait();
            }
        }

        private void started() {
            long s = System.nanoTime();
            int i = index;
            start.set(i, s);
            tid.set(i, TID.get());
            done = true;
            LockSupport.unpark(waiter);
        }
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

    /**
     * The job of every sample; the job's thread id is looked up once per thread and written after the wake-up. An
     * unrecorded sample writes to a spare last slot, so that it runs the same branches as a recorded one: a branch
     * first taken when the recorded samples begin would make C2 throw away the compiled code that inlined this job
     * (the pool's worker loop with it) and run it at a lower tier for thousands of samples.
     */
    private static final class Probe implements Runnable {
        private static final ThreadLocal<Long> TID = ThreadLocal.withInitial(SchedTrace::threadId);
        private final Executor executor;
        private final Thread waiter;
        final long[] t0;
        final AtomicLongArray start;
        final AtomicLongArray tid;
        private volatile long started;
        private volatile int index;

        Probe(Executor executor, Thread waiter, int samples) {
            this.executor = executor;
            this.waiter = waiter;
            this.t0 = new long[samples + 1];
            this.start = new AtomicLongArray(samples + 1);
            this.tid = new AtomicLongArray(samples + 1);
        }

        @Override
        public void run() {
            long s = System.nanoTime();
            int i = index;
            started = s;
            LockSupport.unpark(waiter);
            start.set(i, s);
            tid.set(i, TID.get());
        }

        /** Submits, and parks until the job started; sample {@code i}, or the spare last slot when unrecorded. */
        void once(int i) {
            index = i;
            started = 0;
            long before = System.nanoTime();
            executor.execute(this);
            while (started == 0) {
                LockSupport.park(this);
            }
            t0[i] = before;
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

    static List<Sample> readSamples(Path dump) throws IOException {
        List<Sample> samples = new ArrayList<>();
        long submitter = -1;
        for (String line : Files.readAllLines(dump, StandardCharsets.UTF_8)) {
            if (line.startsWith("# submitter per sample")) {
                continue; // each line names its own, in a fourth column
            }
            if (line.startsWith("# submitter ")) {
                submitter = Long.parseLong(line.substring("# submitter ".length()).trim());
                continue;
            }
            String[] f = line.trim().split(" ");
            samples.add(new Sample(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    f.length > 3 ? Long.parseLong(f[3]) : submitter));
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
