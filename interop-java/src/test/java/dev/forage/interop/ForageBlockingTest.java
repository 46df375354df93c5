package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Blocking calls from pool jobs: the worker keeps working, the call's outcome comes back unchanged. */
@ExtendWith(Watchdog.class)
class ForageBlockingTest {
    /** One worker: a blocking call that blocked it would deadlock the tests below. */
    private final ForagePool one = ForagePool.builder().threads(1).name("one").build();

    @AfterEach
    void close() {
        one.close();
    }

    @Test
    void outsideThePoolTheCallRunsInline() throws Exception {
        assertSame(Thread.currentThread(), ForageBlocking.call(Thread::currentThread));
        Thread[] ranOn = new Thread[1];
        ForageBlocking.run(() -> ranOn[0] = Thread.currentThread());
        assertSame(Thread.currentThread(), ranOn[0]);
    }

    @Test
    void onAWorkerTheCallRunsElsewhereWhileTheWorkerRunsOtherJobs() {
        CountDownLatch callStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ForageFuture<String> blocking = ForageFutures.supplyAsync(() -> {
            try {
                return ForageBlocking.call(() -> {
                    callStarted.countDown();
                    release.await(); // released by a job that needs the only worker
                    return Thread.currentThread().getName();
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, one);
        await(callStarted);
        ForageFutures.runAsync(release::countDown, one); // runs only if the waiting worker helps
        assertTrue(blocking.join().startsWith("forage-blocking-"), blocking.join());
    }

    @Test
    void theCallsExceptionComesBackUnchanged() {
        IOException io = new IOException("disk");
        Throwable seen = ForageFutures.supplyAsync(() -> {
            try {
                ForageBlocking.call(() -> {
                    throw io;
                });
                return null;
            } catch (Exception e) {
                return e;
            }
        }, one).join();
        assertSame(io, seen);
        IllegalStateException unchecked = new IllegalStateException("state");
        CompletableFuture<Void> run = ForageFutures.runAsync(() -> ForageBlocking.run(() -> {
            throw unchecked;
        }), one);
        assertSame(unchecked, assertThrows(java.util.concurrent.CompletionException.class, run::join).getCause());
    }

    @Test
    void shutdownNowInterruptsTheBlockingCallOfARunningTask() throws Exception {
        ForageExecutorService executor = ForageExecutorService.viewOf(one);
        CountDownLatch callStarted = new CountDownLatch(1);
        CompletableFuture<Throwable> seenByTheCall = new CompletableFuture<>();
        Future<?> task = executor.submit(() -> ForageBlocking.call(() -> {
            callStarted.countDown();
            try {
                new CountDownLatch(1).await();
                return null;
            } catch (InterruptedException e) {
                seenByTheCall.complete(e);
                throw e;
            }
        }));
        await(callStarted);
        executor.shutdownNow();
        assertInstanceOf(InterruptedException.class, seenByTheCall.get(30, TimeUnit.SECONDS));
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertInstanceOf(InterruptedException.class,
                assertThrows(java.util.concurrent.ExecutionException.class, task::get).getCause());
    }

    @Test
    void anInterruptPendingOnTheWorkerTravelsWithTheCall() {
        Boolean callSawIt = ForageFutures.supplyAsync(() -> {
            Thread.currentThread().interrupt();
            try {
                return ForageBlocking.call(() -> Thread.currentThread().isInterrupted());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, one).join();
        assertTrue(callSawIt, "the call did not see the interrupt it would have seen inline");
        // And the flag the call left set came back to the worker's job:
        assertTrue(ForageFutures.supplyAsync(() -> {
            Thread.currentThread().interrupt();
            try {
                ForageBlocking.call(() -> null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return Thread.interrupted();
        }, one).join());
    }

    @Test
    void theLimitIsReported() {
        assertEquals(Integer.getInteger(ForageBlocking.MAX_THREADS_PROPERTY, ForageBlocking.DEFAULT_MAX_THREADS),
                ForageBlocking.maxThreads());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
