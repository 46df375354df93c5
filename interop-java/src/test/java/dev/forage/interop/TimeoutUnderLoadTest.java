package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code orTimeout} and {@code completeOnTimeout} keep their promise while every worker of the pool is busy
 * (spinning on the CPU) or blocked (on a latch nobody marked as blocking), as the JDK's {@code CompletableFuture}
 * does with its delayer thread: the pool's monitor completes the future. The pool has no blocking threads, so no
 * stand-in can be what fires it.
 *
 * <p>The workers are released only after the future completed; without the monitor the spinning case would
 * complete the future normally after the release and the blocked case never. {@link #BOUND} is the outer edge of
 * the contract (the monitor promises a few milliseconds), not a speed claim.
 */
@ExtendWith(Watchdog.class)
class TimeoutUnderLoadTest {
    private static final Duration BOUND = Watchdog.scaled(Duration.ofSeconds(20));

    private final ForagePool pool = ForagePool.builder().threads(2).maxBlockingThreads(0).name("held").build();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean released;

    @AfterEach
    void close() {
        released = true;
        release.countDown();
        pool.close();
    }

    /** Every worker runs a job that holds it until the test ends; returns their futures. */
    private ForageFuture<String> holdEveryWorker(boolean spin) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(2);
        ForageFuture<String> first = null;
        for (int i = 0; i < 2; i++) {
            ForageFuture<String> f = ForageFutures.supplyAsync(() -> {
                started.countDown();
                if (spin) {
                    while (!released) {
                        Thread.onSpinWait();
                    }
                } else {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return "normal";
            }, pool);
            if (first == null) {
                first = f;
            }
        }
        assertTrue(started.await(BOUND.getSeconds(), TimeUnit.SECONDS), "every worker took its job");
        return first;
    }

    @ParameterizedTest(name = "spinning workers: {0}")
    @ValueSource(booleans = {true, false})
    void orTimeoutFiresWhileEveryWorkerIsHeld(boolean spin) throws Exception {
        ForageFuture<String> held = holdEveryWorker(spin);
        CompletableFuture<String> timed = held.orTimeout(100, TimeUnit.MILLISECONDS);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> timed.get(BOUND.getSeconds(), TimeUnit.SECONDS),
                "the future did not time out while every worker was held");
        assertInstanceOf(TimeoutException.class, e.getCause());
    }

    @ParameterizedTest(name = "spinning workers: {0}")
    @ValueSource(booleans = {true, false})
    void completeOnTimeoutFiresWhileEveryWorkerIsHeld(boolean spin) throws Exception {
        ForageFuture<String> held = holdEveryWorker(spin);
        CompletableFuture<String> timed = held.completeOnTimeout("fallback", 100, TimeUnit.MILLISECONDS);
        assertEquals("fallback", timed.get(BOUND.getSeconds(), TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "spinning workers: {0}")
    @ValueSource(booleans = {true, false})
    void orTimeoutOfAForeignFutureFiresWhileEveryWorkerIsHeld(boolean spin) throws Exception {
        holdEveryWorker(spin);
        CompletableFuture<String> foreign = new CompletableFuture<>();
        ForageFutures.orTimeout(foreign, 100, TimeUnit.MILLISECONDS, pool);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> foreign.get(BOUND.getSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, e.getCause());
    }
}
