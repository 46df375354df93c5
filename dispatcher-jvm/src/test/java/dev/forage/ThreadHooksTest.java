package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ForagePoolBuilder#onThreadStart} and {@link ForagePoolBuilder#onThreadStop}: each runs on the thread it
 * names, for every thread that runs jobs (workers, their threads after a retirement, stand-ins), the start before
 * the thread's first job, the stop before {@code awaitTermination} can return true; a throwing hook is reported
 * and the thread goes on.
 */
@Watchdog.Budget(seconds = 120)
class ThreadHooksTest {
    private static final Duration BOUND = Watchdog.scaled(Duration.ofSeconds(20));

    /** Records each hook call, and whether any came on another thread than the one it names. */
    private static final class Recorder {
        final Set<Thread> started = ConcurrentHashMap.newKeySet();
        final Set<Thread> stopped = ConcurrentHashMap.newKeySet();
        final AtomicBoolean elsewhere = new AtomicBoolean();

        ForagePoolBuilder on(ForagePoolBuilder b) {
            return b.onThreadStart(t -> record(started, t)).onThreadStop(t -> record(stopped, t));
        }

        private void record(Set<Thread> into, Thread t) {
            if (t != Thread.currentThread()) {
                elsewhere.set(true);
            }
            into.add(t);
        }
    }

    @Test
    void everyWorkerThreadStartsBeforeItsFirstJobAndStopsBeforeTermination() throws Exception {
        Recorder hooks = new Recorder();
        ForagePool pool = hooks.on(ForagePool.builder().threads(2).name(Pools.uniqueName())).build();
        Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
        AtomicBoolean jobBeforeStart = new AtomicBoolean();
        CountDownLatch both = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                Thread me = Thread.currentThread();
                if (!hooks.started.contains(me)) {
                    jobBeforeStart.set(true);
                }
                ranOn.add(me);
                both.countDown();
                await(release);
            });
        }
        assertTrue(both.await(BOUND.getSeconds(), TimeUnit.SECONDS));
        assertEquals(2, ranOn.size());
        assertFalse(jobBeforeStart.get(), "a job ran on a thread whose start hook had not run");
        release.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(BOUND.getSeconds(), TimeUnit.SECONDS));
        assertEquals(hooks.started, hooks.stopped, "every started thread stopped before termination");
        assertTrue(hooks.started.containsAll(ranOn));
        assertFalse(hooks.elsewhere.get(), "a hook ran on another thread than the one it was given");
    }

    @Test
    void theStartHookSeesItsPoolAsCurrentOnEveryThreadTheBuildStarts() throws Exception {
        // ForkJoinWorkerThread.getPool() is set before onStart; a hook that sets up per-pool state must see its pool.
        for (int round = 0; round < 20; round++) {
            AtomicReference<ForagePool> built = new AtomicReference<>();
            Set<Thread> started = ConcurrentHashMap.newKeySet();
            AtomicReference<String> wrong = new AtomicReference<>();
            CountDownLatch allStarted = new CountDownLatch(4);
            ForagePool pool = ForagePool.builder().threads(4).name(Pools.uniqueName())
                    .onThreadStart(t -> {
                        ForagePool current = ForagePool.current();
                        if (current == null) {
                            wrong.compareAndSet(null, "current() was " + current + " in the start hook of " + t);
                        } else {
                            started.add(t);
                        }
                        allStarted.countDown();
                    })
                    .build();
            built.set(pool);
            try {
                assertTrue(allStarted.await(BOUND.getSeconds(), TimeUnit.SECONDS));
                assertEquals(null, wrong.get());
                assertEquals(4, started.size());
                // And it is this pool, not just any: the hook ran on this pool's threads.
                CountDownLatch asked = new CountDownLatch(1);
                AtomicReference<ForagePool> seen = new AtomicReference<>();
                pool.execute(() -> {
                    seen.set(ForagePool.current());
                    asked.countDown();
                });
                assertTrue(asked.await(BOUND.getSeconds(), TimeUnit.SECONDS));
                assertTrue(seen.get() == built.get());
            } finally {
                pool.close();
            }
        }
    }

    @Test
    void aRetiredWorkersThreadStopsAndItsNextThreadStarts() throws Exception {
        Recorder hooks = new Recorder();
        try (ForagePool pool = hooks.on(ForagePool.builder().threads(1).keepAlive(20, TimeUnit.MILLISECONDS)
                .name(Pools.uniqueName())).build()) {
            Thread first = runOn(pool);
            Watchdog.awaitCondition("the retired thread ran its stop hook", BOUND,
                    () -> hooks.stopped.contains(first), () -> hooks.stopped + " " + pool);
            Thread second = runOn(pool);
            assertNotSame(first, second, "the worker kept its thread past the keep-alive");
            assertTrue(hooks.started.contains(second));
            assertFalse(hooks.stopped.contains(second));
        }
        assertFalse(hooks.elsewhere.get());
    }

    @Test
    void aStandInThreadRunsBothHooks() throws Exception {
        Recorder hooks = new Recorder();
        ForagePool pool = hooks.on(ForagePool.builder().threads(1).maxBlockingThreads(1)
                .name(Pools.uniqueName())).build();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocking = new CountDownLatch(1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        pool.execute(() -> {
            worker.set(Thread.currentThread());
            try {
                ForagePool.managedBlock(() -> {
                    blocking.countDown();
                    return release.await(BOUND.getSeconds(), TimeUnit.SECONDS);
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(blocking.await(BOUND.getSeconds(), TimeUnit.SECONDS));
        Thread standIn = runOn(pool); // the only worker is blocked: its stand-in runs this
        assertNotSame(worker.get(), standIn);
        assertTrue(hooks.started.contains(standIn), "the stand-in ran a job before its start hook");
        release.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(BOUND.getSeconds(), TimeUnit.SECONDS));
        assertTrue(hooks.stopped.contains(standIn) && hooks.stopped.contains(worker.get()), hooks.stopped::toString);
    }

    @Test
    void aThrowingHookGoesToTheHandlerAndTheThreadStillRunsJobs() throws Exception {
        AtomicReference<Throwable> handled = new AtomicReference<>();
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName())
                .uncaughtExceptionHandler((t, e) -> handled.compareAndSet(null, e))
                .onThreadStart(t -> {
                    throw new IllegalStateException("start hook failed");
                }).build()) {
            runOn(pool);
            assertEquals("start hook failed", handled.get().getMessage());
        }
    }

    @Test
    void nullHooksAreRefusedWithTheRule() {
        ForagePoolBuilder b = ForagePool.builder();
        assertTrue(assertThrows(NullPointerException.class, () -> b.onThreadStart(null)).getMessage()
                .contains("onThreadStart: hook must not be null"));
        assertTrue(assertThrows(NullPointerException.class, () -> b.onThreadStop(null)).getMessage()
                .contains("onThreadStop: hook must not be null"));
    }

    /** The thread that ran one job on {@code pool}. */
    private static Thread runOn(ForagePool pool) throws InterruptedException {
        AtomicReference<Thread> ran = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            ran.set(Thread.currentThread());
            done.countDown();
        });
        assertTrue(done.await(BOUND.getSeconds(), TimeUnit.SECONDS));
        return ran.get();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(BOUND.getSeconds(), TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
