package dev.forage;

import dev.forage.testing.Scenarios;
import dev.forage.testing.Watchdog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Model checking: the Chase-Lev deque is linearizable to a sequential deque where the owner pushes and pops at
 * the back and thieves take from the front, when push and pop run on one thread only (Lincheck's non-parallel
 * group puts every owner operation on the same thread) and any number of threads steal. With the next slot
 * ({@code pushNext}) the specification keeps the slot's job where it was put in that order, so thieves still
 * take the oldest, while the owner's pop takes it first ({@link Spec}). A batch ({@code pushAll}) is the pushes
 * of its jobs in order, published at once.
 *
 * <p>{@code steal} here retries on {@link WorkDeque#RETRY} until it gets a job or null: RETRY means "lost a race
 * to a thread that made progress", which has no counterpart in the sequential spec. The worker loop does the
 * same (it retries the victims while any returned RETRY).
 *
 * <p>Targeted scenarios first (the races the algorithm exists to win: the last job, growth under a thief, and
 * an emptied deque), then a modest random search (toolchain.md pitfall 6).
 */
@Param(name = "job", gen = IntGen.class, conf = "1:50")
@Watchdog.Budget(seconds = 180)
public class WorkDequeLincheckTest {
    private static final Scenarios S = new Scenarios(WorkDequeLincheckTest.class);

    private final WorkDeque deque = newDeque();

    protected WorkDeque newDeque() {
        return new WorkDeque();
    }

    @Operation(nonParallelGroup = "owner")
    public void push(@Param(name = "job") int job) {
        deque.push(new Job(job));
    }

    @Operation(nonParallelGroup = "owner")
    public void pushNext(@Param(name = "job") int job) {
        deque.pushNext(new Job(job));
    }

    /** A batch of three ({@code job}, then {@code job + 100} and {@code job + 200}), pushed as one. */
    @Operation(nonParallelGroup = "owner")
    public void pushAll(@Param(name = "job") int job) {
        deque.pushAll(new Runnable[] {new Job(0), new Job(job), new Job(job + 100), new Job(job + 200)}, 1, 4);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer pop() {
        Runnable r = deque.pop();
        return r == null ? null : Job.idOf(r);
    }

    @Operation
    public Integer steal() {
        while (true) {
            Runnable r = deque.steal();
            if (r != WorkDeque.RETRY) {
                return r == null ? null : Job.idOf(r);
            }
        }
    }

    /**
     * The sequential specification: the ring's jobs oldest first, and the slot's job with the number of ring jobs
     * older than it. {@code push} moves the slot's job behind the ring's; {@code pushNext} fills an empty slot, or
     * else pushes on the ring; {@code pop} takes the slot's job first; {@code steal} the oldest of all.
     */
    public static final class Spec {
        private final ArrayDeque<Integer> jobs = new ArrayDeque<>();
        private Integer slot;
        private int olderThanSlot;

        public void push(int job) {
            if (slot != null) {
                jobs.addLast(slot);
                slot = null;
            }
            jobs.addLast(job);
        }

        public void pushNext(int job) {
            if (slot == null) {
                slot = job;
                olderThanSlot = jobs.size();
            } else {
                jobs.addLast(job);
            }
        }

        /** The batch's jobs pushed one by one, the first the oldest. */
        public void pushAll(int job) {
            push(job);
            push(job + 100);
            push(job + 200);
        }

        public Integer pop() {
            if (slot != null) {
                Integer job = slot;
                slot = null;
                return job;
            }
            return jobs.pollLast();
        }

        public Integer steal() {
            if (slot != null && olderThanSlot == 0) {
                Integer job = slot;
                slot = null;
                return job;
            }
            if (slot != null) {
                olderThanSlot--;
            }
            return jobs.pollFirst();
        }
    }

    @Test
    void targetedScenarios() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(0)
                // Bounded for CI time (the 64-push growth scenario makes each interleaving costly); at this
                // setting it still catches pop or steal without their CAS on top.
                .invocationsPerIteration(Boolean.getBoolean("forage.stress.long") ? 20_000 : 3_000)
                // grow() copies 64 slots in one loop; Lincheck's default bound of 50 calls that a livelock.
                .loopBound(200)
                .sequentialSpecification(Spec.class);
        // The last job, raced by pop and one or two thieves.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1)),
                List.of(List.of(S.call("pop")), List.of(S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1)),
                List.of(List.of(S.call("pop")), List.of(S.call("steal")), List.of(S.call("steal"))),
                List.of()));
        // Two jobs, the owner pops both while two thieves steal.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1), S.call("push", 2)),
                List.of(List.of(S.call("pop"), S.call("pop")), List.of(S.call("steal")), List.of(S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // Push into an empty deque while a thief looks, then take it back.
        options.addCustomScenario(Scenarios.scenario(
                List.of(),
                List.of(
                        List.of(S.call("push", 1), S.call("pop"), S.call("push", 2)),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // Growth (the 64-slot buffer is full) while a thief may still read the old buffer.
        List<Actor> full = new ArrayList<>();
        for (int i = 1; i <= 64; i++) {
            full.add(S.call("push", i));
        }
        options.addCustomScenario(Scenarios.scenario(
                full,
                List.of(
                        List.of(S.call("push", 65), S.call("pop"), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("steal"))));
        // A full, wrapped ring whose stolen slots a push clears while thieves read (on the small ring of
        // SmallRingWorkDequeLincheckTest: four slots, three live jobs after the wrap, two consumed slots).
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1), S.call("push", 2), S.call("push", 3), S.call("steal"),
                        S.call("push", 4), S.call("push", 5), S.call("steal")),
                List.of(
                        List.of(S.call("push", 6), S.call("pop"), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // The next slot: its job raced by the owner's pop and two thieves.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("pushNext", 1)),
                List.of(List.of(S.call("pop")), List.of(S.call("steal")), List.of(S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // Filled while thieves look, with an older job in the ring and a newer one pushed after it.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1)),
                List.of(
                        List.of(S.call("pushNext", 2), S.call("pushNext", 3), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // Taken and filled again while a thief holds a read of the old job; then moved into the ring by a push.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("pushNext", 1)),
                List.of(
                        List.of(S.call("pop"), S.call("pushNext", 2), S.call("push", 3), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // A deque emptied by thieves and refilled by the owner (lazy slot clearing).
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1), S.call("push", 2), S.call("push", 3)),
                List.of(
                        List.of(S.call("pop"), S.call("push", 4), S.call("pop"), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        // A batch pushed beside the slot's job and an older ring job (on the small ring: growth) while two
        // thieves take from the far end.
        options.addCustomScenario(Scenarios.scenario(
                List.of(S.call("push", 1), S.call("pushNext", 2)),
                List.of(
                        List.of(S.call("pushAll", 3), S.call("pop"), S.call("pop")),
                        List.of(S.call("steal"), S.call("steal")),
                        List.of(S.call("steal"))),
                List.of(S.call("pop"), S.call("steal"))));
        options.check(getClass());
    }

    @Test
    void randomSearch() {
        Scenarios.randomSearch(Spec.class, 2).check(getClass());
    }
}
