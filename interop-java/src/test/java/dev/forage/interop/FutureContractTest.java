package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** CompletableFuture's contract on ForageFuture: return types, timeouts from the pool, cancellation. */
@ExtendWith(Watchdog.class)
class FutureContractTest {
    private final ForagePool pool = ForagePool.builder().threads(2).name("futures").build();

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void everyStageMethodDeclaresForageFutureAsItsType() throws Exception {
        List<String> plain = new ArrayList<>();
        for (Method m : ForageFuture.class.getMethods()) {
            if (m.isBridge() || Modifier.isStatic(m.getModifiers())
                    || !CompletionStage.class.isAssignableFrom(m.getReturnType())) {
                continue;
            }
            String name = m.getName();
            if (name.equals("newIncompleteFuture") || name.equals("minimalCompletionStage")
                    || name.startsWith("exceptionally") && m.getDeclaringClass() == CompletableFuture.class) {
                continue; // the JDK's hook; a deliberately minimal stage; Java 12 methods the JDK serves by the hook
            }
            if (m.getReturnType() != ForageFuture.class) {
                plain.add(name + " returns " + m.getReturnType().getSimpleName());
            }
        }
        assertEquals(List.of(), plain);
        assertSame(ForageFuture.class, ForageFuture.class.getMethod("orTimeout", long.class, TimeUnit.class)
                .getReturnType());
        assertSame(ForageFuture.class, ForageFuture.class.getMethod("completeOnTimeout", Object.class, long.class,
                TimeUnit.class).getReturnType());
    }

    @Test
    void orTimeoutReturnsTheFutureItselfAndFiresFromAPoolWorker() throws Exception {
        ForageFuture<String> f = ForageFutures.newFuture(pool);
        CompletableFuture<String> firedOn = f.handle((v, e) -> Thread.currentThread().getName()).toCompletableFuture();
        ForageFuture<String> same = f.orTimeout(1, TimeUnit.MILLISECONDS); // compiles only with ForageFuture's type
        assertSame(f, same);
        assertFiredByThePool(firedOn.get(30, TimeUnit.SECONDS), "orTimeout");
        CompletionException e = assertThrows(CompletionException.class, f::join);
        assertInstanceOf(TimeoutException.class, e.getCause());
    }

    @Test
    void throughACompletableFutureReferenceTheTimeoutsStillUseThePool() throws Exception {
        CompletableFuture<String> viaJdkType = ForageFutures.newFuture(pool);
        CompletableFuture<String> firedOn = viaJdkType.handle((v, e) -> Thread.currentThread().getName());
        assertSame(viaJdkType, viaJdkType.orTimeout(1, TimeUnit.MILLISECONDS));
        assertFiredByThePool(firedOn.get(30, TimeUnit.SECONDS), "orTimeout through a CompletableFuture reference");

        CompletableFuture<String> defaulted = ForageFutures.newFuture(pool);
        CompletableFuture<String> completedOn = defaulted.thenApply(v -> Thread.currentThread().getName());
        assertSame(defaulted, defaulted.completeOnTimeout("default", 1, TimeUnit.MILLISECONDS));
        assertFiredByThePool(completedOn.get(30, TimeUnit.SECONDS), "completeOnTimeout");
        assertEquals("default", defaulted.join());
    }

    @Test
    void completeAsyncAndCopyStayOnThePool() throws Exception {
        ForageFuture<String> f = ForageFutures.newFuture(pool);
        ForageFuture<String> completed = f.completeAsync(() -> "async");
        assertSame(f, completed);
        assertEquals("async", f.get(30, TimeUnit.SECONDS));
        ForageFuture<String> copy = f.copy();
        assertSame(pool, copy.pool());
        assertEquals("async", copy.join());
        CompletableFuture<String> viaJdkType = f;
        assertInstanceOf(ForageFuture.class, viaJdkType.copy(), "the JDK's copy() ran instead of ForageFuture's");
    }

    @Test
    void timeoutsOnAShutDownPoolAreRejectedNamingThePool() {
        ForageFuture<String> f = ForageFutures.newFuture(pool);
        pool.shutdown();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> f.orTimeout(1, TimeUnit.SECONDS));
        assertTrue(e.getMessage().contains("pool futures"), e.getMessage());
        assertThrows(RejectedExecutionException.class, () -> f.completeOnTimeout("x", 1, TimeUnit.SECONDS));
        assertFalse(f.isDone());
    }

    @Test
    void asyncStagesWithoutAnExecutorRunOnThePool() throws Exception {
        ForageFuture<Integer> source = ForageFutures.supplyAsync(() -> 1, pool);
        assertSame(pool, source.thenApplyAsync(v -> ForagePool.current()).get(30, TimeUnit.SECONDS));
        assertSame(pool, source.thenCombineAsync(source, (a, b) -> ForagePool.current()).get(30, TimeUnit.SECONDS));
        assertSame(pool, source.handleAsync((v, e) -> ForagePool.current()).get(30, TimeUnit.SECONDS));
        assertSame(pool, source.thenComposeAsync(v -> CompletableFuture.completedFuture(ForagePool.current()))
                .get(30, TimeUnit.SECONDS));
    }

    @Test
    void cancellingBeforeTheSupplierRunsSkipsItAndFailsTheDependents() throws Exception {
        ForagePool one = ForagePool.builder().threads(1).name("one").build();
        try {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ForageFutures.runAsync(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, one);
            started.await();
            AtomicBoolean ran = new AtomicBoolean();
            ForageFuture<String> queued = ForageFutures.supplyAsync(() -> {
                ran.set(true);
                return "ran";
            }, one);
            ForageFuture<Integer> dependent = queued.thenApply(String::length);
            assertTrue(queued.cancel(true));
            release.countDown();
            assertTrue(queued.isCancelled());
            assertTrue(queued.isCompletedExceptionally());
            assertThrows(CancellationException.class, queued::join);
            assertThrows(CancellationException.class, queued::get);
            CompletionException e = assertThrows(CompletionException.class, dependent::join);
            assertInstanceOf(CancellationException.class, e.getCause());
            ExecutionException ee = assertThrows(ExecutionException.class, dependent::get);
            assertInstanceOf(CancellationException.class, ee.getCause());
            one.shutdown();
            assertTrue(one.awaitTermination(30, TimeUnit.SECONDS));
            assertFalse(ran.get(), "a cancelled future's supplier ran");
        } finally {
            one.close();
        }
    }

    @Test
    void aTimedGetNeedsAUnit() {
        ForageFuture<String> f = ForageFutures.newFuture(pool);
        NullPointerException e = assertThrows(NullPointerException.class, () -> f.get(1, null));
        assertTrue(e.getMessage().contains("unit"), e.getMessage());
    }

    /**
     * A timeout of the pool's own timers fires on one of its workers ({@code futures-worker-N}), or on its monitor
     * ({@code futures-monitor}) when no worker watches the timers at the deadline (a woken worker not yet running on
     * a loaded machine, docs/monitor.md): never on the JDK's delayer thread.
     */
    private static void assertFiredByThePool(String thread, String what) {
        assertTrue(thread.startsWith("futures-"), what + " fired on " + thread + ", not on a thread of the pool "
                + "'futures' (the JDK's delayer is CompletableFutureDelayScheduler)");
    }
}
