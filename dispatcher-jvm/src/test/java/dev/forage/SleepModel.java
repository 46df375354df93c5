package dev.forage;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A three-worker pool around a real sleep protocol, for the model check of the whole protocol
 * ({@link SleepModelCheckTest}; {@code docs/sleep.md}, "The model check"). The one place where that check
 * touches the protocol's interfaces ({@link Sleep}, {@link IdleState}, {@link IdleContext}, {@link Parker},
 * {@link PoolProbe}, {@link SpinLatch}): a change to them is adapted here, and the tests only name operations.
 *
 * <p>Real: the protocol ({@link JecSleep}, or the searching cap around one), its {@link JecCounters}, the
 * {@link Injector}, one {@link WorkDeque} and one {@link SpinLatch} per worker, the {@link TimerQueue} and its
 * watch. Modelled: the worker loop ({@code Worker.waitUntil}: the look before idling, then rounds of "probe the
 * latch, search, {@code noWorkFound}", and {@code workFound} plus the watch hand-over on the way out, without
 * the lone-job rule and stream rounds, which change only when a search takes a job), the pool's timers
 * ({@code PoolTimers}, with a clock that never moves: every timer is due when it is scheduled) and the
 * {@link Parker}.
 *
 * <p><b>Blocking.</b> {@link ModelParker#park} does not block: without a permit it records that the worker is
 * asleep and throws {@link Asleep}, which unwinds out of {@code noWorkFound} and ends the worker's operation.
 * S5 is the last step of the sleep, so the protocol's state stays exactly that of a blocked worker (counted as
 * sleeping, {@code isBlocked} set, the latch SLEEPING, the lock released), and later wakers act on it as on a
 * parked thread: their {@link ModelParker#unpark} leaves a permit, which marks the worker woken. A lost wake-up
 * is therefore a final state, checked by {@link #check} when every thread is done, never a hang. A woken worker
 * does not run again within the scenario; the check counts it as a worker that will search, which the
 * protocol's proof grants it (its next S4 sees every job posted before its next S2).
 */
final class SleepModel {
    static final int WORKERS = 3;
    /** The model clock: it never moves, and every timer's deadline is this, so a scheduled timer is due. */
    private static final long NOW = 0L;

    /** Which protocol runs; the baselines that block in the JEC's S5 run here unchanged. */
    enum Protocol {
        JEC,
        SEARCH_CAP
    }

    /**
     * Deliberate breaks, each one a step of the proof removed or moved, made in the model's pool side (the
     * context, the probe, the poster, the latch, the parker) so that the protocol's code stays the shipped one.
     */
    enum Break {
        /** S4 removed: the final check before blocking answers "nothing queued" (what skipping it does). */
        SKIP_FINAL_CHECK,
        /**
         * The worker loop's search between S1 and S2 removed: {@code noWorkFound} again at once after getting
         * sleepy, so only S4 looks at the queues after S1 (the JEC still catches every post after S1).
         */
        NO_SEARCH_AFTER_SLEEPY,
        /** I3 before I1: the poster reads the counters, then publishes (the order a missing PushFence allows). */
        COUNTERS_READ_BEFORE_PUSH,
        /** E2 removed: a worker leaving the idle state never sees unclaimed work (no hand-off rule). */
        NO_HAND_OFF,
        /** The latch's wake rule removed: a setter that swaps out SLEEPING does not wake the owner. */
        LATCH_SET_WITHOUT_WAKE,
        /** Pair E's second step removed: a new earliest timer does not signal the worker watching timers. */
        TIMER_NOT_SIGNALLED,
        /** The parker never reports socket readiness: a worker sleeps on although its selector found events. */
        READINESS_NOT_REPORTED
    }

    /** Thrown by {@link ModelParker#park}: the worker blocked in S5 (see the class comment). */
    static final class Asleep extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Asleep() {
            super("asleep", null, false, false);
        }
    }

    /** How a worker's last operation left it. */
    enum End {
        /** No idle spell in progress: it posted, or never ran; it searches again when it gets there. */
        FREE,
        /** It took a job, or socket readiness, and runs it; it may block in user code for good. */
        RUNNING,
        /** Its latch was set and it left the wait. */
        LATCH,
        /** Blocked in S5 ({@link Asleep}); woken iff its parker holds a permit. */
        PARKED
    }

    private final Set<Break> broken;
    private final Sleep sleep;
    private final JecSleep jec;
    private final Injector injector = new Injector();
    private final WorkDeque[] deques = new WorkDeque[WORKERS];
    private final SpinLatch[] latches = new SpinLatch[WORKERS];
    private final ModelParker[] parkers = new ModelParker[WORKERS];
    private final Context[] contexts = new Context[WORKERS];
    private final End[] ends = new End[WORKERS];
    private final TimerQueue timers = new TimerQueue();
    private final AtomicInteger posted = new AtomicInteger();
    private final AtomicInteger taken = new AtomicInteger();

    SleepModel(Protocol protocol, Set<Break> broken) {
        this.broken = broken.isEmpty() ? EnumSet.noneOf(Break.class) : EnumSet.copyOf(broken);
        for (int i = 0; i < WORKERS; i++) {
            parkers[i] = new ModelParker(!broken.contains(Break.READINESS_NOT_REPORTED));
            deques[i] = new WorkDeque();
            contexts[i] = new Context(i);
            ends[i] = End.FREE;
        }
        // No ramp-up, no nap and no lone-job pause: the defaults' liveness rests on S4 and the hand-off rule
        // alone, and the nap and the pause are bounded parks that end by themselves.
        Tuning tuning = Tuning.DEFAULTS.with(Tunable.ROUNDS_UNTIL_SLEEPY, 0).with(Tunable.WAKE_ON_WORK_FOUND, 0)
                .with(Tunable.NAP_NANOS, 0L).with(Tunable.LONE_JOB_PAUSE_NANOS, 0L);
        jec = new JecSleep(tuning, parkers, new Probe());
        sleep = protocol == Protocol.JEC ? jec : new SearchCapSleep(jec, tuning, WORKERS, WORKERS);
        for (int i = 0; i < WORKERS; i++) {
            latches[i] = broken.contains(Break.LATCH_SET_WITHOUT_WAKE)
                    ? new SilentLatch(sleep, i) : new SpinLatch(sleep, i);
        }
    }

    // ---- Operations ----------------------------------------------------------------------------------------

    /**
     * Worker {@code w}'s thread submits a job to its own deque (I1) and posts it (I3), as {@code Worker.pushNext}
     * (a worker's {@code execute}): into the next slot, or on the ring when the slot is taken, so that a scenario
     * with two posts by one worker covers both.
     */
    void postToDeque(int w) {
        requireWorker(w);
        if (ends[w] == End.PARKED) {
            return; // still inside S5
        }
        Runnable job = newJob();
        if (broken.contains(Break.COUNTERS_READ_BEFORE_PUSH)) {
            sleep.newInternalJobs(1, deques[w].isEmpty());
            deques[w].pushNext(job);
        } else {
            deques[w].pushNext(job);
            sleep.newInternalJob(deques[w]::heldNoOtherJob);
        }
        ends[w] = End.FREE;
    }

    /** Any thread pushes a job on the injector (I1) and posts it (I3), as {@code Registry.pushInjected}. */
    void postToInjector() {
        Runnable job = newJob();
        if (broken.contains(Break.COUNTERS_READ_BEFORE_PUSH)) {
            sleep.newInjectedJobs(1, injector.isEmpty());
            injector.push(job);
        } else {
            boolean wasEmpty = injector.push(job);
            sleep.newInjectedJobs(1, wasEmpty);
        }
    }

    /** Any thread sets worker {@code w}'s latch ({@code SpinLatch.set}: wakes the owner if it found SLEEPING). */
    void setLatch(int w) {
        requireWorker(w);
        latches[w].set();
    }

    /** Any thread wakes worker {@code w} with nothing behind it (the protocol's wake, as the hand-off rule's). */
    void wake(int w) {
        requireWorker(w);
        sleep.notifyWorkerLatchIsSet(w);
    }

    /** Any thread schedules a timer that is due at once, as {@code PoolTimers.schedule}. */
    void scheduleDueTimer() {
        posted.incrementAndGet();
        if (timers.add(new TimerTask(this::jobRan, NOW))) {
            int watcher = timers.watcher();
            if (watcher != TimerQueue.NO_WATCHER) {
                if (!broken.contains(Break.TIMER_NOT_SIGNALLED)) {
                    sleep.timerDeadlineChanged(watcher);
                }
            } else {
                sleep.newInjectedJobs(1, true);
            }
        }
    }

    /** Socket readiness for worker {@code w}: its selector returns, and its parker reports events. */
    void ioReady(int w) {
        requireWorker(w);
        parkers[w].readiness();
    }

    /**
     * Worker {@code w}'s thread with nothing local to do: the worker loop until it takes a job, sees its latch or
     * readiness, or blocks in S5. A worker that is blocked (its thread is parked) does nothing.
     */
    void searchThenSleep(int w) {
        requireWorker(w);
        if (ends[w] == End.PARKED) {
            return;
        }
        if (latches[w].probe()) {
            ends[w] = End.LATCH;
            return;
        }
        // Worker.waitUntil's look before going idle (takeBeforeIdling), after its own deque.
        Runnable job = deques[w].pop();
        if (job == null) {
            job = stealOrPoll(w);
        }
        if (job != null) {
            run(w, job);
            return;
        }
        IdleState idle = sleep.startLooking(w);
        while (true) {
            if (latches[w].probe()) {
                leaveIdle(w, idle);
                ends[w] = End.LATCH;
                return;
            }
            job = findWork(w);
            if (job != null) {
                leaveIdle(w, idle);
                run(w, job);
                return;
            }
            try {
                sleep.noWorkFound(idle, latches[w], contexts[w]);
                if (broken.contains(Break.NO_SEARCH_AFTER_SLEEPY) && ((JecSleep.JecIdleState) idle).jobsCounter != JecSleep.JecIdleState.NOT_SLEEPY) {
                    sleep.noWorkFound(idle, latches[w], contexts[w]);
                }
            } catch (Asleep e) {
                ends[w] = End.PARKED;
                return;
            }
            if (parkers[w].takeEvents()) {
                leaveIdle(w, idle); // readiness ended the sleep: the worker resumes what became ready
                ends[w] = End.RUNNING;
                return;
            }
        }
    }

    // ---- The property ---------------------------------------------------------------------------------------

    /**
     * With every thread done: no lost wake-up, every job taken at most once, and the counters consistent with
     * the workers' states. Throws {@link IllegalStateException} describing the final state otherwise.
     */
    void check() {
        boolean anyParked = false;
        boolean anyWoken = false;
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            if (ends[i] != End.PARKED) {
                continue;
            }
            if (leavesS5(i)) {
                anyWoken = true;
                continue;
            }
            anyParked = true;
            if (latches[i].probe()) {
                lost.add("worker " + i + " sleeps although its latch is SET");
            }
            if (parkers[i].hasEvents()) {
                lost.add("worker " + i + " sleeps although its selector found readiness");
            }
        }
        String queued = queuedWork();
        if (anyParked && !anyWoken && queued != null) {
            // Workers that are not asleep are running jobs (which may block in user code for good) or are outside
            // the idle loop: the protocol counts on none of them (docs/sleep.md sections 3.5, 3.6 and 4.5).
            lost.add(queued + " while a worker sleeps and none is woken");
        }
        if (!lost.isEmpty()) {
            throw new IllegalStateException("lost wake-up: " + String.join("; ", lost) + ". " + describe());
        }
        int blocked = 0;
        int inSpell = 0;
        for (int i = 0; i < WORKERS; i++) {
            if (jec.isBlocked(i)) {
                blocked++;
            }
            if (ends[i] == End.PARKED) {
                inSpell++;
            }
        }
        long word = jec.word().load();
        if (JecCounters.sleepingThreads(word) != blocked || JecCounters.inactiveThreads(word) != inSpell) {
            throw new IllegalStateException("counters inconsistent: " + blocked + " workers blocked and " + inSpell
                    + " in an idle spell, but " + JecCounters.describe(word) + ". " + describe());
        }
        int left = injectorSize() + dequeSizes() + timers.size();
        if (taken.get() + left != posted.get()) {
            throw new IllegalStateException("jobs: " + posted.get() + " posted, " + taken.get() + " taken, " + left
                    + " still queued. " + describe());
        }
    }

    /** The final state, for a failure message. */
    String describe() {
        StringBuilder b = new StringBuilder("Workers:");
        for (int i = 0; i < WORKERS; i++) {
            b.append(' ').append(i).append('=').append(ends[i]);
            if (ends[i] == End.PARKED) {
                b.append(leavesS5(i) ? "(woken)" : "(asleep)");
            }
            if (latches[i].probe()) {
                b.append("(latch SET)");
            }
        }
        String queued = queuedWork();
        return b.append("; ").append(queued == null ? "nothing queued" : queued).append("; ")
                .append(JecCounters.describe(jec.word().load())).toString();
    }

    /**
     * Whether blocked worker {@code w}'s thread, run on, would leave S5: its park returns only with a permit, and
     * then {@code JecSleep.block}'s loop ends only if a waker cleared {@code isBlocked}, the parker reports
     * readiness, or a timer it may watch is due (its next {@code parkNanos} would be 0); otherwise it parks again.
     */
    private boolean leavesS5(int w) {
        if (!parkers[w].hasPermit()) {
            return false;
        }
        int watcher = timers.watcher();
        return !jec.isBlocked(w) || parkers[w].eventsFound()
                || (!timers.isEmpty() && (watcher == w || watcher == TimerQueue.NO_WATCHER));
    }

    // ---- The modelled worker loop and pool ------------------------------------------------------------------

    /** {@code Worker.findWork}: own deque, the other deques, due timers, the injector. */
    private Runnable findWork(int w) {
        Runnable job = deques[w].pop();
        if (job != null) {
            return job;
        }
        job = steal(w);
        if (job != null) {
            return job;
        }
        fireDueTimers();
        return injector.poll();
    }

    private Runnable stealOrPoll(int w) {
        Runnable job = steal(w);
        return job != null ? job : injector.poll();
    }

    private Runnable steal(int w) {
        for (int k = 1; k < WORKERS; k++) {
            WorkDeque victim = deques[(w + k) % WORKERS];
            Runnable job;
            do {
                job = victim.steal();
            } while (job == WorkDeque.RETRY);
            if (job != null) {
                return job;
            }
        }
        return null;
    }

    /** {@code PoolTimers.fireDue}: due timers move to the injector as new injected jobs. */
    private void fireDueTimers() {
        List<TimerTask> due = timers.pollExpired(NOW);
        if (due == null) {
            return;
        }
        boolean wasEmpty = injector.isEmpty();
        for (TimerTask t : due) {
            injector.push(t);
        }
        sleep.newInjectedJobs(due.size(), wasEmpty);
    }

    /** {@code Worker.leaveIdle}: work found, then the watch goes to a sleeper ({@code PoolTimers.handOverWatch}). */
    private void leaveIdle(int w, IdleState idle) {
        sleep.workFound(idle);
        if (timers.watcher() == w && timers.releaseWatch(w) && !timers.isEmpty()) {
            sleep.newInjectedJobs(1, true);
        }
    }

    private void run(int w, Runnable job) {
        job.run();
        ends[w] = End.RUNNING;
    }

    private Runnable newJob() {
        posted.incrementAndGet();
        return this::jobRan;
    }

    private void jobRan() {
        taken.incrementAndGet();
    }

    private boolean hasQueuedJobs() {
        if (!injector.isEmpty()) {
            return true;
        }
        for (WorkDeque d : deques) {
            if (!d.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private String queuedWork() {
        List<String> where = new ArrayList<>();
        if (!injector.isEmpty()) {
            where.add("a job in the injector");
        }
        for (int i = 0; i < WORKERS; i++) {
            if (!deques[i].isEmpty()) {
                where.add("a job in worker " + i + "'s deque");
            }
        }
        if (!timers.isEmpty()) {
            where.add("a due timer (watcher " + timers.watcher() + ")");
        }
        return where.isEmpty() ? null : String.join(", ", where);
    }

    private int injectorSize() {
        return (int) injector.approximateSize();
    }

    private int dequeSizes() {
        int n = 0;
        for (WorkDeque d : deques) {
            n += d.size();
        }
        return n;
    }

    private static void requireWorker(int w) {
        if (w < 0 || w >= WORKERS) {
            throw new IllegalArgumentException("worker " + w + " is out of range; allowed: 0.." + (WORKERS - 1));
        }
    }

    /** The pool as the protocol sees it ({@code Registry}'s probe). */
    private final class Probe implements PoolProbe {
        @Override
        public int callingWorkerIndex() {
            return -1;
        }

        @Override
        public boolean hasVisibleWork() {
            return hasQueuedJobs() || !timers.isEmpty();
        }

        @Override
        public boolean hasUnclaimedWork() {
            if (broken.contains(Break.NO_HAND_OFF)) {
                return false;
            }
            return hasQueuedJobs() || (!timers.isEmpty() && timers.watcher() == TimerQueue.NO_WATCHER);
        }
    }

    /** The worker as the protocol sees it while it goes to sleep ({@code Worker}'s {@link IdleContext}). */
    private final class Context implements IdleContext {
        private final int index;
        private final WorkerStatistics counters = new WorkerStatistics();

        Context(int index) {
            this.index = index;
        }

        @Override
        public boolean hasQueuedJobs() {
            return !broken.contains(Break.SKIP_FINAL_CHECK) && SleepModel.this.hasQueuedJobs();
        }

        /** {@code PoolTimers.watchNanos}: claim the watch if timers exist, then read the deadline. */
        @Override
        public long parkNanos() {
            boolean watching = !timers.isEmpty() && timers.claimWatch(index);
            long earliest = timers.earliestDeadline();
            if (!watching || earliest == TimerQueue.NO_DEADLINE) {
                return PARK_FOREVER;
            }
            return Math.max(earliest - NOW, 0L);
        }

        @Override
        public void wakeupWithoutWork() {
        }

        @Override
        public WorkerStatistics statistics() {
            return counters;
        }
    }

    /**
     * {@code LockSupport}'s permit without a thread: an unpark leaves a permit, a park consumes one and returns,
     * and a park without one is the worker blocking ({@link Asleep}). Readiness, as {@code SelectorParker}'s:
     * events recorded, then the selector woken.
     */
    static final class ModelParker extends Parker {
        private final boolean reportsReadiness;
        private volatile boolean permit;
        private volatile boolean events;

        ModelParker(boolean reportsReadiness) {
            this.reportsReadiness = reportsReadiness;
        }

        @Override
        public void bindCurrentThread() {
        }

        @Override
        public void park(long nanos) {
            if (permit) {
                permit = false;
                return;
            }
            throw new Asleep();
        }

        @Override
        public void unpark() {
            permit = true;
        }

        @Override
        public boolean eventsFound() {
            return reportsReadiness && events;
        }

        void readiness() {
            events = true;
            unpark();
        }

        boolean takeEvents() {
            if (!events) {
                return false;
            }
            events = false;
            return true;
        }

        boolean hasPermit() {
            return permit;
        }

        boolean hasEvents() {
            return events;
        }
    }

    /** A latch that publishes SET but never wakes its owner ({@link Break#LATCH_SET_WITHOUT_WAKE}). */
    private static final class SilentLatch extends SpinLatch {
        SilentLatch(LatchWaker waker, int ownerIndex) {
            super(waker, ownerIndex);
        }

        @Override
        public void set() {
            setCore();
        }
    }
}
