package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.JoinResult;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import dev.forage.testing.Fib;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Virtual threads calling into a Forage pool: many at once, each waiting in {@code install}, {@code join}, a
 * {@link ForageFuture}'s {@code join()} and an executor future's {@code get()}. A virtual thread waiting there parks
 * (a lock condition or {@code LockSupport.park}), so it leaves its carrier, and the pool's workers never wait for it.
 * Needs JDK 21 (compiled for 17, so the virtual-thread executor is looked up reflectively); .ci/run runs this
 * module again on JDK 25. docs/integrations.md, "Virtual threads".
 */
@Watchdog.Budget(seconds = 120)
@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "virtual threads need JDK 21 or newer; .ci/run runs this "
        + "test on JDK 25")
class VirtualThreadsTest {
    private static final int CALLERS = 10_000;

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, closable in a Java 17 try-with-resources. */
    private static final class VirtualThreads implements AutoCloseable {
        final ExecutorService executor;

        VirtualThreads() throws ReflectiveOperationException {
            executor = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        }

        <T> Future<T> submit(Callable<T> task) {
            return executor.submit(task);
        }

        @Override
        public void close() throws InterruptedException {
            executor.shutdown();
            assertTrue(executor.awaitTermination(60, TimeUnit.SECONDS), "the virtual threads ended");
        }
    }

    private static boolean isVirtual(Thread t) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }


    @Test
    void tenThousandVirtualThreadsWaitOnThePoolAtOnce() throws Exception {
        try (ForageExecutorService executor =
                     ForageExecutorService.owning(ForagePool.builder().threads(2).name("vt").build());
             VirtualThreads callers = new VirtualThreads()) {
            ForagePool pool = executor.pool();
            // Every caller first reaches the gate, so that all of them are in the pool's waits at the same time.
            CountDownLatch gate = new CountDownLatch(1);
            AtomicInteger virtualCallers = new AtomicInteger();
            List<Future<Long>> results = new ArrayList<>(CALLERS);
            for (int i = 0; i < CALLERS; i++) {
                final int k = i;
                results.add(callers.submit(() -> {
                    if (isVirtual(Thread.currentThread())) {
                        virtualCallers.incrementAndGet();
                    }
                    gate.await();
                    long installed = pool.install(() -> Fib.join(pool, 12));                     // 144
                    JoinResult<Integer, Integer> joined = pool.join(() -> k, () -> 1);      // k, 1
                    ForageFuture<Integer> future = ForageFutures.supplyAsync(() -> k * 2, pool);
                    Future<Integer> submitted = executor.submit(() -> k * 3);
                    return installed + joined.first() + joined.second() + future.join()
                            + submitted.get(60, TimeUnit.SECONDS);
                }));
            }
            gate.countDown();
            long sum = 0;
            for (Future<Long> r : results) {
                sum += r.get(120, TimeUnit.SECONDS);
            }
            long n = CALLERS;
            // Each caller k returns 144 + k + 1 + 2k + 3k = 145 + 6k.
            assertEquals(145 * n + 6 * n * (n - 1) / 2, sum);
            assertEquals(CALLERS, virtualCallers.get(), "every caller ran on a virtual thread");
            assertTrue(pool.statistics().jobsRun() > 0);
        }
    }

    @Test
    void aWorkerIsNotHeldWhileAVirtualThreadWaitsOnALatch() throws Exception {
        // A one-worker pool: if a virtual thread's wait held the worker, the second task could never run.
        try (ForageExecutorService executor =
                     ForageExecutorService.owning(ForagePool.builder().threads(1).name("vt-latch").build());
             VirtualThreads callers = new VirtualThreads()) {
            CountDownLatch released = new CountDownLatch(1);
            Future<String> waiter = callers.submit(() -> {
                released.await();                                           // parks the virtual thread only
                return executor.submit(() -> "after the latch").get(60, TimeUnit.SECONDS);
            });
            assertEquals("meanwhile", executor.submit(() -> {
                released.countDown();                                       // the worker is free to do this
                return "meanwhile";
            }).get(60, TimeUnit.SECONDS));
            assertEquals("after the latch", waiter.get(60, TimeUnit.SECONDS));
        }
    }
}
