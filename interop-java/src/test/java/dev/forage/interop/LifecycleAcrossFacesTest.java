package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One pool, several faces: the pool itself, an executor that owns it, and a view over it. Whichever face shuts
 * the pool down, every face must then tell the same story: shut down at once, terminated once the pool is.
 */
@ExtendWith(Watchdog.class)
class LifecycleAcrossFacesTest {

    /** The ways a pool can be shut down, through each of its faces. */
    enum Closer {
        POOL_SHUTDOWN {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                pool.shutdown();
            }
        },
        POOL_CLOSE {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                pool.close(); // what the Kotlin ForageDispatcher.close() does to its pool
            }
        },
        POOL_SHUTDOWN_NOW {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                pool.shutdownNow();
            }
        },
        EXECUTOR_SHUTDOWN {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                owner.shutdown();
            }
        },
        EXECUTOR_SHUTDOWN_NOW {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                owner.shutdownNow();
            }
        },
        EXECUTOR_CLOSE {
            @Override
            void close(ForagePool pool, ForageExecutorService owner) {
                owner.close();
            }
        };

        abstract void close(ForagePool pool, ForageExecutorService owner);
    }

    @ParameterizedTest
    @EnumSource(Closer.class)
    void everyFaceReportsShutdownAndTerminationWhicheverFaceClosedThePool(Closer closer) throws Exception {
        String name = "faces-" + closer.name().toLowerCase();
        ForagePool pool = ForagePool.builder().threads(2).name(name).build();
        ForageExecutorService owner = ForageExecutorService.owning(pool);
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        assertEquals(3, owner.submit(() -> 3).get());
        assertEquals(4, view.submit(() -> 4).get());
        assertFalse(owner.isShutdown());
        assertFalse(view.isShutdown());
        assertTrue(owner.toString().contains("running"), owner.toString());
        assertTrue(view.toString().contains("running"), view.toString());

        closer.close(pool, owner);

        assertTrue(pool.isShutdown());
        assertTrue(owner.isShutdown(), "the owner of a shut-down pool says it is running: " + owner);
        assertTrue(view.isShutdown(), "a view of a shut-down pool says it is running: " + view);
        assertTrue(owner.awaitTermination(30, TimeUnit.SECONDS), "the pool terminated, its owner did not: " + owner);
        assertTrue(pool.isTerminated());
        assertTrue(owner.isTerminated());
        assertTrue(view.awaitTermination(30, TimeUnit.SECONDS), view.toString());
        assertTrue(view.isTerminated());
        assertTrue(owner.toString().contains("terminated"), owner.toString());
        assertTrue(view.toString().contains("terminated"), view.toString());

        for (ForageExecutorService face : List.of(owner, view)) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> face.submit(() -> 1));
            assertTrue(e.getMessage().contains("pool " + name), e.getMessage());
            e = assertThrows(RejectedExecutionException.class, () -> face.execute(() -> { }));
            assertTrue(e.getMessage().contains("pool " + name), e.getMessage());
            e = assertThrows(RejectedExecutionException.class, () -> face.schedule(() -> 1, 1, TimeUnit.SECONDS));
            assertTrue(e.getMessage().contains("pool " + name), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Closer.class, names = {"POOL_SHUTDOWN", "EXECUTOR_SHUTDOWN"})
    void whileATaskStillRunsEveryFaceIsShutDownButNotTerminated(Closer closer) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("draining").build();
        ForageExecutorService owner = ForageExecutorService.owning(pool);
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<String> running = view.submit(() -> {
            started.countDown();
            release.await();
            return "finished";
        });
        started.await();
        closer.close(pool, owner);
        try {
            assertTrue(owner.isShutdown());
            assertTrue(view.isShutdown());
            assertTrue(view.toString().contains("shut down"), view.toString());
            assertFalse(owner.isTerminated());
            assertFalse(view.isTerminated());
            assertFalse(owner.awaitTermination(0, TimeUnit.SECONDS));
            assertFalse(owner.awaitTermination(-1, TimeUnit.SECONDS), "a negative timeout means: do not wait");
            assertFalse(view.awaitTermination(-1, TimeUnit.SECONDS));
        } finally {
            release.countDown();
        }
        assertEquals("finished", running.get());
        assertTrue(owner.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(view.awaitTermination(30, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(value = Closer.class, names = {"POOL_SHUTDOWN", "EXECUTOR_SHUTDOWN"})
    void aTaskSubmittingAfterThePoolShutDownIsRejectedByEveryFace(Closer closer) throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("inner").build();
        ForageExecutorService owner = ForageExecutorService.owning(pool);
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch shutDown = new CountDownLatch(1);
        Future<List<String>> inner = view.submit(() -> {
            started.countDown();
            shutDown.await();
            String a = outcome(() -> owner.execute(() -> { }));
            String b = outcome(() -> view.execute(() -> { }));
            return List.of(a, b);
        });
        started.await();
        closer.close(pool, owner);
        shutDown.countDown();
        List<String> outcomes = inner.get();
        assertTrue(outcomes.get(0).startsWith("rejected") && outcomes.get(0).contains("pool inner"),
                "the owner accepted a task from a running task after shutdown: " + outcomes.get(0));
        assertTrue(outcomes.get(1).startsWith("rejected") && outcomes.get(1).contains("pool inner"),
                "the view accepted a task from a running task after shutdown: " + outcomes.get(1));
        assertTrue(owner.awaitTermination(30, TimeUnit.SECONDS));
    }

    private static String outcome(Runnable submission) {
        try {
            submission.run();
            return "accepted";
        } catch (RejectedExecutionException e) {
            return "rejected: " + e.getMessage();
        }
    }

    @Test
    void aViewWhoseQueuedTaskThePoolsOwnerTookBackTerminatesWithThePool() throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("taken").build();
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(); // until shutdownNow interrupts it
            } catch (InterruptedException expected) {
                // ends the job
            }
        });
        started.await();
        Future<Integer> queued = view.submit(() -> 1); // behind the blocker on the only worker
        List<Runnable> neverStarted = pool.shutdownNow();
        assertEquals(1, neverStarted.size());
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(view.awaitTermination(30, TimeUnit.SECONDS),
                "no task of the view can run any more, yet it waits: " + view);
        assertTrue(view.isTerminated());
        assertFalse(queued.isDone(), "the task went to whoever called shutdownNow, unrun");
    }

    @Test
    void everyMessageOfAnExecutorNamesItsPool() throws Exception {
        ForagePool pool = ForagePool.builder().threads(1).name("named").build();
        ForageExecutorService owner = ForageExecutorService.owning(pool);
        ForageExecutorService view = ForageExecutorService.viewOf(pool);
        try {
            for (ForageExecutorService face : List.of(owner, view)) {
                assertNames(assertThrows(NullPointerException.class, () -> face.execute(null)));
                assertNames(assertThrows(NullPointerException.class, () -> face.submit((Runnable) null)));
                assertNames(assertThrows(NullPointerException.class, () -> face.invokeAll(null)));
                assertNames(assertThrows(NullPointerException.class, () -> face.invokeAny(null)));
                assertNames(assertThrows(IllegalArgumentException.class, () -> face.invokeAny(List.of())));
                assertNames(assertThrows(NullPointerException.class, () -> face.schedule(() -> 1, 1, null)));
                assertNames(assertThrows(IllegalArgumentException.class,
                        () -> face.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS)));
                assertNames(assertThrows(NullPointerException.class, () -> face.awaitTermination(1, null)));
            }
            Future<Throwable> selfWait = owner.submit(() -> {
                try {
                    owner.awaitTermination(1, TimeUnit.SECONDS);
                    return null;
                } catch (IllegalStateException e) {
                    return e;
                }
            });
            assertNames(selfWait.get());
            view.shutdown();
            assertNames(assertThrows(RejectedExecutionException.class, () -> view.submit(() -> 1)));
        } finally {
            owner.close();
        }
    }

    private static void assertNames(Throwable e) throws ExecutionException {
        assertTrue(e != null && e.getMessage() != null && e.getMessage().contains("pool named"),
                "the message does not say which pool: " + e);
    }
}
