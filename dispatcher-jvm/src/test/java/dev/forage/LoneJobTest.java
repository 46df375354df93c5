package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lone-job rule of {@code Worker.stealFromOthers} (docs/sleep.md section 4.6): an idle worker leaves a
 * deque's only job to its owner for one search round, and takes it in the next if it is still there.
 *
 * <p>The step tests walk the rule, and the search order of a worker just woken, on workers whose threads are
 * held back. The others pin its liveness in a running pool: a lone job whose owner blocks in user code, or keeps
 * busy, is still taken, from a pool whose other workers are awake or asleep. A rule that left lone jobs for good
 * fails a trip's bounded wait, with a thread dump. What the rule is for (a chain of jobs
 * that stays on its core) is a speed property, measured by {@code chain-exec-200k} in the benchmarks, not
 * asserted here.
 */
@Watchdog.Budget(seconds = 120)
class LoneJobTest {
    /**
     * The rule itself, step by step, with no thread racing the test: the pool's threads are held at a gate, so
     * the test thread is the only one touching the two workers (it plays worker 0's owner when it pushes, and
     * worker 1 when it searches).
     */
    @Test
    void aLoneJobIsLeftForOneSearchRoundAndTakenInTheNext() throws Exception {
        onHeldWorkers(pool -> {
            Worker owner = pool.registry().workers[0];
            Worker thief = pool.registry().workers[1];
            Runnable first = () -> { };
            Runnable second = () -> { };

            owner.deque.push(first);
            assertNull(thief.stealFromOthers(true), "first sighting of a lone job: left to its owner");
            assertNull(thief.stealFromOthers(true), "still the same round: still left");
            assertSame(first, thief.stealFromOthers(false), "a search that may not leave lone jobs takes it");

            owner.deque.push(first);
            assertNull(thief.stealFromOthers(true), "a new lone job (a new index): left");
            thief.searchRound++;
            assertSame(first, thief.stealFromOthers(true), "seen in an earlier round and still there: taken");

            owner.deque.push(first);
            assertNull(thief.stealFromOthers(true), "left in this round");
            assertSame(first, owner.deque.pop(), "its owner takes it, as in a chain of jobs");
            owner.deque.push(second);
            thief.searchRound++;
            assertNull(thief.stealFromOthers(true), "the next job sits at a new index: a new lone job, left again");
            thief.searchRound++;
            assertSame(second, thief.stealFromOthers(true), "and taken a round later");

            owner.deque.push(first);
            owner.deque.push(second);
            assertSame(first, thief.stealFromOthers(true), "two jobs are not a lone job: the oldest is taken at once");
        });
    }

    /**
     * What became of a lone job left tells what its owner does (docs/sleep.md section 4.6): still the oldest of
     * several means a producer, beside which the next lone job left is followed by the pause; popped by its owner
     * means a chain, beside which it is followed by one yield; taken a round later, unchanged, tells nothing.
     */
    @Test
    void aLoneJobFoundUnderMoreJobsMarksAProducerAndOnePoppedByItsOwnerAChain() throws Exception {
        onHeldWorkers(pool -> {
            Worker owner = pool.registry().workers[0];
            Worker thief = pool.registry().workers[1];
            Runnable job = () -> { };

            owner.deque.push(job);
            assertNull(thief.stealFromOthers(true), "a lone job: left");
            assertFalse(thief.producerSeen, "no verdict before the next look");
            owner.deque.push(job);
            owner.deque.push(job);
            assertSame(job, thief.stealFromOthers(true), "the job left, now the oldest of three: taken at once");
            assertTrue(thief.producerSeen, "its owner pushed more instead of popping it: a producer");

            assertSame(job, thief.stealFromOthers(true), "two left: the oldest taken at once");
            assertNull(thief.stealFromOthers(true), "the last one is a lone job: left");
            thief.searchRound++;
            assertSame(job, thief.stealFromOthers(true), "still there a round later: taken");
            assertTrue(thief.producerSeen, "an owner that neither popped nor pushed gives no verdict");

            owner.deque.push(job);
            assertNull(thief.stealFromOthers(true), "a lone job: left");
            assertSame(job, owner.deque.pop(), "its owner pops it, as in a chain of jobs");
            owner.deque.push(job);
            thief.searchRound++;
            assertNull(thief.stealFromOthers(true), "the chain's next job, at a new index: a new lone job, left");
            assertFalse(thief.producerSeen, "the job left was popped by its owner: a chain");
        });
    }

    /**
     * The first search of a worker just woken (docs/sleep.md sections 4.6 and 4.7): it takes a neighbour's lone job
     * at once, and it looks at the injector before the other deques, so an outside submission, the one wake-up
     * whose job is in no deque, is found without probing them. Stepped on held-back workers, as above: the test
     * thread plays worker 1's owner and searches as worker 0.
     */
    @Test
    void aWorkerJustWokenTakesTheInjectorsJobBeforeStealing() throws Exception {
        onHeldWorkers(pool -> {
            Worker searcher = pool.registry().workers[0];
            Worker neighbour = pool.registry().workers[1];
            Runnable local = () -> { };
            Runnable injected = () -> { };

            neighbour.deque.push(local);
            pool.registry().injector.push(injected);
            assertSame(injected, searcher.search(false, true, IdleState.ANYWHERE), "just woken: the injector comes first");
            assertSame(local, searcher.search(false, true, IdleState.ANYWHERE), "then the neighbour's lone job, at once");

            neighbour.deque.push(local);
            pool.registry().injector.push(injected);
            assertSame(local, searcher.search(false, false, IdleState.ANYWHERE), "an ordinary search steals before the injector");
            assertSame(injected, searcher.search(false, false, IdleState.ANYWHERE), "and finds the injector's job after the deques");
            assertNull(searcher.search(false, true, IdleState.ANYWHERE), "nothing left anywhere");
        });
    }

    /**
     * The evidence a worker's next sleep attempt uses (docs/sleep.md section 3.7): when it finds its deque empty
     * although it pushed since its last take, thieves took every job it pushed, which is what a worker that pops
     * its own posts sees when a neighbour takes them. A job that the worker's own idle search popped leaves the
     * same evidence, on purpose: that is an IO worker's spell running a coroutine its readiness listener resumed,
     * and the pause it earns is one look at the selector before the next sleep, which at a moderate rate often
     * finds the next request (docs/sleep.md section 3.7). Stepped on held-back workers, as above.
     */
    @Test
    void aWorkerNotesWhenThievesTookEveryJobItPushed() throws Exception {
        onHeldWorkers(pool -> {
            Worker owner = pool.registry().workers[0];
            Worker thief = pool.registry().workers[1];
            Runnable first = () -> { };
            Runnable second = () -> { };

            owner.push(first);
            assertSame(first, owner.takeOwnJob(), "the owner pops its own push");
            assertFalse(owner.ownJobsTaken, "nothing was taken from it");

            owner.push(first);
            assertSame(first, thief.stealFromOthers(false), "a thief takes the pushed job");
            assertNull(owner.takeOwnJob(), "the owner finds its deque empty");
            assertTrue(owner.ownJobsTaken, "every job it pushed since its last take was taken");
            owner.ownJobsTaken = false;

            assertNull(owner.takeOwnJob(), "empty again, but it pushed nothing since: no evidence");
            assertFalse(owner.ownJobsTaken);

            owner.push(first);
            owner.push(second);
            assertSame(first, thief.stealFromOthers(false), "a thief takes the older of two");
            assertSame(second, owner.takeOwnJob(), "the owner still finds the newer one");
            assertFalse(owner.ownJobsTaken, "not every job was taken");

            owner.push(first);
            assertSame(first, owner.search(false, false, IdleState.ANYWHERE), "the owner's search pops its push");
            assertNull(owner.takeOwnJob(), "then its deque is empty");
            assertTrue(owner.ownJobsTaken, "a search's pop is not its own take: the next spell looks once more");
            owner.ownJobsTaken = false;
            assertEquals(0, pool.statistics().naps(), "no worker ran: nobody napped");
        });
    }

    /** A step test's body: the pool, whose two workers' threads are held back while it runs. */
    interface HeldWorkers {
        void steps(ForagePool pool) throws Exception;
    }

    /** Runs {@code body} on a 2-worker pool whose threads wait at a gate, then opens the gate and closes it. */
    private static void onHeldWorkers(HeldWorkers body) throws Exception {
        onHeldWorkers(ForagePool.builder(), body);
    }

    /** {@link #onHeldWorkers(HeldWorkers)} for a pool of {@code builder}, with 2 threads held at the gate. */
    static void onHeldWorkers(ForagePoolBuilder builder, HeldWorkers body) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ForagePool pool = heldAtTheGate(builder, gate);
        try {
            body.steps(pool);
        } finally {
            gate.countDown();
            pool.close();
        }
    }

    /** A two-worker pool whose threads wait at {@code gate} before they run their worker loops. */
    private static ForagePool heldAtTheGate(ForagePoolBuilder builder, CountDownLatch gate) {
        ThreadFactory factory = r -> new Thread(() -> {
            awaitQuietly(gate);
            r.run();
        });
        return builder.threads(2).name(Pools.uniqueName()).threadFactory(factory).build();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {2, 3, 8})
    void aLoneJobBehindABlockedOwnerIsTaken(int threads) throws Exception {
        int trips = Pools.longRun() ? 100_000 : 5_000;
        try (ForagePool pool = Pools.pool(threads)) {
            for (int trip = 0; trip < trips; trip++) {
                if (trip % 256 == 255) {
                    Pools.awaitAllAsleep(pool); // some trips start from a pool where everyone sleeps
                }
                CountDownLatch ran = new CountDownLatch(1);
                CountDownLatch ownerDone = new CountDownLatch(1);
                pool.execute(() -> {
                    pool.execute(ran::countDown); // the only job on this worker's deque
                    try {
                        ran.await(); // blocks in user code: only another worker can run it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ownerDone.countDown();
                });
                awaitTrip(ownerDone, "trip " + trip + ": the lone job behind the blocked owner was taken", pool);
            }
        }
    }

    @Test
    void aLoneJobBehindABusyOwnerIsTaken() throws Exception {
        int trips = Pools.longRun() ? 100_000 : 5_000;
        try (ForagePool pool = Pools.pool(2)) {
            for (int trip = 0; trip < trips; trip++) {
                AtomicBoolean ran = new AtomicBoolean();
                CountDownLatch ownerDone = new CountDownLatch(1);
                pool.execute(() -> {
                    pool.execute(() -> ran.set(true));
                    while (!ran.get()) {
                        Thread.onSpinWait(); // busy, not blocked: the other worker must still take the job
                    }
                    ownerDone.countDown();
                });
                awaitTrip(ownerDone, "trip " + trip + ": the lone job behind the busy owner was taken", pool);
            }
        }
    }

    /** A trip's end, asserted: the other worker took the lone job within the bound (it does within microseconds). */
    private static void awaitTrip(CountDownLatch done, String what, ForagePool pool) throws InterruptedException {
        Watchdog.awaitLatch(what, java.time.Duration.ofSeconds(30), done, pool::toString);
    }
}
