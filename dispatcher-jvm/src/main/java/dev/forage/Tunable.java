package dev.forage;

/**
 * Every tunable of a pool, in one place: its name, its default, its allowed range, the system property that seeds
 * the default (read once, when this class loads) and, on each constant, the reason for its value. A pool's values
 * are its {@link Tuning}, built by {@link ForagePoolBuilder} ({@code tune(Tunable, long)} for tests and
 * measurements), so two pools of one JVM can differ. Changing one changes speed and CPU use, never correctness:
 * the protocol's proofs hold for any values in the allowed ranges. Adding a tunable touches this enum and the code
 * that reads it.
 */
enum Tunable {
    /**
     * Failed searches before a worker gets sleepy (the idle rounds of Rayon's sleep module); each is a full search
     * plus {@link Thread#yield()}. Speed only: more rounds keep idle workers awake for bursty work and burn more CPU
     * at low load. Rayon uses 32; on the JVM that burnt about 3 to 5 times the useful CPU at one small task per
     * millisecond, while ForkJoinPool parks after about one scan. Default 0: a worker that finds nothing gets sleepy
     * at once, searches once more, and sleeps: extra rounds did not make bursty work faster and cost CPU at low load.
     * Read by the JEC protocols and EMPER's.
     */
    ROUNDS_UNTIL_SLEEPY("roundsUntilSleepy", "forage.roundsUntilSleepy", 0, 0, 1 << 20),

    /**
     * How many sleepers a worker wakes when it leaves the idle state having found work. Rayon wakes up to 2 so
     * an active pool ramps up, but at low load every job then wakes two workers that find nothing (measured:
     * it doubled the CPU per useful CPU). Forage ramps up through the posting rules instead (a post to a
     * queue that already held jobs wakes one more sleeper), so the default is 0. The part of the ramp-up that
     * liveness needs is kept in every case: a worker leaving the idle state wakes one sleeper when an injected
     * job is still queued ({@code JecSleep.workFound}, the hand-off rule).
     */
    WAKE_ON_WORK_FOUND("wakeOnWorkFound", "forage.wakeOnWorkFound", 0, 0, 64),

    /**
     * The nap, in nanoseconds: how long an idle worker that saw work posted while it was sleepy (its last sleep
     * attempt, S2, found the JEC moved, yet its searches found nothing) parks before its next sleep attempt, still
     * counted as idle, not as a sleeper. The signature is a busy worker that pushes jobs it pops itself (a chain, a
     * ping-pong of coroutines): a sleeper would be woken by its next push, at the cost of a wake-up on the busy
     * worker's path and, often, of the chain moving to the woken worker; a napper costs that worker nothing and
     * tries to sleep again after the nap if no work was posted during it. A job posted during a nap waits at most
     * one nap for the napper (a latch set during a nap wakes it at once); the nap is a timed park, so on Linux it
     * lasts this long plus the thread's timer slack (50 µs by default): about 100 µs for the default. 0 turns the
     * nap off (the worker yields instead). Speed only, see {@code docs/sleep.md} section 3.7: a longer nap spares
     * the busy worker more wake-ups and makes a job posted during it wait longer.
     */
    NAP_NANOS("napNanos", "forage.napNanos", 20_000, 0, 1_000_000),

    /**
     * The lone-job pause, in nanoseconds: how long an idle worker that left a neighbour's only job to its owner
     * (the lone-job rule), beside a neighbour it saw producing, parks before it searches again, counted idle, not
     * as a sleeper. A neighbour that keeps pushing jobs it does not pop (a coroutine launching children in a loop)
     * has one job in its deque most of the time; a thief that came back at once took each job the moment it was
     * pushed, and both threads then worked on the same cache lines of the user's data (the parent's list of
     * children, which the producer appends to and each finishing child leaves). After a pause it finds several
     * jobs and takes the oldest, a few dozen behind the producer: kotlinx's {@code Dispatchers.Default} gets the
     * same distance from its 100 µs stealing resolution. A latch set during the pause ends it at once; a post
     * does not. A lone job whose owner is busy waits at most one pause (plus the timer slack, as for
     * {@link #NAP_NANOS}). Beside a chain (an owner that pops its own jobs) the worker yields once instead, and
     * 0 makes it yield always. Speed only ({@code docs/sleep.md} section 4.6; {@link Worker#holdOff}).
     */
    LONE_JOB_PAUSE_NANOS("loneJobPauseNanos", "forage.loneJobPauseNanos", 20_000, 0, 1_000_000),

    /**
     * Yield rounds (a full search, then {@link Thread#yield()}, counted idle) at the start of an idle spell that
     * follows two or more jobs taken from the injector, before the sleep protocol's first {@code noWorkFound}.
     * A worker draining a stream of outside submissions finds the injector empty between two pushes; if it slept
     * there, the submitter's next push would pay a wake-up (an unpark, and on a busy machine a context switch)
     * per few jobs. A lone outside job (low load, a wake-up) is one job per spell and gets no rounds. Speed only
     * ({@code docs/sleep.md} section 3.8; {@link Worker#holdOff}); 0 turns it off.
     */
    INJECTED_STREAM_ROUNDS("injectedStreamRounds", "forage.injectedStreamRounds", 4, 0, 1 << 20),

    /**
     * {@code SleepProtocol.RAYON_PRE_RFC5} only: failed searches before a worker tries to become the sleepy one.
     * Rayon's pre-RFC-5 sleep module used 32; the baseline keeps that module's values so that it measures that
     * protocol, not ours.
     */
    PRE_RFC5_ROUNDS_UNTIL_SLEEPY("preRfc5RoundsUntilSleepy", "forage.preRfc5.roundsUntilSleepy", 32, 0, 1 << 20),

    /**
     * {@code SleepProtocol.RAYON_PRE_RFC5} only: failed searches until a sleepy worker falls asleep. Rayon's
     * pre-RFC-5 sleep module used 64. Speed only. More than {@link #PRE_RFC5_ROUNDS_UNTIL_SLEEPY} (checked when
     * the pool is built; when only that one is set by its property, this defaults to one more), so a sleepy worker
     * always searches once more before it sleeps (that module's correctness argument needs that search).
     */
    PRE_RFC5_ROUNDS_UNTIL_ASLEEP("preRfc5RoundsUntilAsleep", "forage.preRfc5.roundsUntilAsleep", 64, 1,
            (1 << 20) + 1),

    /**
     * marl's scheduler, in nanoseconds: how long an idle worker of {@code SleepProtocol.MARL_SPIN} spins for work
     * before the sleep protocol's rounds start. marl spins 1 ms; the default is shorter because every idle spell
     * spends its spin time on CPU, which at low load is most of what the pool burns. Speed and CPU only. (A test
     * puts a spin phase in front of any protocol with {@code ForagePoolBuilder.spinForWorkNanos}.)
     */
    SPIN_FOR_WORK_NANOS("spinForWorkNanos", "forage.spinForWorkNanos", 50_000, 0, 1_000_000_000),

    /**
     * marl's scheduler: cheap looks for visible work between two yields of the spin phase (marl: 256 checks,
     * each after 32 {@code nop}s). Each look is a few volatile reads per worker.
     */
    SPIN_CHECKS_PER_YIELD("spinChecksPerYield", "forage.spinChecksPerYield", 64, 1, 1 << 20),

    /**
     * Fairness: every this many jobs taken from its own deque in its top-level loop, a worker first looks at the
     * injector and at the oldest job of its own deque, so neither outside submissions nor old local jobs starve
     * behind a LIFO stream (the same idea as Go's and Tokio's global-queue check every 61 ticks). Never inside a
     * job's wait, where an old job would run on top of the waiting frames ({@link Worker#takeLocalJob(int)}).
     */
    FAIRNESS_INTERVAL("fairnessInterval", "forage.fairnessInterval", 61, 1, 1 << 20),

    /**
     * The most jobs a worker moves from the injector to its own deque in one look, when it has none of its own
     * (Tokio and Go take a batch from their global queue the same way): with at least twice this many queued, it
     * takes {@code 1 + queued / workers} of them, up to this many, with one claim on the injector's head.
     * Consumers that drain a backlog of outside submissions then meet on the head once per batch, not once per
     * job. A shorter queue is taken one job at a time. At most 63, the injector's block; 1 takes one job per look.
     * Speed only ({@code docs/sleep.md} section 3.9).
     */
    INJECTOR_BATCH("injectorBatch", "forage.injectorBatch", 32, 1, Injector.DEFAULT_BLOCK_SIZE - 1),

    /**
     * The stack bound: a worker inside this many jobs, one running inside another's wait, no longer helps when a
     * job it runs waits; it runs only that wait's own scope jobs and then blocks as a blocking section, while a
     * stand-in thread keeps the pool's parallelism ({@code Worker.awaitBlocked}). A join tree of depth {@code d}
     * then needs at most about {@code (MAX_HELP_DEPTH + 1) * d} join levels on any worker's stack, whatever the
     * steal pattern. Nested helping is rare (a wait helps only when a thief took its job), so on fork-join trees
     * the bound is seldom met. A join level costs 4 frames (one path of a fib tree: 48 frames at depth 10, 128 at
     * 30), so 9 segments of a tree of depth 60 are about 2,200 frames: twice the worst case of {@code fib(30)},
     * which {@code JoinAnyDepthTest} runs on 256 KiB worker stacks.
     */
    MAX_HELP_DEPTH("maxHelpDepth", "forage.maxHelpDepth", 8, 1, 1 << 10),

    /**
     * A busy worker checks for expired timers once every this many jobs, so timers fire even when no worker
     * is idle.
     */
    TIMER_CHECK_INTERVAL("timerCheckInterval", "forage.timerCheckInterval", 64, 1, 1 << 20),

    /**
     * JFR only, in milliseconds: a job that runs at least this long is reported as a {@code dev.forage.LongJob}
     * event while a recording enables that event ({@code docs/observability.md}, "JFR events"). Costs nothing
     * while no recording wants the event: jobs are timed only then. Public as
     * {@link ForagePoolBuilder#longJobThreshold}.
     */
    JFR_LONG_JOB_MILLIS("longJobMillis", "forage.jfr.longJobMillis", 100, 0, Integer.MAX_VALUE),

    /**
     * IO workers ({@code ForagePoolBuilder.ioWorkers()}): a busy worker looks at its selector without blocking
     * ({@code selectNow}) once every this many jobs, so readiness on its channels is seen while it has work; an
     * idle worker sees it at once, in its select. Only while waits are pending on the worker's channels. Speed
     * only: a smaller value answers sockets sooner under load and costs a system call more often.
     */
    IO_POLL_INTERVAL("ioPollInterval", "forage.io.pollInterval", 32, 1, 1 << 20),

    /**
     * IO workers, in milliseconds: a channel closed by another thread wakes no selector, so while waits are pending
     * a worker looks for closed channels at least this often (its select is bounded by it) and fails their waits.
     * A waiter on a closed channel resumes at most about this late; a server with idle keep-alive connections wakes
     * each IO worker this often.
     */
    IO_CLOSED_CHECK_MILLIS("ioClosedCheckMillis", "forage.io.closedCheckMillis", 250, 1, 60_000),

    /**
     * IO workers, in milliseconds ({@code ForagePoolBuilder.ioTakeover}): a channel belongs to one worker's selector;
     * when that worker has not looked at it for this long (it runs a long job, or the OS descheduled it) while waits
     * are pending, another IO worker, idle or between jobs, takes the selector over for a moment and runs what the
     * readiness resumes ({@code docs/io.md} section 6). A sleeping worker watches its neighbours this often while one
     * is exposed, and every 16 ms while they only have channels. 0, the default, turns takeover off: a channel waits
     * for its own worker, as in Netty's event loops. Off by default because, on the HTTP sample, it cost requests/s at
     * saturation in every round of two runs and CPU at a low rate in most rounds, and stayed within the rounds' spread
     * with long requests mixed in, the case it is for ({@code docs/benchmarks.md}, "Selector takeover").
     */
    IO_TAKEOVER_MILLIS("ioTakeoverMillis", "forage.io.takeoverMillis", 0, 0, 60_000),

    /**
     * The monitor's blocked-job threshold, in milliseconds ({@code docs/monitor.md}): a worker that stays in one
     * job this long while its thread hardly runs (its CPU time grows by less than a quarter of the time passed) is
     * counted blocked, and a stand-in takes its place through compensation. It is also the monitor's sampling
     * period, and the monitor samples only while jobs wait and no worker is idle to take them (the only time a
     * blocked worker costs the pool anything), so a blocked job is seen two to three periods after a job queues
     * behind it. 10 ms, the default: a JDBC call or a remote call of a few milliseconds is left alone, a
     * {@code Thread.sleep}, a lock held for long or a nested {@code future.get()} on a small pool is not. 0 turns
     * detection off (the monitor still fires timers that no worker watches). Public as
     * {@link ForagePoolBuilder#blockingDetection}.
     */
    BLOCKED_JOB_MILLIS("blockedJobMillis", "forage.blockedJobMillis", 10, 0, 60_000),

    /**
     * The monitor, in milliseconds: how long its thread stays after it last saw a busy worker, a blocked one or a
     * timer nobody watches, sampling ever less often (the period doubles up to four times the threshold); then
     * it ends, and the next worker that becomes busy starts a new one. Speed only: a thread start costs about
     * 100 µs, so a pool busy at least once a second keeps one thread instead of starting one per burst.
     */
    MONITOR_LINGER_MILLIS("monitorLingerMillis", "forage.monitorLingerMillis", 1_000, 1, 3_600_000);

    /** The name in messages and in {@link Tuning#toString()}. */
    final String settingName;
    /** The system property that seeds {@link #defaultValue}. */
    final String property;
    final long min;
    final long max;
    /** The built-in default, or the property's value when the property is set (checked against the range). */
    final long defaultValue;

    Tunable(String settingName, String property, long builtIn, long min, long max) {
        this.settingName = settingName;
        this.property = property;
        this.min = min;
        this.max = max;
        this.defaultValue = fromProperty(property, builtIn, min, max);
    }

    /** Whether the system property of this tunable is set (so its default is the user's, not the built-in one). */
    boolean seededByProperty() {
        try {
            return System.getProperty(property) != null;
        } catch (SecurityException e) {
            return false;
        }
    }

    /**
     * {@code value} if it lies in this tunable's range.
     *
     * @throws IllegalArgumentException naming the tunable, the value and the allowed range
     */
    long check(long value) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(settingName + " must be between " + min + " and " + max + ", was "
                    + value + " (system property " + property + " sets the default, " + defaultValue + ")");
        }
        return value;
    }

    private static long fromProperty(String name, long builtIn, long min, long max) {
        String raw;
        try {
            raw = System.getProperty(name);
        } catch (SecurityException e) {
            return builtIn;
        }
        if (raw == null) {
            return builtIn;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "System property " + name + "=" + raw + " is not an integer; allowed: " + min + ".." + max, e);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "System property " + name + "=" + value + " is out of range; allowed: " + min + ".." + max);
        }
        return value;
    }
}
