package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Fire-and-forget failures go to the pool's handler, and no worker dies of them. */
@Watchdog.Budget(seconds = 120)
class UncaughtExceptionTest {
    private static final class Recorded {
        final Thread thread;
        final Throwable error;

        Recorded(Thread thread, Throwable error) {
            this.thread = thread;
            this.error = error;
        }
    }

    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

    private ForagePool poolWithHandler(int threads, boolean handlerFails) {
        return ForagePool.builder().threads(threads).name(Pools.uniqueName())
                .uncaughtExceptionHandler((t, e) -> {
                    recorded.add(new Recorded(t, e));
                    if (handlerFails) {
                        throw new IllegalStateException("the handler itself fails");
                    }
                })
                .build();
    }

    @Test
    void theHandlerGetsTheFailureWithTheWorkerThread() throws Exception {
        try (ForagePool pool = poolWithHandler(2, false)) {
            IllegalStateException boom = new IllegalStateException("fire and forget");
            CountDownLatch after = new CountDownLatch(1);
            pool.execute(() -> {
                throw boom;
            });
            pool.execute(after::countDown);
            after.await();
            dev.forage.testing.Poll.until("handler called", () -> !recorded.isEmpty(), recorded::toString);
            assertEquals(1, recorded.size());
            assertSame(boom, recorded.get(0).error);
            assertTrue(Pools.workerThreads(pool).contains(recorded.get(0).thread));
        }
    }

    /**
     * Every worker fails a job (a RuntimeException, then an Error), and afterwards every worker still runs
     * jobs on the very same threads.
     */
    @Test
    void everyWorkerSurvivesRuntimeExceptionsAndErrors() throws Exception {
        int threads = 4;
        try (ForagePool pool = poolWithHandler(threads, false)) {
            Set<Thread> before = Pools.runOnEveryWorker(pool, () -> { });
            assertEquals(new HashSet<>(Pools.workerThreads(pool)), before);

            Set<Thread> failedRuntime = Pools.runOnEveryWorker(pool, () -> {
                throw new IllegalArgumentException("runtime");
            });
            Set<Thread> failedError = Pools.runOnEveryWorker(pool, () -> {
                throw new JoinTest.TestError("error");
            });
            assertEquals(before, failedRuntime);
            assertEquals(before, failedError);
            dev.forage.testing.Poll.until("handler saw all failures", () -> recorded.size() == 2 * threads,
                    () -> recorded.size() + " recorded");

            Set<Thread> after = Pools.runOnEveryWorker(pool, () -> { });
            assertEquals(before, after, "worker threads were replaced or lost");
            for (Thread t : after) {
                assertTrue(t.isAlive());
            }
            Set<Thread> handlerThreads = new HashSet<>();
            for (Recorded r : recorded) {
                handlerThreads.add(r.thread);
            }
            assertEquals(before, handlerThreads, "each worker reported its own failures");
        }
    }

    @Test
    void aFailingHandlerDoesNotKillTheWorkerEither() throws Exception {
        try (ForagePool pool = poolWithHandler(2, true)) {
            Set<Thread> before = Pools.runOnEveryWorker(pool, () -> { });
            Pools.runOnEveryWorker(pool, () -> {
                throw new IllegalStateException("job");
            });
            Set<Thread> after = Pools.runOnEveryWorker(pool, () -> { });
            assertEquals(before, after);
        }
    }

    @Test
    void failuresOfFairAndTimedJobsGoToTheHandlerToo() throws Exception {
        try (ForagePool pool = poolWithHandler(2, false)) {
            IllegalStateException fair = new IllegalStateException("fair");
            IllegalStateException timed = new IllegalStateException("timed");
            pool.executeFair(() -> {
                throw fair;
            });
            pool.schedule(() -> {
                throw timed;
            }, 1, TimeUnit.MILLISECONDS);
            dev.forage.testing.Poll.until("both failures handled", () -> recorded.size() == 2,
                    () -> recorded.size() + " recorded");
            Set<Throwable> errors = new HashSet<>();
            for (Recorded r : recorded) {
                errors.add(r.error);
            }
            assertEquals(Set.of(fair, timed), errors);
            assertEquals(1, pool.install(() -> 1));
        }
    }
}
