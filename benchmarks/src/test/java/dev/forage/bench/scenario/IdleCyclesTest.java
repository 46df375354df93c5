package dev.forage.bench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.BusyWork;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The low-load rows' idle-cycle split ({@link IdleCycles}): a cycle is measured between two tasks of the same
 * thread, never across threads, and every task's own CPU is counted.
 */
class IdleCyclesTest {
    private static final int TASKS = 30;
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void everyTaskButEachThreadsFirstHasACycle() throws Exception {
        BusyWork work = BusyWork.calibrate(TimeUnit.MICROSECONDS.toNanos(20));
        // A fresh fixed pool starts a thread for each of its first two tasks, so exactly two tasks are some
        // thread's first: a split that measured from the last task of any thread would count one cycle more.
        ExecutorService pool = Executors.newFixedThreadPool(2, named("idle-cycles-test-"));
        try {
            IdleCycles.Pass pass = IdleCycles.measure(pool, "idle-cycles-test-", work, PERIOD_NANOS, TASKS);
            assertEquals(TASKS - 2, pass.measuredCycles().length, IdleCycles.describe(pass));
            for (long t : pass.tasks) {
                assertTrue(t > 0, "a task's CPU: " + t);
            }
            // The threads' CPU over the pass holds every task and every measured cycle (the clock reads and the
            // snapshot's own timing leave a few microseconds either way).
            assertTrue(pass.outsidePerTask() > -5_000, IdleCycles.describe(pass));
            String text = IdleCycles.describe(pass);
            assertTrue(text.matches("p50 [\\d.]+, p90 [\\d.]+, mean [\\d.]+ µs \\(task [\\d.]+ µs, " + (TASKS - 2)
                    + " cycles; outside them -?[\\d.]+ µs per task\\)"), text);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
