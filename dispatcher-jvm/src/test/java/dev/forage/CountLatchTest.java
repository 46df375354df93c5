package dev.forage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The scope's counting latch: set by the last of (body + spawned jobs), never incremented after. */
class CountLatchTest {
    @Test
    void theBodysOwnCountSetsItWhenNothingWasSpawned() {
        LockLatch inner = new LockLatch();
        CountLatch latch = new CountLatch(inner);
        assertFalse(latch.probe());
        latch.set();
        assertTrue(latch.probe());
        assertTrue(inner.probe());
        assertSame(inner, latch.inner());
    }

    @Test
    void onlyTheLastDecrementSetsTheInnerLatch() {
        LockLatch inner = new LockLatch();
        CountLatch latch = new CountLatch(inner);
        latch.increment();
        latch.increment();
        latch.set(); // the body
        assertFalse(latch.probe());
        latch.set();
        assertFalse(latch.probe());
        latch.set();
        assertTrue(latch.probe());
    }

    @Test
    void incrementAfterItWasSetIsRefused() {
        CountLatch latch = new CountLatch(new LockLatch());
        latch.set();
        IllegalStateException e = assertThrows(IllegalStateException.class, latch::increment);
        assertTrue(e.getMessage().contains("after it was set"), e.getMessage());
        // A refused increment must leave the count alone, or the next one would be accepted.
        assertThrows(IllegalStateException.class, latch::increment);
        assertThrows(IllegalStateException.class, latch::increment);
        assertTrue(latch.probe());
    }

    @Test
    void worksWithASpinLatchInside() {
        int[] woken = {0};
        SpinLatch inner = new SpinLatch(index -> woken[0]++, 0);
        CountLatch latch = new CountLatch(inner);
        latch.increment();
        assertTrue(inner.getSleepy());
        assertTrue(inner.fallAsleep());
        latch.set();
        assertFalse(latch.probe());
        latch.set();
        assertTrue(latch.probe());
        assertTrue(woken[0] == 1, "the final decrement must wake the sleeping owner once, was " + woken[0]);
    }
}
