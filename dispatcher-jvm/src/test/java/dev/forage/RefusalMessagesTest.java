package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /**
     * {@link TaskNames#brief}, the one naming of every face's refusals: a long {@code toString} is cut to 100
     * characters ending in "...", one of 100 or fewer is kept whole, a wrapper is named by the task inside (by its
     * class when the wrapper keeps only that), and a {@code toString} that throws gives the class.
     */
    @Test
    void briefCutsALongNameAndLooksThroughWrappers() {
        String longName = repeat('a', 300);
        String cut = TaskNames.brief(named(longName));
        assertEquals(100, cut.length(), cut);
        assertEquals(repeat('a', 97) + "...", cut);
        assertEquals(repeat('b', 100), TaskNames.brief(named(repeat('b', 100))));
        assertEquals("short job", TaskNames.brief(named("short job")));
        assertEquals("inner job", TaskNames.brief(new Wrapper(new Wrapper(named("inner job")))));
        assertEquals(LongNamedTask.class.getName(), TaskNames.brief(new Wrapper(LongNamedTask.class)));
        assertEquals("wrapper of nothing", TaskNames.brief(new Wrapper(null)));
        assertEquals(Rude.class.getName(), TaskNames.brief(new Wrapper(new Rude())));
        assertEquals("null", TaskNames.brief(null));
    }

    /** The pool's own refusals use that naming: a wrapped job is named by the job inside, not by its wrapper. */
    @Test
    void aRefusalNamesAWrappedJobByTheJobInside() {
        ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build();
        pool.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> pool.execute(new Wrapper(new LongNamedTask())));
        LongNamedTask.assertNamesItOnce(e);
        assertTrue(!e.getMessage().contains(Wrapper.NAME), e::getMessage);
    }

    private static String repeat(char c, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(c);
        }
        return b.toString();
    }

    private static Runnable named(String name) {
        return new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** A user's wrapper whose own name is not the job's. */
    private static final class Wrapper implements Runnable, TaskWrapper {
        static final String NAME = "wrapper of nothing";
        private final Object task;

        Wrapper(Object task) {
            this.task = task;
        }

        @Override
        public void run() {
        }

        @Override
        public Object wrappedTask() {
            return task;
        }

        @Override
        public String toString() {
            return NAME;
        }
    }

    private static final class Rude implements Runnable {
        @Override
        public void run() {
        }

        @Override
        public String toString() {
            throw new IllegalStateException("no name");
        }
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
