package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The injector: an MPMC FIFO of array blocks. */
class InjectorTest {
    private final Injector injector = new Injector();

    @Test
    void emptyInjector() {
        assertTrue(injector.isEmpty());
        assertNull(injector.poll());
        assertTrue(injector.isEmpty());
    }

    @Test
    void fifo() {
        for (int i = 0; i < 100; i++) {
            injector.push(new Job(i));
            assertFalse(injector.isEmpty());
        }
        for (int i = 0; i < 100; i++) {
            assertFalse(injector.isEmpty());
            assertEquals(i, Job.idOf(injector.poll()));
        }
        assertTrue(injector.isEmpty());
        assertNull(injector.poll());
    }

    /** FIFO across many block boundaries, for the smallest blocks (one slot) up to the default. */
    @ParameterizedTest(name = "block size {0}")
    @ValueSource(ints = {2, 4, 8, Injector.DEFAULT_BLOCK_SIZE})
    void fifoAcrossBlocks(int blockSize) {
        Injector small = new Injector(blockSize);
        int nextIn = 0;
        int nextOut = 0;
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < round % 11 + 1; i++) {
                small.push(new Job(nextIn++));
            }
            for (int i = 0; i < round % 9 + 1 && nextOut < nextIn; i++) {
                assertFalse(small.isEmpty());
                assertEquals(nextOut++, Job.idOf(small.poll()));
            }
        }
        while (nextOut < nextIn) {
            assertEquals(nextOut++, Job.idOf(small.poll()));
        }
        assertTrue(small.isEmpty());
        assertNull(small.poll());
    }

    /** The "was empty" hint of push, inside a block (previous slot) and at a block's first slot (head index). */
    @ParameterizedTest(name = "block size {0}")
    @ValueSource(ints = {2, 4, Injector.DEFAULT_BLOCK_SIZE})
    void pushSaysWhetherTheJobBeforeItWasTaken(int blockSize) {
        Injector q = new Injector(blockSize);
        for (int round = 0; round < 3 * blockSize; round++) {
            assertTrue(q.push(new Job(1)), "round " + round + ": empty queue");
            assertFalse(q.push(new Job(2)), "round " + round + ": one job queued");
            assertEquals(1, Job.idOf(q.poll()));
            assertFalse(q.push(new Job(3)), "round " + round + ": job 2 still queued");
            assertEquals(2, Job.idOf(q.poll()));
            assertEquals(3, Job.idOf(q.poll()));
        }
    }

    @Test
    void blockSizeMustBeAPowerOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Injector(3));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Injector(1));
    }

    /**
     * From {@code minQueued} jobs on, a batch takes {@code 1 + queued / shares} of the oldest jobs, at most
     * {@code max}, never past its block's last slot; below it, one job; nothing when empty.
     */
    @Test
    void pollBatchTakesAShareOfTheOldestJobsWithinOneBlock() {
        Injector q = new Injector(8); // 7 slots per block
        Runnable[] into = new Runnable[8];
        assertEquals(0, q.pollBatch(into, 8, 2, 1));
        for (int i = 0; i < 10; i++) {
            q.push(new Job(i));
        }
        // 10 queued but fewer than 11 asked for a batch: one job.
        assertEquals(1, q.pollBatch(into, 8, 2, 11));
        assertEquals(0, Job.idOf(into[0]));
        // 9 queued, 2 shares: 1 + 4 of them.
        assertEquals(5, q.pollBatch(into, 8, 2, 1));
        for (int i = 0; i < 5; i++) {
            assertEquals(i + 1, Job.idOf(into[i]));
        }
        // 4 queued, one left in this block: the batch stops at the block's end, and the head moves on.
        assertEquals(1, q.pollBatch(into, 8, 1, 1));
        assertEquals(6, Job.idOf(into[0]));
        // 3 queued, max 2.
        assertEquals(2, q.pollBatch(into, 2, 1, 1));
        assertEquals(7, Job.idOf(into[0]));
        assertEquals(8, Job.idOf(into[1]));
        // A lone job is taken alone, whatever the share.
        assertEquals(1, q.pollBatch(into, 8, 4, 1));
        assertEquals(9, Job.idOf(into[0]));
        assertTrue(q.isEmpty());
        assertEquals(0, q.pollBatch(into, 8, 1, 1));
        // Pushes after a batch took a block's last slot go on in the next block, in order.
        for (int i = 10; i < 20; i++) {
            q.push(new Job(i));
        }
        assertEquals(10, Job.idOf(q.poll()));
        assertEquals(3, q.pollBatch(into, 3, 1, 1));
        assertEquals(11, Job.idOf(into[0]));
        assertEquals(13, Job.idOf(into[2]));
    }

    /**
     * Producers and consumers at once: every job comes out exactly once, and each producer's jobs in order. Small
     * blocks make block installs race with claims in every block.
     */
    @ParameterizedTest(name = "block size {0}")
    @ValueSource(ints = {2, 4, Injector.DEFAULT_BLOCK_SIZE})
    @Watchdog.Budget(seconds = 90)
    void concurrentProducersAndConsumersLoseNothing(int blockSize) throws Exception {
        Injector injector = new Injector(blockSize);
        int producers = 3;
        int consumers = 2;
        int perProducer = Boolean.getBoolean("forage.stress.long") ? 2_000_000 : 200_000;
        int n = producers * perProducer;
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger remaining = new AtomicInteger(n);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            threads.add(new Thread(() -> {
                Pools.awaitQuietly(start);
                for (int i = 0; i < perProducer; i++) {
                    injector.push(new Job(base + i));
                }
            }));
        }
        for (int c = 0; c < consumers; c++) {
            // One consumer takes single jobs, the other batches: the two claims race on the same head.
            boolean batches = c == 1;
            threads.add(new Thread(() -> {
                Pools.awaitQuietly(start);
                int[] lastPerProducer = new int[producers];
                java.util.Arrays.fill(lastPerProducer, -1);
                Runnable[] batch = new Runnable[8];
                while (remaining.get() > 0) {
                    int got;
                    if (batches) {
                        got = injector.pollBatch(batch, batch.length, consumers, 2);
                    } else {
                        batch[0] = injector.poll();
                        got = batch[0] == null ? 0 : 1;
                    }
                    if (got == 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    for (int j = 0; j < got; j++) {
                        int id = Job.idOf(batch[j]);
                        int producer = id / perProducer;
                        if (id <= lastPerProducer[producer]) {
                            failures.add(new AssertionError("producer " + producer + "'s job " + id
                                    + " came after its job " + lastPerProducer[producer]));
                        }
                        lastPerProducer[producer] = id;
                        taken.incrementAndGet(id);
                        remaining.decrementAndGet();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), failures.toString());
        for (int i = 0; i < n; i++) {
            assertEquals(1, taken.get(i), "job " + i);
        }
        assertTrue(injector.isEmpty());
    }
}
