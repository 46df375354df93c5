package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * {@link ForagePool#executeFair}: behind the jobs already queued. On a worker with no outside job waiting it stays
 * on the worker's own deque (and takes turns with its neighbours); with outside jobs waiting it goes behind them.
 * One-worker pools, so the order is deterministic.
 */
@Watchdog.Budget(seconds = 60)
class ExecuteFairTest {
    /** A job that records its name and re-submits itself with executeFair until its rounds are done. */
    private static final class Resubmitting implements Runnable {
        final ForagePool pool;
        final String name;
        final List<String> trace; // only touched by the pool's one worker; read after `done`
        final CountDownLatch done;
        int left;

        Resubmitting(ForagePool pool, String name, int rounds, List<String> trace, CountDownLatch done) {
            this.pool = pool;
            this.name = name;
            this.left = rounds;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void run() {
            trace.add(name);
            if (--left > 0) {
                pool.executeFair(this);
            } else {
                done.countDown();
            }
        }
    }

    @Test
    void onAWorkerFairJobsTakeTurnsOnTheOwnDequeWithoutTheInjector() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            List<String> trace = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(2);
            CountDownLatch seeded = new CountDownLatch(1);
            pool.execute(() -> { // the only outside job
                pool.execute(new Resubmitting(pool, "a", 5, trace, done)); // own deque
                pool.execute(new Resubmitting(pool, "b", 5, trace, done));
                seeded.countDown();
            });
            seeded.await();
            done.await();
            // a waits in the worker's next slot, b in the ring behind it: a runs first, and every re-submission
            // then goes behind the other job. A re-submission that went on top of the deque (LIFO) would give
            // a a a a a b b b b b.
            assertEquals(List.of("a", "b", "a", "b", "a", "b", "a", "b", "a", "b"), trace);
            Pools.awaitAllAsleep(pool);
            // Nothing went through the injector but the outside job: the local path, not a round trip through
            // the shared queue.
            assertEquals(1, pool.statistics().injectedJobs(), pool.statistics().toString());
        }
    }

    @Test
    void withOutsideJobsWaitingAFairJobGoesBehindThem() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            List<String> trace = new ArrayList<>(); // only touched by the pool's one worker
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch outsideQueued = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                started.countDown();
                try {
                    outsideQueued.await(); // x1 and x2 wait in the injector now
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                pool.execute(() -> trace.add("local")); // own deque, LIFO: runs next
                pool.executeFair(() -> {
                    trace.add("fair");
                    done.countDown();
                });
            });
            // Queued once the worker runs the first job: had they been queued before its look at the injector, it
            // would have taken them along with it, onto its own deque (a batch, docs/sleep.md section 3.9).
            started.await();
            pool.execute(() -> trace.add("x1"));
            pool.execute(() -> trace.add("x2"));
            outsideQueued.countDown();
            done.await();
            // "fair" went to the injector behind x1 and x2; on the own deque it would have run before them.
            assertEquals(List.of("local", "x1", "x2", "fair"), trace);
        }
    }
}
