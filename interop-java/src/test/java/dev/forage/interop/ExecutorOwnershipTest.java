package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Owning executor versus view over a shared pool: whose life cycle does shutdown end? */
@ExtendWith(Watchdog.class)
class ExecutorOwnershipTest {
    private final ForagePool shared = ForagePool.builder().threads(2).name("shared").build();
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void close() {
        never.countDown();
        shared.close();
    }

    @Test
    void shuttingAViewDownLeavesThePoolAndOtherViewsRunning() throws Exception {
        ForageExecutorService a = ForageExecutorService.viewOf(shared);
        ForageExecutorService b = ForageExecutorService.viewOf(shared);
        assertFalse(a.ownsPool());
        a.shutdown();
        assertTrue(a.isTerminated(), "a view with no tasks terminates at shutdown");
        assertFalse(shared.isShutdown());
        assertEquals(2, b.submit(() -> 2).get());
        assertThrows(RejectedExecutionException.class, () -> a.submit(() -> 1));
    }

    @Test
    void aViewsAwaitTerminationWaitsForItsOwnTasksOnly() throws Exception {
        ForageExecutorService busy = ForageExecutorService.viewOf(shared);
        ForageExecutorService idle = ForageExecutorService.viewOf(shared);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Future<String> f = busy.submit(() -> {
            started.countDown();
            release.await();
            return "done";
        });
        started.await();
        assertEquals(1, idle.submit(() -> 1).get());
        idle.shutdown();
        assertTrue(idle.awaitTermination(30, TimeUnit.SECONDS), "the other view's running task held this one up");
        busy.shutdown();
        assertFalse(busy.awaitTermination(10, TimeUnit.MILLISECONDS));
        assertFalse(busy.isTerminated());
        release.countDown();
        assertTrue(busy.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals("done", f.get());
        assertFalse(shared.isShutdown());
    }

    @Test
    void shutdownNowOfAViewTouchesOnlyItsOwnTasks() throws Exception {
        ForagePool one = ForagePool.builder().threads(1).name("one").build();
        try {
            ForageExecutorService view = ForageExecutorService.viewOf(one);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch otherRan = new CountDownLatch(1);
            Future<?> running = view.submit(() -> {
                started.countDown();
                never.await();
                return null;
            });
            started.await();
            one.execute(otherRan::countDown); // queued in the pool by someone else
            Future<Integer> mine = view.submit(() -> 1);
            List<Runnable> neverStarted = view.shutdownNow();
            assertEquals(List.of(mine), neverStarted);
            assertThrows(java.util.concurrent.ExecutionException.class, running::get); // interrupted
            assertTrue(otherRan.await(30, TimeUnit.SECONDS), "the pool's other job must still run");
            assertTrue(view.awaitTermination(30, TimeUnit.SECONDS));
            assertFalse(one.isShutdown());
        } finally {
            one.close();
        }
    }

    @Test
    void aWorkerAwaitingAViewsTerminationRunsThatViewsTasks() throws Exception {
        ForagePool one = ForagePool.builder().threads(1).name("one").build();
        try {
            ForageExecutorService awaited = ForageExecutorService.viewOf(one);
            ForageExecutorService caller = ForageExecutorService.viewOf(one);
            Future<Boolean> terminated = caller.submit(() -> {
                Future<Integer> queued = awaited.submit(() -> 1); // behind this task on the only worker
                awaited.shutdown();
                boolean done = awaited.awaitTermination(1, TimeUnit.HOURS);
                return done && queued.isDone();
            });
            assertTrue(terminated.get());
        } finally {
            one.close();
        }
    }

    @Test
    void anOwningExecutorShutsItsPoolDownAndWaitsForItsThreads() throws Exception {
        ForagePool pool = ForagePool.builder().threads(2).name("owned").build();
        ForageExecutorService executor = ForageExecutorService.owning(pool);
        assertTrue(executor.ownsPool());
        assertSame(pool, executor.pool());
        executor.submit(() -> 1).get();
        executor.shutdown();
        assertTrue(pool.isShutdown());
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(pool.isTerminated());
    }

    @Test
    void anOwningExecutorCannotAwaitItsOwnTerminationFromItsWorker() throws Exception {
        ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(1).build());
        try {
            Future<Throwable> f = executor.submit(() -> {
                try {
                    executor.awaitTermination(1, TimeUnit.SECONDS);
                    return null;
                } catch (IllegalStateException e) {
                    return e;
                }
            });
            Throwable e = f.get();
            assertTrue(e instanceof IllegalStateException && e.getMessage().contains("wait for itself"), "" + e);
        } finally {
            executor.close();
        }
    }

    @Test
    void theCommonPoolCanBeViewedButNotOwned() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForageExecutorService.owning(ForagePool.commonPool()));
        assertTrue(e.getMessage().contains("viewOf"), e.getMessage());
        ForageExecutorService view = ForageExecutorService.viewOfCommonPool();
        assertSame(ForagePool.commonPool(), view.submit(ForagePool::current).get());
        view.shutdown();
        assertTrue(view.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(3, ForageFutures.supplyAsync(() -> 3).join(), "the common pool keeps running");
    }

    @Test
    void aViewOverAPoolShutDownByItsOwnerRejectsWithTheReason() {
        ForagePool pool = ForagePool.builder().threads(1).build();
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        pool.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> view.submit(() -> 1));
        assertTrue(e.getMessage().contains("is shut down with its pool"), e.getMessage());
        view.shutdown();
        assertTrue(view.isTerminated(), "the rejected task must not count as live");
    }
}
