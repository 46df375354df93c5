package dev.forage;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.LongNamedTask;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Refusals and bad-input errors are short: what was wrong, what is allowed, and a refused job named once by a
 * bounded {@code toString}. A job whose {@code toString} is 5,000 characters long is the probe: quoted whole, or
 * twice (a facade's message quoting the pool's), its marker shows up too often or the message runs long.
 */
@Watchdog.Budget(seconds = 120)
class RefusalMessagesTest {
    @Test
    void aRefusalAfterShutdownNamesTheJobOnceAndBriefly() {
        ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build();
        pool.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> pool.execute(new LongNamedTask()));
        LongNamedTask.assertNamesItOnce(e);
        assertTrue(e.getMessage().startsWith("pool " + pool.name() + " is shut down, rejected " + LongNamedTask.MARK),
                e::getMessage);
        assertTrue(e.getMessage().contains("..."), "the name is cut: " + e.getMessage());
        LongNamedTask.assertNamesItOnce(assertThrows(RejectedExecutionException.class,
                () -> pool.blockingExecutor().execute(new LongNamedTask())));
        LongNamedTask.assertNamesItOnce(assertThrows(RejectedExecutionException.class,
                () -> pool.executeFair(new LongNamedTask())));
    }

    @Test
    void aRefusalOfAFullQueueNamesTheJobOnceAndBriefly() throws Exception {
        try (ForagePool pool = ForagePool.builder().blockingDetection(0, TimeUnit.MILLISECONDS).threads(1)
                .queueCapacity(1).name(Pools.uniqueName()).build()) {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch held = new CountDownLatch(1);
            pool.execute(() -> {
                held.countDown();
                JoinAnyDepthTest.await(hold, "the test's release");
            });
            held.await();
            pool.execute(() -> { }); // the queue's one place
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> pool.execute(new LongNamedTask()));
            hold.countDown();
            LongNamedTask.assertNamesItOnce(e);
            assertTrue(e.getMessage().contains("queue capacity exceeded (the injector holds 1 jobs)"), e::getMessage);
            assertTrue(e.getMessage().contains("allowed: "), e::getMessage);
        }
    }

    @Test
    void aJobWhoseToStringThrowsIsNamedByItsClass() {
        ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build();
        pool.close();
        Runnable rude = new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                throw new IllegalStateException("no name");
            }
        };
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> pool.execute(rude));
        assertTrue(e.getMessage().contains(rude.getClass().getName()), e::getMessage);
    }

    /** Every bad-input message of the pool's API stays short and says what is allowed or needed. */
    @Test
    void badInputMessagesAreShort() throws Exception {
        List<Executable> calls = new ArrayList<>();
        calls.add(() -> ForagePool.builder().threads(0));
        calls.add(() -> ForagePool.builder().maxParallelism(0));
        calls.add(() -> ForagePool.builder().maxBlockingThreads(-1));
        calls.add(() -> ForagePool.builder().queueCapacity(0));
        calls.add(() -> ForagePool.builder().keepAlive(0, TimeUnit.MILLISECONDS));
        calls.add(() -> ForagePool.builder().blockingDetection(1500, TimeUnit.MICROSECONDS));
        calls.add(() -> ForagePool.builder().name(" "));
        calls.add(() -> ForagePool.builder().threads(4).maxParallelism(2).build());
        calls.add(() -> ForagePool.builder().threads(2).maxParallelism(3).ioWorkers().build());
        calls.add(() -> ForagePool.builder().maxParallelism(2).singleThreaded().build());
        calls.add(() -> ForagePool.builder().ioWorkers().singleThreaded().build());
        calls.add(() -> ForagePool.builder().ioWorkers().sleepProtocol(SleepProtocol.EMPER).build());
        calls.add(() -> ForagePool.commonPool().close());
        calls.add(() -> ForagePool.commonPool().shutdownNow());
        calls.add(() -> ForagePool.commonPool().blockingExecutor(0));
        try (ForagePool pool = ForagePool.builder().threads(2).maxParallelism(4).name(Pools.uniqueName()).build();
                ForagePool io = ForagePool.builder().threads(1).ioWorkers().name(Pools.uniqueName()).build();
                ForagePool single = ForagePool.builder().singleThreaded().name(Pools.uniqueName()).build();
                ForagePool none = ForagePool.builder().threads(1).maxBlockingThreads(0).name(Pools.uniqueName())
                        .build()) {
            calls.add(() -> pool.setParallelism(5));
            calls.add(() -> io.setParallelism(1));
            calls.add(() -> single.setParallelism(1));
            calls.add(() -> pool.runPending());
            calls.add(() -> none.blockingExecutor().execute(new LongNamedTask()));
            calls.add(() -> pool.statistics().jobsRun(7));
            for (Executable call : calls) {
                LongNamedTask.assertShort(assertThrows(RuntimeException.class, call));
            }
            ForagePool shut = ForagePool.builder().threads(1).name(Pools.uniqueName()).build();
            shut.close();
            String m = assertThrows(IllegalStateException.class, () -> shut.setParallelism(1)).getMessage();
            assertTrue(m.length() <= LongNamedTask.MAX_MESSAGE && m.contains("allowed: "), m);
        }
    }
}
