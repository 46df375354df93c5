package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import org.junit.jupiter.api.Test;

/** {@code install} from every kind of thread: outside, a worker of the same pool, a worker of another pool. */
@Watchdog.Budget(seconds = 120)
class InstallTest {
    @Test
    void fromOutsideRunsOnAWorkerAndReturnsTheResult() {
        try (ForagePool pool = Pools.pool(2)) {
            assertNull(ForagePool.current());
            assertEquals(-1, ForagePool.currentWorkerIndex());
            assertFalse(pool.isCurrentThreadWorker());
            Thread caller = Thread.currentThread();
            Thread ran = pool.install(Thread::currentThread);
            assertTrue(Pools.workerThreads(pool).contains(ran));
            assertSame(pool, pool.install(ForagePool::current));
            assertTrue(pool.install(pool::isCurrentThreadWorker));
            int index = pool.install(ForagePool::currentWorkerIndex);
            assertTrue(index == 0 || index == 1, "worker index " + index);
            assertSame(caller, Thread.currentThread());
        }
    }

    @Test
    void fromAWorkerOfTheSamePoolRunsInline() {
        try (ForagePool pool = Pools.pool(2)) {
            Thread[] threads = pool.install(() -> new Thread[] {
                    Thread.currentThread(), pool.install(Thread::currentThread)});
            assertSame(threads[0], threads[1]);
        }
    }

    @Test
    void fromAWorkerOfAnotherPoolRunsOnThatPool() {
        try (ForagePool a = Pools.pool(2); ForagePool b = Pools.pool(2)) {
            Thread[] threads = a.install(() -> new Thread[] {Thread.currentThread(), b.install(Thread::currentThread)});
            assertTrue(Pools.workerThreads(a).contains(threads[0]));
            assertTrue(Pools.workerThreads(b).contains(threads[1]));
            assertSame(b, a.install(() -> b.install(ForagePool::current)));
        }
    }

    /**
     * Two one-thread pools installing into each other, ten levels deep: the waiting worker of each pool must
     * keep running its own pool's jobs, or the second level deadlocks.
     */
    @Test
    void oneThreadPoolsInstallingIntoEachOtherDoNotDeadlock() {
        try (ForagePool a = Pools.pool(1); ForagePool b = Pools.pool(1)) {
            assertEquals(10, pingPong(a, b, 10));
            assertEquals(10, a.install(() -> pingPong(b, a, 10)));
        }
    }

    private static int pingPong(ForagePool here, ForagePool there, int depth) {
        if (depth == 0) {
            return 0;
        }
        return here.install(() -> 1 + pingPong(there, here, depth - 1));
    }

    @Test
    void failuresArriveUnchangedFromEveryKindOfCaller() {
        try (ForagePool a = Pools.pool(2); ForagePool b = Pools.pool(1)) {
            IllegalStateException runtime = new IllegalStateException("runtime");
            JoinTest.TestError error = new JoinTest.TestError("error");
            // From outside.
            assertSame(runtime, assertThrows(IllegalStateException.class, () -> a.install(() -> {
                throw runtime;
            })));
            assertSame(error, assertThrows(JoinTest.TestError.class, () -> a.install(() -> {
                throw error;
            })));
            // Inline, on a worker of the same pool.
            assertSame(runtime, assertThrows(IllegalStateException.class, () -> a.install(() -> a.install(() -> {
                throw runtime;
            }))));
            // Cross-pool.
            assertSame(error, assertThrows(JoinTest.TestError.class, () -> a.install(() -> b.install(() -> {
                throw error;
            }))));
            assertEquals(3, a.install(() -> b.install(() -> 3)), "both pools keep working");
        }
    }

    @Test
    void anInterruptOfTheCallerIsNotLost() {
        try (ForagePool pool = Pools.pool(1)) {
            Thread.currentThread().interrupt();
            try {
                assertEquals(5, pool.install(() -> 5));
                assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt must survive install");
            } finally {
                Thread.interrupted();
            }
        }
    }
}
