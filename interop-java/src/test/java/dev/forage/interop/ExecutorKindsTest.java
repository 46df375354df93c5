package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The two kinds of executor side by side, through every submission path: an owner, whose state is its pool's,
 * and a view, whose life cycle is its own. Each kind must keep to its column of the table in docs/java.md, and
 * every face of its state ({@code isShutdown}, {@code isTerminated}, {@code awaitTermination}, {@code toString})
 * must tell the same story at every step.
 */
@ExtendWith(Watchdog.class)
class ExecutorKindsTest {
    enum Kind {
        OWNER("executor owning pool kinds") {
            @Override
            ForageExecutorService over(ForagePool pool) {
                return ForageExecutorService.owning(pool);
            }
        },
        VIEW("view of pool kinds") {
            @Override
            ForageExecutorService over(ForagePool pool) {
                return ForageExecutorService.viewOf(pool);
            }
        };

        /** How the executor's messages name it. */
        final String who;

        Kind(String who) {
            this.who = who;
        }

        abstract ForageExecutorService over(ForagePool pool);
    }

    private final ForagePool pool = ForagePool.builder().threads(1).name("kinds").build();
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void close() {
        never.countDown();
        pool.close();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void onlyTheOwnersShutdownShutsThePoolDown(Kind kind) throws Exception {
        ForageExecutorService executor = kind.over(pool);
        assertEquals(kind == Kind.OWNER, executor.ownsPool());
        executor.shutdown();
        assertTrue(executor.isShutdown());
        assertEquals(kind == Kind.OWNER, pool.isShutdown(), "shutdown of the " + executor);
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), executor.toString());
        assertEquals(kind == Kind.OWNER, pool.isTerminated());
        if (kind == Kind.VIEW) {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(30, TimeUnit.SECONDS), "the pool under a shut-down view must keep running");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyFaceOfTheStateAgreesAtEveryStep(Kind kind) throws Exception {
        ForageExecutorService executor = kind.over(pool);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<String> running = executor.submit(() -> {
            started.countDown();
            release.await();
            return "finished";
        });
        started.await();
        assertState(executor, "running", false, false);
        executor.shutdown();
        assertState(executor, "shut down", true, false);
        release.countDown();
        assertEquals("finished", running.get());
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), executor.toString());
        assertState(executor, "terminated", true, true);
    }

    private static void assertState(ForageExecutorService executor, String state, boolean shutdown,
            boolean terminated) throws InterruptedException {
        String described = executor.toString();
        assertTrue(described.contains(", " + state), "expected " + state + ": " + described);
        assertEquals(shutdown, executor.isShutdown(), described);
        assertEquals(terminated, executor.isTerminated(), described);
        assertEquals(terminated, executor.awaitTermination(0, TimeUnit.SECONDS), described);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shutdownNowTakesBackWhatEverySubmissionPathQueued(Kind kind) throws Exception {
        ForageExecutorService executor = kind.over(pool);
        CountDownLatch started = new CountDownLatch(1);
        Future<?> blocker = executor.submit(() -> {
            started.countDown();
            never.await(); // holds the only worker until shutdownNow interrupts it
            return null;
        });
        started.await();
        Runnable executed = () -> { };
        Future<Integer> submitted = executor.submit(() -> 1);
        ScheduledFuture<Integer> delayed = executor.schedule(() -> 2, 1, TimeUnit.HOURS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        executor.execute(executed);

        List<Runnable> neverStarted = executor.shutdownNow();

        assertEquals(Set.of(executed, submitted, delayed, periodic), new HashSet<>(neverStarted));
        assertEquals(4, neverStarted.size(), "each task once: " + neverStarted);
        for (Future<?> f : List.of(submitted, delayed, periodic)) {
            assertFalse(f.isDone(), "handed back neither run nor cancelled: " + f);
        }
        assertThrows(ExecutionException.class, blocker::get, "the running task is interrupted");
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), executor.toString());
        assertEquals(kind == Kind.OWNER, pool.isShutdown());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void afterShutdownEverySubmissionPathRejectsNamingTheKind(Kind kind) {
        ForageExecutorService executor = kind.over(pool);
        executor.shutdown();
        Callable<Integer> one = () -> 1;
        List<Executable> paths = List.of(
                () -> executor.execute(() -> { }),
                () -> executor.submit(one),
                () -> executor.submit(() -> { }),
                () -> executor.schedule(one, 1, TimeUnit.SECONDS),
                () -> executor.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS),
                () -> executor.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.SECONDS),
                () -> executor.invokeAll(List.of(one)),
                () -> executor.invokeAny(List.of(one)));
        for (int i = 0; i < paths.size(); i++) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, paths.get(i),
                    "submission path " + i);
            assertTrue(e.getMessage().startsWith("the " + kind.who + " is shut down"), e.getMessage());
            // invokeAll cancels the tasks it created; a rejected one must not leave the executor's books.
            assertTrue(executor.isShutdown(), "after submission path " + i + ": " + executor);
        }
    }

    /**
     * A view counts every dispatch it hands to the pool, on every path, and each must leave the count exactly
     * once: a leak keeps the view from terminating, a double release terminates it too early.
     */
    @Test
    void aViewsCountReturnsToZeroAfterEverySubmissionPath() throws Exception {
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        CountDownLatch executed = new CountDownLatch(1);
        view.execute(executed::countDown);
        assertEquals(1, view.submit(() -> 1).get());
        assertEquals(2, view.schedule(() -> 2, 1, TimeUnit.MILLISECONDS).get());
        assertEquals(2, view.invokeAll(List.<Callable<Integer>>of(() -> 3, () -> 4)).size());
        assertEquals(5, view.invokeAny(List.<Callable<Integer>>of(() -> 5)));
        CountDownLatch threeRuns = new CountDownLatch(3);
        ScheduledFuture<?> periodic = view.scheduleWithFixedDelay(threeRuns::countDown, 0, 1, TimeUnit.MILLISECONDS);
        assertTrue(threeRuns.await(30, TimeUnit.SECONDS));
        periodic.cancel(false);
        Future<?> cancelled = view.schedule(() -> { }, 1, TimeUnit.HOURS);
        cancelled.cancel(false);
        assertTrue(executed.await(30, TimeUnit.SECONDS));
        Eventually.until("the view's count back to zero: " + view, () -> view.toString().endsWith("tasks=0]"));

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        view.submit(() -> {
            started.countDown();
            release.await();
            return null;
        });
        started.await();
        view.shutdown();
        assertFalse(view.isTerminated(), "one task still runs: " + view);
        release.countDown();
        assertTrue(view.awaitTermination(30, TimeUnit.SECONDS), view.toString());
        assertFalse(pool.isShutdown());
    }
}
