package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The padded word behaves as an atomic long: its operations, and no lost update under contention. */
class PaddedAtomicLongTest {
    @Test
    void operationsReturnWhatAtomicLongWould() {
        PaddedAtomicLong w = new PaddedAtomicLong();
        assertEquals(0, w.get());
        assertEquals(0, w.getAndIncrement());
        assertEquals(1, w.getAndAdd(10));
        assertEquals(11, w.getAndDecrement());
        assertEquals(10, w.get());
        assertFalse(w.compareAndSet(3, 4));
        assertTrue(w.compareAndSet(10, 1L << 62));
        assertEquals(1L << 62, w.get());
        w.set(-5);
        assertEquals("-5", w.toString());
    }

    @Test
    void concurrentIncrementsAreNotLost() throws InterruptedException {
        PaddedAtomicLong w = new PaddedAtomicLong();
        int threads = 4;
        int each = 100_000;
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    w.getAndIncrement();
                }
            });
            all.add(thread);
            thread.start();
        }
        for (Thread thread : all) {
            thread.join();
        }
        assertEquals((long) threads * each, w.get());
    }
}
