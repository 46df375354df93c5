package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.QueueFullPolicy;
import dev.forage.testing.LongNamedTask;
import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ExecutorService faces over a pool with a bounded queue: a refusal says the queue is full (not that the
 * executor is shut down), the executor stays usable, and under caller-runs a task submitted to a full queue runs
 * on the submitting thread and its future completes.
 */
@ExtendWith(Watchdog.class)
class QueueFullFacadeTest {
    @ParameterizedTest
    @EnumSource(ExecutorKindsTest.Kind.class)
    void aFullQueueRefusesWithItsOwnReasonAndTheExecutorGoesOn(ExecutorKindsTest.Kind kind) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).queueCapacity(1).name("full-" + kind).build();
        ForageExecutorService executor = kind.over(pool);
        try {
            CountDownLatch hold = hold(executor);
            executor.submit(() -> { }); // the queue's one place
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> executor.submit(() -> { }));
            assertTrue(e.getMessage().contains("queue capacity exceeded (queueCapacity 1)"), e.getMessage());
            assertTrue(e.getCause().getMessage().contains("the injector holds 1 jobs"), e.getCause().getMessage());
            assertFalse(e.getMessage().contains("shut down"), e.getMessage());
            // The task is named once, briefly: the pool's message, which names it too, is the cause, not quoted.
            RejectedExecutionException named = assertThrows(RejectedExecutionException.class,
                    () -> executor.execute(new LongNamedTask()));
            LongNamedTask.assertNamesItOnce(named);
            assertTrue(named.getMessage().startsWith("the " + kind.who.replace("kinds", pool.name()) + " rejected "),
                    named.getMessage());
            assertFalse(executor.isShutdown());
            hold.countDown();
            Watchdog.awaitCondition("the queue drained", Watchdog.LIMIT,
                    () -> pool.statistics().injectorQueuedJobs() == 0, pool::toString);
            assertEquals("after", executor.submit(() -> "after").get(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS));
        } finally {
            executor.shutdown();
            pool.close();
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutorKindsTest.Kind.class)
    void underCallerRunsASubmissionToAFullQueueRunsHereAndItsFutureCompletes(ExecutorKindsTest.Kind kind)
            throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).queueCapacity(1)
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS).name("caller-runs-" + kind).build();
        ForageExecutorService executor = kind.over(pool);
        try {
            CountDownLatch hold = hold(executor);
            executor.submit(() -> { }); // the queue's one place
            Future<Thread> ranOn = executor.submit(Thread::currentThread);
            assertTrue(ranOn.isDone(), "ran before submit returned");
            assertEquals(Thread.currentThread(), ranOn.get());
            hold.countDown();
        } finally {
            executor.shutdown();
            assertTrue(executor.awaitTermination(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS));
            pool.close();
        }
    }

    /** Occupies the pool's only worker until the latch is counted down. */
    private static CountDownLatch hold(ForageExecutorService executor) throws InterruptedException {
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        executor.execute(() -> {
            running.countDown();
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.await();
        return hold;
    }
}
