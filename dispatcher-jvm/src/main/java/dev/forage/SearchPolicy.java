package dev.forage;

import java.util.Arrays;

/**
 * How one worker looks for work, and what it does between two searches that found none: the search heuristics of
 * the worker loop, in one object per worker, so that the loop itself ({@code Worker.waitUntil}) keeps the shape of
 * Rayon's {@code wait_until_cold}. Each rule is for speed only: none decides whether a job can be lost or a worker
 * can sleep through one (that is the sleep protocol's, {@link Sleep}, and its proofs in {@code docs/sleep.md} never
 * look here). The rules change what a search takes first and when the next search comes, never what the
 * protocol's final check (S4) or hand-off rule (E2) sees.
 *
 * <p>The contract, all on the worker's own thread:
 * <ul>
 *   <li>{@link #takeLocalJob}: which of its own jobs the worker runs next. The newest (LIFO), except in its
 *       top-level loop while a batch it took from the injector is left, whose oldest comes first (section 3.9),
 *       every {@link Tunable#FAIRNESS_INTERVAL} jobs, when the injector's oldest and then its own oldest come
 *       first, and after {@link #takeOldestNext()} ({@code executeFair}) (section 8).</li>
 *   <li>{@link #takeBeforeIdling}: one look at the injector, then at the other deques, before the worker counts
 *       itself idle (section 6).</li>
 *   <li>{@link #findWork(IdleState)}: one full search of an idle worker, in this order: its own deque; the
 *       injector, on the first search after a wake-up (section 4.7); the place the protocol's idle state names
 *       ({@link IdleState#firstPlaceToLook}: EMPER's wake-up hint); the other deques from a random start, leaving
 *       a neighbour's lone job to its owner for one round (the lone-job rule, section 4.6), except on the first
 *       search after a wake-up; due timers; the injector.</li>
 *   <li>{@link #holdOff}: after a search that found nothing, the policy's own wait instead of the protocol's
 *       {@code noWorkFound}: when only a lone job was seen, one yield beside a chain or the lone-job pause beside a
 *       producer ({@link Tunable#LONE_JOB_PAUSE_NANOS}), and never a sleep, so the next round takes the job if it
 *       is still there; in the first rounds of a spell that follows a stream of injected jobs, a yield
 *       ({@link Tunable#INJECTED_STREAM_ROUNDS}, section 3.8). Returns false when the protocol's turn has come.</li>
 *   <li>{@link #findAnyWork}: a plain search with no rule, for a worker that drains before it stops.</li>
 * </ul>
 * The pause is the one wait of its own: a bounded latch-ended park of the worker's parker
 * ({@link Parker#parkUntilSet}), which a set of the worker's latch ends.
 * Sections are those of {@code docs/sleep.md}.
 */
final class SearchPolicy extends SearchPolicyPad {
    private final Worker owner;
    private final Registry registry;
    private final Injector injector;
    private final PoolTimers timers;
    private final int fairnessInterval;
    private final int injectedStreamRounds;
    /** This worker's batches from the injector (section 3.9). */
    private final InjectorBatches batches;
    /** The lone-job pause; 0: a yield instead (the lock-based baselines, or the tunable set to 0). */
    private final long loneJobPauseNanos;
    /** The worker's parker: the pause is its latch-ended park. */
    private final Parker parker;
    /**
     * Per victim: the index of the lone job this worker last left in that victim's deque, and the search round
     * in which it did ({@link #passOver}).
     */
    private final long[] leftLoneJobIndex;
    private final int[] leftLoneJobRound;
    /**
     * Per victim: its next-slot tag when this worker left the lone job ({@link WorkDeque#nextSlotTag}). A job in the
     * slot keeps its index when the owner takes it and puts another, so the index alone cannot tell them apart.
     */
    private final int[] leftLoneJobTag;

    /** For {@code owner}, whose registry has sized its worker array. */
    SearchPolicy(Worker owner, Registry registry) {
        Tuning tuning = registry.tuning;
        this.owner = owner;
        this.registry = registry;
        this.injector = registry.injector;
        this.timers = registry.timers;
        this.fairnessInterval = tuning.getInt(Tunable.FAIRNESS_INTERVAL);
        this.injectedStreamRounds = tuning.getInt(Tunable.INJECTED_STREAM_ROUNDS);
        this.loneJobPauseNanos = registry.pausesBesideProducers ? tuning.get(Tunable.LONE_JOB_PAUSE_NANOS) : 0L;
        this.parker = owner.parker;
        // Any odd, distinct seed works for xorshift; mixing the index spreads the workers' first victims.
        this.random = (owner.index + 1) * 0x9E3779B97F4A7C15L | 1L;
        this.untilFairnessCheck = fairnessInterval;
        this.batches = new InjectorBatches(owner, registry, tuning.getInt(Tunable.INJECTOR_BATCH));
        this.leftLoneJobIndex = new long[registry.workers.length];
        Arrays.fill(leftLoneJobIndex, -1L);
        this.leftLoneJobRound = new int[registry.workers.length];
        this.leftLoneJobTag = new int[registry.workers.length];
    }

    /**
     * The next job of the worker's own. Inside a job ({@code jobDepth > 0}, a wait that helps) always the newest:
     * a plain LIFO pop, as Rayon's {@code wait_until}. In the top-level loop, normally the newest too, but while a
     * batch taken from the injector is left its oldest job ({@link InjectorBatches#takeOldest}), after
     * {@link #takeOldestNext()} the oldest, and every {@link Tunable#FAIRNESS_INTERVAL} jobs the injector's oldest
     * and then this deque's oldest come first, so neither starves behind a stream of new local jobs.
     *
     * <p>The fairness rule lives only at the top level because an old job is a large one: near the root of its
     * join tree, or a whole outside submission. Taken inside a wait, it would run on top of the waiting frames, and
     * a wait inside it would do the same again, so the stack would grow with the number of jobs run rather than
     * with the depth of the tree. At the top level nothing lies beneath it, and the top level is where every
     * worker returns between jobs, so the rule still bounds how long the oldest jobs wait.
     */
    Runnable takeLocalJob(int jobDepth) {
        WorkDeque deque = owner.deque;
        if (jobDepth > 0) {
            return deque.pop();
        }
        if (batches.pending()) {
            // The batch's jobs are the oldest outside jobs: before the injector's, and taken in their order, so the
            // fairness rule below has nothing to do until the batch is gone.
            Runnable job = batches.takeOldest();
            if (job != null) {
                return job;
            }
        }
        if (--untilFairnessCheck == 0) {
            untilFairnessCheck = fairnessInterval;
            Runnable job = pollInjector();
            if (job != null) {
                return job;
            }
            takeOldestNext = true;
        }
        if (takeOldestNext) {
            takeOldestNext = false;
            Runnable job = deque.steal(); // our own oldest job; RETRY means a thief took it: fall back to pop
            if (job != null && job != WorkDeque.RETRY) {
                return job;
            }
        }
        return deque.pop();
    }

    /** The next local take in the top-level loop is the deque's oldest job ({@code ForagePool.executeFair}). */
    void takeOldestNext() {
        takeOldestNext = true;
    }

    /**
     * One look at the injector, then at the other deques, before counting this worker idle (Rayon goes idle
     * first). The injector first: a worker that finished a batch takes the next one instead of splitting its
     * neighbour's (section 3.9). A worker that lives on stolen or injected jobs (a stream of outside submissions,
     * a neighbour that keeps spawning, a coroutine that yields) then runs them without two read-modify-writes of
     * the sleep counters per job, a word that every post reads. Safe for the sleep protocol: a worker that is not counted idle is one
     * that no poster counts on, so at worst a poster wakes a sleeper it did not need.
     */
    Runnable takeBeforeIdling() {
        Runnable job = pollInjector();
        return job != null ? job : stealFromOthers(true);
    }

    /**
     * An idle spell begins (after the protocol's {@code startLooking}). A worker that drained two or more
     * outside jobs since its last spell starts with the stream rounds: the submitter is likely between two
     * pushes, and sleeping now would make its next push pay our wake-up (section 3.8).
     */
    void startSpell() {
        streamRoundsLeft = injectedThisSpell >= 2 ? injectedStreamRounds : 0;
        injectedThisSpell = 0;
    }

    /**
     * One full search of an idle worker ({@link #startSpell} came first). A worker just woken takes a lone job at
     * once: it may have been woken for exactly that job, by a pusher about to block or spin, perhaps onto the
     * pusher's own CPU, where a yield would hand the CPU back to the pusher for the rest of its time slice
     * (section 4.6). It also looks at the injector before the other deques: an outside submission is the one
     * wake-up whose job is not in a deque, and on a machine where the sleep left our caches cold, every deque
     * probed first cost a miss or two (section 4.7).
     */
    Runnable findWork(IdleState idle) {
        boolean justWoken = idle.justWoken();
        return search(!justWoken, justWoken, idle.firstPlaceToLook());
    }

    /**
     * After a search that found nothing: waits the policy's way and returns true, or returns false when the
     * sleep protocol's turn has come ({@code noWorkFound}). Never sleeps: the one park, the lone-job pause, is
     * bounded, counted idle by the protocol, and ended at once by a set of {@code latch}.
     */
    boolean holdOff(CoreLatch latch) {
        searchRound++; // a failed round ends here: a lone job left in it may be taken from the next one on
        if (leftLoneJob) {
            // We left a neighbour's only job to its owner. Never sleep on it: the next round takes it if it is
            // still there. Beside a producer, a pause first, so that this worker falls behind it instead of taking
            // each job as it is pushed; otherwise one yield, which is all a chain's owner needs to pop its job.
            if (producerSeen && loneJobPauseNanos > 0) {
                parker.parkUntilSet(latch, loneJobPauseNanos, false);
            } else {
                Thread.yield();
            }
            return true;
        }
        if (streamRoundsLeft > 0) {
            // Counted idle meanwhile, so the submitter's next push wakes nobody; the yield lets it run if it shares
            // our CPU. The protocol's first noWorkFound comes a few failed searches later, and every protocol's
            // proof holds for any number of those.
            streamRoundsLeft--;
            Thread.yield();
            return true;
        }
        return false;
    }

    /** A full search with no rule (every lone job taken, no hint, the injector last), for a draining worker. */
    Runnable findAnyWork() {
        return search(false, false, IdleState.ANYWHERE);
    }

    /**
     * A full search: own deque; with {@code injectorFirst}, the injector; {@code firstPlace} (a worker index, or
     * {@link IdleState#INJECTOR}, or {@link IdleState#ANYWHERE}); every other worker from a random start; due
     * timers; the injector.
     */
    Runnable search(boolean mayLeaveLoneJobs, boolean injectorFirst, int firstPlace) {
        Runnable job = null;
        if (batches.pending() && owner.jobDepth == 0) {
            job = batches.takeOldest(); // a drain or an idle spell at the top level: the batch in its order
        }
        if (job == null) {
            job = owner.deque.pop();
        }
        if (job != null) {
            return job;
        }
        if (injectorFirst) {
            job = pollInjector();
            if (job != null) {
                return job;
            }
        }
        if (firstPlace != IdleState.ANYWHERE) {
            job = takeFrom(firstPlace);
            if (job != null) {
                return job;
            }
        }
        job = stealFromOthers(mayLeaveLoneJobs);
        if (job != null) {
            return job;
        }
        timers.fireDue();
        return pollInjector(); // also after an injector-first look: due timers are queued on the injector
    }

    /** A job from {@code place}: the injector, or the deque of another worker whose index it is. */
    private Runnable takeFrom(int place) {
        if (place == IdleState.INJECTOR) {
            return pollInjector();
        }
        Worker[] all = registry.workers;
        if (place < 0 || place >= all.length || place == owner.index) {
            return null;
        }
        Runnable job;
        do {
            job = all[place].deque.steal();
        } while (job == WorkDeque.RETRY);
        if (job != null) {
            owner.counters.steal();
        }
        return job;
    }

    /** The injector's oldest job, or a batch of the oldest when the worker may take one (section 3.9). */
    private Runnable pollInjector() {
        if (batches.mayTake()) {
            Runnable job = batches.take();
            injectedThisSpell += batches.lastTaken();
            return job;
        }
        Runnable job = injector.poll();
        if (job != null) {
            owner.counters.injectedJobTaken();
            injectedThisSpell++;
        }
        return job;
    }

    /**
     * One job stolen from another worker, or null. With {@code mayLeaveLoneJobs}, a deque that holds exactly one
     * job is skipped unless this worker already saw that same job there in an earlier search round: a worker that
     * pushes one job and goes on to pop it (a chain of jobs, a ping-pong of two coroutines) keeps it, instead of
     * the job moving to another core on every hand-off. A job whose owner is busy or blocked waits at most one
     * round: {@link #holdOff} yields or pauses instead of letting the worker sleep after leaving one.
     */
    Runnable stealFromOthers(boolean mayLeaveLoneJobs) {
        leftLoneJob = false;
        Worker[] workers = registry.workers;
        int n = registry.slotsInUse; // the extra slots that were never used hold no jobs
        if (n <= 1) {
            return null;
        }
        int start = nextVictim(n);
        int self = owner.index;
        while (true) {
            boolean retry = false;
            for (int i = 0; i < n; i++) {
                int victim = start + i;
                if (victim >= n) {
                    victim -= n;
                }
                if (victim == self) {
                    continue;
                }
                WorkDeque d = workers[victim].deque;
                if (mayLeaveLoneJobs && passOver(victim, d)) {
                    continue;
                }
                Runnable job = d.steal();
                if (job == WorkDeque.RETRY) {
                    retry = true;
                } else if (job != null) {
                    owner.counters.steal();
                    return job;
                }
            }
            if (!retry) {
                return null;
            }
        }
    }

    /**
     * Whether to leave {@code victim}'s deque alone this round: it is empty (from the same snapshot, so a steal
     * does not read {@code top} and {@code bottom} again to find that out), or it holds one job that this worker
     * has not seen there in an earlier round. Remembers the sighting.
     */
    private boolean passOver(int victim, WorkDeque d) {
        int tag = d.nextSlotTag();
        long lone = d.loneJobIndex();
        long left = leftLoneJobIndex[victim];
        if (left >= 0 && (lone != left || tag != leftLoneJobTag[victim])) {
            // The job we left here is gone (its owner popped it: a chain) or has company. Still the oldest of
            // several means its owner pushed more instead of popping it: a producer, beside which the next
            // lone job we leave is followed by a pause (holdOff). One verdict per job left.
            producerSeen = lone == WorkDeque.SEVERAL_JOBS && d.oldestIndex() == left;
            leftLoneJobIndex[victim] = -1L;
        }
        if (lone == WorkDeque.NO_JOBS) {
            return true;
        }
        if (lone == WorkDeque.SEVERAL_JOBS) {
            return false;
        }
        if (left == lone && tag == leftLoneJobTag[victim] && leftLoneJobRound[victim] != searchRound) {
            // It waited a whole round: its owner is busy elsewhere, take it. No verdict: a producer slower than
            // our round looks the same as an owner busy with something else. Forgotten, so that the next look
            // does not read this job's absence as its owner's pop.
            leftLoneJobIndex[victim] = -1L;
            return false;
        }
        leftLoneJobIndex[victim] = lone;
        leftLoneJobTag[victim] = tag;
        leftLoneJobRound[victim] = searchRound;
        leftLoneJob = true;
        return true;
    }

    private int nextVictim(int n) {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int) ((x >>> 33) % n);
    }
}

/**
 * The fields a {@link SearchPolicy} writes on every job or every search (owner thread only), after
 * {@link LeadingPad} and before {@link SearchPolicyPad}, so that these writes never invalidate a line that another
 * thread reads, as for {@link WorkerOwnerState}.
 */
abstract class SearchPolicyState extends LeadingPad {
    /** xorshift state for picking steal victims. */
    long random;
    /** Top-level local takes until the next fairness check ({@link Tunable#FAIRNESS_INTERVAL}). */
    int untilFairnessCheck;
    /** Set by {@code executeFair} and the fairness check: the next top-level local take is the deque's oldest job. */
    boolean takeOldestNext;
    /**
     * Counts this worker's failed idle search rounds ({@code SearchPolicy.holdOff}); a lone job is stolen only
     * when it was already there in an earlier round ({@code SearchPolicy.passOver}).
     */
    int searchRound;
    /** Set when the last search left a lone job to its owner: the next round must come without sleeping. */
    boolean leftLoneJob;
    /**
     * Whether a lone job this worker left was, when it looked again, still the oldest of several: its owner
     * pushed more instead of popping it, the signature of a producer. Then the next lone job left is followed by
     * the pause instead of a yield (docs/sleep.md section 4.6). Rewritten at every such look.
     */
    boolean producerSeen;
    /**
     * Jobs this worker took from the injector since it last went idle. Two or more mean it is draining a stream
     * of outside submissions, and its next idle spell starts with {@link Tunable#INJECTED_STREAM_ROUNDS} yield
     * rounds before the sleep protocol sees it (docs/sleep.md section 3.8).
     */
    int injectedThisSpell;
    /** Stream rounds left in the current idle spell. */
    int streamRoundsLeft;
}

/** 128 bytes of padding after a search policy's owner-written fields. */
abstract class SearchPolicyPad extends SearchPolicyState {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}
