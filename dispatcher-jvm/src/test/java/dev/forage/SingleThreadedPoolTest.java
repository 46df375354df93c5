package dev.forage;

import static dev.forage.PoolHarness.awaitSleeping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Fib;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** marl's single-threaded mode: a pool with no threads whose jobs run on the threads that wait in it. */
class SingleThreadedPoolTest {
    private static ForagePool singleThreaded() {
        return ForagePool.builder().singleThreaded().name("single").build();
    }

    private static ForagePool singleThreaded(SleepProtocol strategy) {
        return ForagePool.builder().singleThreaded().sleepProtocol(strategy).name("single-" + strategy).build();
    }

    @Test
    void hasNoThreadsAndSaysSo() throws Throwable {
        Watchdog.within("shape", () -> {
            try (ForagePool pool = singleThreaded()) {
                assertTrue(pool.isSingleThreaded());
                assertEquals(0, pool.parallelism());
                assertEquals(0, pool.statistics().threads());
                assertFalse(pool.isCurrentThreadWorker());
                assertFalse(Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(t -> t.getName().startsWith("single-worker")), "no worker thread was started");
            }
        });
    }

    @Test
    void executeFromOutsideOnlyQueuesAndRunPendingRunsInSubmissionOrder() throws Throwable {
        Watchdog.within("queue then runPending", () -> {
            try (ForagePool pool = singleThreaded()) {
                List<Integer> order = Collections.synchronizedList(new ArrayList<>());
                Thread caller = Thread.currentThread();
                List<Thread> ranOn = Collections.synchronizedList(new ArrayList<>());
                for (int i = 0; i < 100; i++) {
                    int k = i;
                    pool.execute(() -> {
                        order.add(k);
                        ranOn.add(Thread.currentThread());
                    });
                }
                assertEquals(List.of(), order, "no thread exists that could have run a job yet");
                assertEquals(100, pool.runPending());
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    expected.add(i);
                }
                assertEquals(expected, order);
                assertTrue(ranOn.stream().allMatch(t -> t == caller), "every job ran on the calling thread");
                assertEquals(0, pool.runPending(), "nothing is left");
                assertEquals(100, pool.statistics().jobsRun());
            }
        });
    }

    @Test
    void jobsQueuedByJobsRunAfterEverythingQueuedBefore() throws Throwable {
        Watchdog.within("FIFO from inside", () -> {
            try (ForagePool pool = singleThreaded()) {
                List<String> order = new ArrayList<>(); // one thread runs everything: no synchronization needed
                pool.execute(() -> {
                    order.add("a");
                    pool.execute(() -> order.add("c"));
                    assertTrue(pool.isCurrentThreadWorker(), "inside a job the caller is the pool's worker");
                });
                pool.execute(() -> order.add("b"));
                pool.runPending();
                assertEquals(List.of("a", "b", "c"), order);
            }
        });
    }

    @Test
    void installRunsWhatWasQueuedFirstThenItself() throws Throwable {
        Watchdog.within("install order", () -> {
            try (ForagePool pool = singleThreaded()) {
                List<String> order = new ArrayList<>();
                pool.execute(() -> order.add("queued"));
                String r = pool.install(() -> {
                    order.add("install");
                    return "done";
                });
                assertEquals("done", r);
                assertEquals(List.of("queued", "install"), order);
            }
        });
    }

    @Test
    void joinAndScopeRunOnTheCallerDeterministically() throws Throwable {
        Watchdog.within("join and scope on the caller", () -> {
            try (ForagePool pool = singleThreaded()) {
                Thread caller = Thread.currentThread();
                JoinResult<Thread, Thread> threads = pool.join(Thread::currentThread, Thread::currentThread);
                assertSame(caller, threads.first());
                assertSame(caller, threads.second());
                assertEquals(6765L, (long) pool.install(() -> Fib.join(pool, 20)));

                List<Integer> spawned = new ArrayList<>();
                int r = pool.scope(s -> {
                    for (int i = 0; i < 10; i++) {
                        int k = i;
                        s.spawn(() -> spawned.add(k));
                    }
                    return 7;
                });
                assertEquals(7, r);
                assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), spawned, "spawned jobs run in spawn order");

                // Join order is the sequential order: a, then b (taken back from the deque right after a).
                List<String> order = new ArrayList<>();
                pool.join(() -> order.add("a"), () -> order.add("b"));
                assertEquals(List.of("a", "b"), order);
            }
        });
    }


    @Test
    void aForageLatchAwaitedInsideRunsTheQueueUntilItIsSet() throws Throwable {
        Watchdog.within("ForageLatch drains", () -> {
            try (ForagePool pool = singleThreaded()) {
                String r = pool.install(() -> {
                    ForageLatch latch = ForageLatch.forCurrentThread();
                    pool.execute(latch::set); // only runs if the await below runs the queue
                    latch.awaitUninterruptibly();
                    return "set";
                });
                assertEquals("set", r);
            }
        });
    }

    @Test
    void aFutureJoinedThroughALatchInsideCompletesOnTheCaller() throws Throwable {
        // What the futures facade's join does on a worker: wait on a ForageLatch that completion sets.
        Watchdog.within("future join", () -> {
            try (ForagePool pool = singleThreaded()) {
                int r = pool.install(() -> {
                    CompletableFuture<Integer> f = CompletableFuture.supplyAsync(() -> 41, pool)
                            .thenApplyAsync(x -> x + 1, pool);
                    ForageLatch done = ForageLatch.forCurrentThread();
                    f.whenComplete((v, e) -> done.set());
                    done.awaitUninterruptibly();
                    return f.join();
                });
                assertEquals(42, r);
            }
        });
    }

    @Test
    void aForageLatchMadeInsideAndAwaitedAfterTheCallRunsThePoolAgain() throws Throwable {
        Watchdog.within("escaped latch", () -> {
            try (ForagePool pool = singleThreaded()) {
                ForageLatch latch = pool.install(ForageLatch::forCurrentThread);
                pool.execute(latch::set);
                assertTrue(latch.await(30, TimeUnit.SECONDS), "the await ran the queued set");
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void aWaitingCallerSleepsAndIsWokenByItsLatch(SleepProtocol strategy) throws Throwable {
        Watchdog.within("caller asleep, latch set from another thread", () -> {
            try (ForagePool pool = singleThreaded(strategy)) {
                AtomicReference<ForageLatch> latch = new AtomicReference<>();
                Thread setter = new Thread(() -> {
                    Watchdog.awaitCondition("latch made", Watchdog.LIMIT, () -> latch.get() != null, () -> "");
                    awaitSleeping(pool, 1); // the caller sleeps in the strategy: only the latch can wake it
                    latch.get().set();
                });
                setter.start();
                boolean set = pool.install(() -> {
                    ForageLatch l = ForageLatch.forCurrentThread();
                    latch.set(l);
                    l.awaitUninterruptibly();
                    return l.isSet();
                });
                setter.join();
                assertTrue(set);
                assertTrue(pool.statistics().latchWakeups() >= 1, pool.statistics().toString());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SleepProtocol.class)
    void aJobQueuedFromOutsideWakesASleepingCallerThatRunsIt(SleepProtocol strategy) throws Throwable {
        Watchdog.within("outside job wakes the caller", () -> {
            try (ForagePool pool = singleThreaded(strategy)) {
                Thread caller = Thread.currentThread();
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                AtomicReference<ForageLatch> latch = new AtomicReference<>();
                Thread submitter = new Thread(() -> {
                    Watchdog.awaitCondition("latch made", Watchdog.LIMIT, () -> latch.get() != null, () -> "");
                    awaitSleeping(pool, 1); // the caller sleeps: the injected job must wake it
                    pool.execute(() -> {
                        ranOn.set(Thread.currentThread());
                        latch.get().set(); // the caller's own latch, set by the job the caller runs
                    });
                });
                submitter.start();
                pool.install(() -> {
                    ForageLatch l = ForageLatch.forCurrentThread();
                    latch.set(l);
                    l.awaitUninterruptibly();
                    return null;
                });
                submitter.join();
                assertSame(caller, ranOn.get());
            }
        });
    }

    @Test
    void timersFireWhileACallerWaits() throws Throwable {
        Watchdog.within("timers", () -> {
            try (ForagePool pool = singleThreaded()) {
                Thread caller = Thread.currentThread();
                List<Thread> firedOn = Collections.synchronizedList(new ArrayList<>());
                pool.install(() -> {
                    ForageLatch done = ForageLatch.forCurrentThread();
                    AtomicInteger left = new AtomicInteger(3);
                    for (int i = 1; i <= 3; i++) {
                        pool.schedule(() -> {
                            firedOn.add(Thread.currentThread());
                            if (left.decrementAndGet() == 0) {
                                done.set();
                            }
                        }, i * 2L, TimeUnit.MILLISECONDS);
                    }
                    done.awaitUninterruptibly();
                    return null;
                });
                assertEquals(3, firedOn.size());
                assertTrue(firedOn.stream().allMatch(t -> t == caller));
            }
        });
    }

    @Test
    void twoThreadsShareThePoolAndEachGetsItsResult() throws Throwable {
        Watchdog.within("two callers", () -> {
            try (ForagePool pool = singleThreaded()) {
                for (int round = 0; round < 50; round++) {
                    // T1 drives and sleeps on L1; T2's install can only be run by T1, and it sets L1.
                    AtomicReference<ForageLatch> l1 = new AtomicReference<>();
                    CountDownLatch made = new CountDownLatch(1);
                    AtomicReference<String> r1 = new AtomicReference<>();
                    Thread t1 = new Thread(() -> r1.set(pool.install(() -> {
                        ForageLatch l = ForageLatch.forCurrentThread();
                        l1.set(l);
                        made.countDown();
                        l.awaitUninterruptibly();
                        return "t1";
                    })));
                    t1.start();
                    made.await();
                    String r2 = pool.install(() -> {
                        l1.get().set();
                        return "t2";
                    });
                    t1.join();
                    assertEquals("t2", r2);
                    assertEquals("t1", r1.get());
                }
            }
        });
    }

    @Test
    void manyThreadsInstallingAtOnceAllFinishExactlyOnce() throws Throwable {
        Watchdog.within("many callers", () -> {
            try (ForagePool pool = singleThreaded()) {
                int callers = 4;
                int calls = 500;
                AtomicInteger runs = new AtomicInteger();
                List<Thread> threads = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    Thread t = new Thread(() -> {
                        for (int i = 0; i < calls; i++) {
                            int r = pool.install(() -> pool.join(runs::incrementAndGet, () -> 1).second());
                            assertEquals(1, r);
                        }
                    });
                    threads.add(t);
                    t.start();
                }
                for (Thread t : threads) {
                    t.join();
                }
                assertEquals(callers * calls, runs.get());
            }
        });
    }

    @Test
    void closeRunsTheQueueAndPendingTimersOnTheClosingThread() throws Throwable {
        Watchdog.within("close drains", () -> {
            ForagePool pool = singleThreaded();
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 10; i++) {
                pool.execute(ran::incrementAndGet);
            }
            pool.schedule(ran::incrementAndGet, 5, TimeUnit.MILLISECONDS);
            pool.shutdown();
            assertFalse(pool.isTerminated(), "queued jobs are left: nobody has run them");
            assertThrows(RejectedExecutionException.class, () -> pool.execute(ran::incrementAndGet));
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertEquals(11, ran.get());
            assertTrue(pool.isTerminated());
            pool.close();
        });
    }

    @Test
    void anEmptyPoolTerminatesAtShutdown() throws Throwable {
        Watchdog.within("empty shutdown", () -> {
            ForagePool pool = singleThreaded();
            pool.shutdown();
            assertTrue(pool.isTerminated());
            assertTrue(pool.awaitTermination(0, TimeUnit.SECONDS));
        });
    }

    @Test
    void shutdownNowReturnsTheQueuedJobs() throws Throwable {
        Watchdog.within("shutdownNow", () -> {
            ForagePool pool = singleThreaded();
            Runnable a = () -> { };
            Runnable b = () -> { };
            pool.execute(a);
            pool.schedule(b, 1, TimeUnit.HOURS);
            List<Runnable> never = pool.shutdownNow();
            assertEquals(2, never.size());
            assertTrue(never.contains(a) && never.contains(b));
            assertTrue(pool.isTerminated());
        });
    }

    @Test
    void aFailingJobGoesToTheHandlerWithTheCallingThread() throws Throwable {
        Watchdog.within("handler", () -> {
            AtomicReference<Thread> reportedOn = new AtomicReference<>();
            try (ForagePool pool = ForagePool.builder().singleThreaded()
                    .uncaughtExceptionHandler((t, e) -> reportedOn.set(t)).build()) {
                pool.execute(() -> {
                    throw new IllegalStateException("boom");
                });
                pool.runPending();
                assertSame(Thread.currentThread(), reportedOn.get());
            }
        });
    }

    @Test
    void aWorkerOfAnotherPoolCanDriveASingleThreadedPool() throws Throwable {
        Watchdog.within("driven from another pool's worker", () -> {
            try (ForagePool single = singleThreaded();
                    ForagePool other = ForagePool.builder().threads(1).name("other").build()) {
                int r = other.install(() -> {
                    int inner = single.install(() -> {
                        assertSame(single, ForagePool.current());
                        return single.join(() -> 20, () -> 22).second() + 20;
                    });
                    assertSame(other, ForagePool.current(), "the binding is restored after the drive");
                    return inner;
                });
                assertEquals(42, r);
            }
        });
    }

    @Test
    void zeroThreadsIsRefusedWithAPointerToSingleThreaded() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().threads(0));
        assertTrue(e.getMessage().contains("singleThreaded()"), e.getMessage());
    }

    @Test
    void runPendingIsRefusedOnAPoolWithThreads() throws Throwable {
        Watchdog.within("runPending refused", () -> {
            try (ForagePool pool = ForagePool.builder().threads(1).build()) {
                IllegalStateException e = assertThrows(IllegalStateException.class, pool::runPending);
                assertTrue(e.getMessage().contains("single-threaded"), e.getMessage());
            }
        });
    }
}
