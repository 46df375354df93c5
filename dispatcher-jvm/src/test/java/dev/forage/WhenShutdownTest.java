package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ForagePool#whenShutdown}: every action runs exactly once, from whichever face shut the pool down. */
@ExtendWith(Watchdog.class)
class WhenShutdownTest {
    @Test
    void actionsRunOnceInOrderOnTheThreadThatShutThePoolDownWhicheverWay() {
        for (int way = 0; way < 3; way++) {
            ForagePool pool = Pools.pool(2);
            List<String> ran = new CopyOnWriteArrayList<>();
            List<Thread> on = new CopyOnWriteArrayList<>();
            pool.whenShutdown(() -> ran.add("first"));
            pool.whenShutdown(() -> {
                ran.add("second:" + pool.isShutdown());
                on.add(Thread.currentThread());
            });
            assertTrue(ran.isEmpty(), "nothing runs while the pool runs");
            if (way == 0) {
                pool.shutdown();
            } else if (way == 1) {
                pool.shutdownNow();
            } else {
                pool.close();
            }
            pool.shutdown(); // a second shutdown runs nothing again
            pool.close();
            assertEquals(List.of("first", "second:true"), ran, "way " + way);
            assertSame(Thread.currentThread(), on.get(0));
        }
    }

    @Test
    void anActionRegisteredAfterShutdownRunsAtOnce() {
        ForagePool pool = Pools.pool(1);
        pool.close();
        AtomicInteger runs = new AtomicInteger();
        pool.whenShutdown(runs::incrementAndGet);
        assertEquals(1, runs.get());
    }

    @Test
    void aFailingActionGoesToTheHandlerAndTheOthersStillRun() {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        ForagePool pool = ForagePool.builder().threads(1).uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicInteger after = new AtomicInteger();
        pool.whenShutdown(() -> {
            throw boom;
        });
        pool.whenShutdown(after::incrementAndGet);
        pool.close();
        assertEquals(List.of(boom), handled);
        assertEquals(1, after.get());
    }

    @Test
    void registeringWhileAnotherThreadShutsDownRunsEachActionExactlyOnce() throws Exception {
        for (int round = 0; round < 300; round++) {
            ForagePool pool = Pools.pool(1);
            int registrars = 3;
            int perRegistrar = 20;
            AtomicInteger[] runs = new AtomicInteger[registrars * perRegistrar];
            for (int i = 0; i < runs.length; i++) {
                runs[i] = new AtomicInteger();
            }
            CyclicBarrier start = new CyclicBarrier(registrars + 1);
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < registrars; r++) {
                int base = r * perRegistrar;
                Thread t = new Thread(() -> {
                    await(start);
                    for (int i = 0; i < perRegistrar; i++) {
                        pool.whenShutdown(runs[base + i]::incrementAndGet);
                    }
                });
                t.start();
                threads.add(t);
            }
            await(start);
            pool.shutdown();
            for (Thread t : threads) {
                t.join();
            }
            for (int i = 0; i < runs.length; i++) {
                assertEquals(1, runs[i].get(), "round " + round + ", action " + i);
            }
            pool.close();
        }
    }

    @Test
    void onTheCommonPoolItNeverRunsAndNullIsRejected() {
        AtomicInteger runs = new AtomicInteger();
        ForagePool.commonPool().whenShutdown(runs::incrementAndGet);
        assertEquals(0, runs.get());
        try (ForagePool pool = Pools.pool(1)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> pool.whenShutdown(null));
            assertTrue(e.getMessage().contains("action"), e.getMessage());
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
