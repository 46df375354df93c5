package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The four-state latch of Rayon RFC #5, appendix A: each transition's return value, and who gets woken. */
class CoreLatchTest {
    private final List<Integer> notified = new ArrayList<>();
    private final SpinLatch latch = new SpinLatch(notified::add, 7);

    @Test
    void startsUnset() {
        assertEquals(CoreLatch.UNSET, latch.state());
        assertFalse(latch.probe());
    }

    @Test
    void ownerGoesUnsetSleepySleepingAndBack() {
        assertTrue(latch.getSleepy());
        assertEquals(CoreLatch.SLEEPY, latch.state());
        assertTrue(latch.fallAsleep());
        assertEquals(CoreLatch.SLEEPING, latch.state());
        latch.wakeUp();
        assertEquals(CoreLatch.UNSET, latch.state());
        assertFalse(latch.probe());
        assertTrue(notified.isEmpty());
    }

    @Test
    void fallAsleepNeedsSleepyFirst() {
        assertFalse(latch.fallAsleep());
        assertEquals(CoreLatch.UNSET, latch.state());
    }

    @Test
    void setWhileUnsetWakesNobodyAndStopsTheOwnerFromSleeping() {
        latch.set();
        assertTrue(latch.probe());
        assertTrue(notified.isEmpty(), "the owner is not asleep: nothing to wake");
        assertFalse(latch.getSleepy(), "SET: the owner must not get sleepy");
        assertFalse(latch.fallAsleep());
        latch.wakeUp();
        assertEquals(CoreLatch.SET, latch.state(), "SET is final");
    }

    @Test
    void setWhileSleepyWakesNobodyAndTheOwnersNextCasFails() {
        assertTrue(latch.getSleepy());
        latch.set();
        assertTrue(notified.isEmpty(), "SLEEPY is not asleep yet: the owner's next CAS fails instead");
        assertFalse(latch.fallAsleep());
        assertEquals(CoreLatch.SET, latch.state());
    }

    @Test
    void setWhileSleepingWakesExactlyTheOwnerOnce() {
        assertTrue(latch.getSleepy());
        assertTrue(latch.fallAsleep());
        latch.set();
        assertEquals(List.of(7), notified, "the setter must wake the sleeping owner, by its index");
        latch.wakeUp();
        assertEquals(CoreLatch.SET, latch.state(), "the owner's wakeUp must not undo SET");
        latch.set();
        assertEquals(List.of(7), notified, "a second set finds SET, not SLEEPING: no second wake-up");
    }

    @Test
    void toStringNamesTheState() {
        assertEquals("SpinLatch[UNSET]", latch.toString());
        latch.set();
        assertEquals("SpinLatch[SET]", latch.toString());
    }
}
