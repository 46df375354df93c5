package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The packed counters word: layout, rollover, parity rules and the whole-word CAS (Rayon's sleep module). */
class CountersTest {
    private static final long SLEEPING_FIELD = Counters.THREADS_MASK;
    private static final long INACTIVE_FIELD = Counters.THREADS_MASK << Counters.THREADS_BITS;
    private static final long JEC_FIELD = -1L << Counters.JEC_SHIFT;
    private static final long JEC_MAX = 0xFFFF_FFFFL;

    private static long word(long jec, int inactive, int sleeping) {
        return (jec << Counters.JEC_SHIFT) | ((long) inactive << Counters.THREADS_BITS) | sleeping;
    }

    @Test
    void bitFieldsAreDisjointAndCoverTheWord() {
        assertEquals(0L, SLEEPING_FIELD & INACTIVE_FIELD, "sleeping and inactive fields overlap");
        assertEquals(0L, SLEEPING_FIELD & JEC_FIELD, "sleeping and JEC fields overlap");
        assertEquals(0L, INACTIVE_FIELD & JEC_FIELD, "inactive and JEC fields overlap");
        assertEquals(-1L, SLEEPING_FIELD | INACTIVE_FIELD | JEC_FIELD, "the three fields must cover all 64 bits");
    }

    @Test
    void eachUnitIsTheLowestBitOfItsOwnField() {
        assertEquals(1, Long.bitCount(Counters.ONE_SLEEPING));
        assertEquals(1, Long.bitCount(Counters.ONE_INACTIVE));
        assertEquals(1, Long.bitCount(Counters.ONE_JEC));
        assertEquals(Counters.ONE_SLEEPING, Long.lowestOneBit(SLEEPING_FIELD));
        assertEquals(Counters.ONE_INACTIVE, Long.lowestOneBit(INACTIVE_FIELD));
        assertEquals(Counters.ONE_JEC, Long.lowestOneBit(JEC_FIELD));
    }

    @Test
    void theThreadLimitIsTheLargestCountAFieldHolds() {
        assertEquals(65_535, Counters.THREADS_MAX);
        long full = Counters.THREADS_MAX * Counters.ONE_SLEEPING + Counters.THREADS_MAX * Counters.ONE_INACTIVE;
        assertEquals(Counters.THREADS_MAX, Counters.sleepingThreads(full));
        assertEquals(Counters.THREADS_MAX, Counters.inactiveThreads(full));
        assertEquals(0L, Counters.jec(full), "full thread counts must not spill into the JEC");
    }

    @Test
    void fieldsDecodeIndependently() {
        long w = word(0xDEAD_BEEFL, 1234, 567);
        assertEquals(567, Counters.sleepingThreads(w));
        assertEquals(1234, Counters.inactiveThreads(w));
        assertEquals(0xDEAD_BEEFL, Counters.jec(w));
        assertEquals(1234 - 567, Counters.awakeButIdleThreads(w));
        assertFalse(Counters.isJecSleepy(w), "an odd JEC means new work since the last sleepy");
        assertTrue(Counters.isJecSleepy(word(2, 0, 0)));
    }

    @Test
    void jecWrapsFromItsMaximumWithoutTouchingTheThreadCounts() {
        Counters c = new Counters();
        // JEC max is odd ("active"): getting sleepy increments it, and it must wrap to 0 alone.
        c.setForTest(word(JEC_MAX, 7, 3));
        long after = c.incrementJecIfActive();
        assertEquals(0L, Counters.jec(after), Counters.describe(after));
        assertEquals(3, Counters.sleepingThreads(after), Counters.describe(after));
        assertEquals(7, Counters.inactiveThreads(after), Counters.describe(after));
        assertEquals(after, c.load());
        assertTrue(Counters.isJecSleepy(after), "0 is even: sleepy");
    }

    @Test
    void jecWrapsWithFullThreadCounts() {
        Counters c = new Counters();
        c.setForTest(word(JEC_MAX - 1, Counters.THREADS_MAX, Counters.THREADS_MAX));
        long odd = c.incrementJecIfSleepy();
        assertEquals(JEC_MAX, Counters.jec(odd));
        long wrapped = c.incrementJecIfActive();
        assertEquals(0L, Counters.jec(wrapped), Counters.describe(wrapped));
        assertEquals(Counters.THREADS_MAX, Counters.sleepingThreads(wrapped), Counters.describe(wrapped));
        assertEquals(Counters.THREADS_MAX, Counters.inactiveThreads(wrapped), Counters.describe(wrapped));
        long next = c.incrementJecIfSleepy();
        assertEquals(1L, Counters.jec(next));
        assertEquals(Counters.THREADS_MAX, Counters.sleepingThreads(next));
        assertEquals(Counters.THREADS_MAX, Counters.inactiveThreads(next));
    }

    @Test
    void incrementJecIfSleepyFlipsOnlyAnEvenJec() {
        Counters c = new Counters();
        c.setForTest(word(10, 2, 1));
        long updated = c.incrementJecIfSleepy();
        assertEquals(11L, Counters.jec(updated), "even (sleepy) JEC must become odd");
        assertEquals(updated, c.load(), "returns the word after the update");
        long unchanged = c.incrementJecIfSleepy();
        assertEquals(11L, Counters.jec(unchanged), "odd JEC must be left alone");
        assertEquals(updated, unchanged);
        assertEquals(1, Counters.sleepingThreads(unchanged));
        assertEquals(2, Counters.inactiveThreads(unchanged));
    }

    @Test
    void incrementJecIfActiveFlipsOnlyAnOddJec() {
        Counters c = new Counters();
        c.setForTest(word(11, 2, 1));
        long updated = c.incrementJecIfActive();
        assertEquals(12L, Counters.jec(updated), "odd (active) JEC must become even");
        assertEquals(updated, c.load());
        long unchanged = c.incrementJecIfActive();
        assertEquals(12L, Counters.jec(unchanged), "even JEC must be left alone");
        assertEquals(updated, unchanged);
    }

    @Test
    void tryAddSleepingThreadSucceedsOnlyOnTheExactWord() {
        Counters c = new Counters();
        c.setForTest(word(4, 3, 1));
        long seen = c.load();
        assertTrue(c.tryAddSleepingThread(seen));
        long now = c.load();
        assertEquals(2, Counters.sleepingThreads(now));
        assertEquals(3, Counters.inactiveThreads(now));
        assertEquals(4L, Counters.jec(now));
        assertFalse(c.tryAddSleepingThread(seen), "a stale word must not add a sleeper");
        assertEquals(now, c.load());
    }

    @Test
    void tryAddSleepingThreadFailsWhenTheJecMoved() {
        Counters c = new Counters();
        c.setForTest(word(4, 3, 1)); // a sleepy JEC
        long seen = c.load();
        c.incrementJecIfSleepy(); // new work posted after the worker read the word
        long before = c.load();
        assertFalse(c.tryAddSleepingThread(seen), "the JEC moved: the worker must not count itself asleep");
        assertEquals(before, c.load(), "a failed attempt must leave the word alone");
        assertEquals(1, Counters.sleepingThreads(c.load()));
    }

    @Test
    void tryAddSleepingThreadFailsWhenAnotherFieldMoved() {
        Counters c = new Counters();
        long seen = c.load();
        c.addInactiveThread();
        assertFalse(c.tryAddSleepingThread(seen));
        assertEquals(0, Counters.sleepingThreads(c.load()));
    }

    @Test
    void subInactiveThreadReturnsTheSleepersBeforeTheDecrement() {
        // The strategy applies its own ramp-up cap (Tunable.WAKE_ON_WORK_FOUND); the word reports the truth.
        int[][] sleepingToExpected = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {100, 100}};
        for (int[] row : sleepingToExpected) {
            Counters c = new Counters();
            c.setForTest(word(1, row[0] + 1, row[0]));
            assertEquals(row[1], c.subInactiveThread(), "sleeping=" + row[0]);
            assertEquals(row[0], Counters.inactiveThreads(c.load()));
            assertEquals(row[0], Counters.sleepingThreads(c.load()));
        }
    }

    @Test
    void inactiveAndSleepingCountsMoveByOne() {
        Counters c = new Counters();
        c.addInactiveThread();
        c.addInactiveThread();
        assertEquals(2, Counters.inactiveThreads(c.load()));
        assertEquals(2, Counters.awakeButIdleThreads(c.load()));
        assertTrue(c.tryAddSleepingThread(c.load()));
        assertEquals(1, Counters.sleepingThreads(c.load()));
        assertEquals(1, Counters.awakeButIdleThreads(c.load()));
        c.subSleepingThread();
        assertEquals(0, Counters.sleepingThreads(c.load()));
        assertEquals(2, Counters.inactiveThreads(c.load()));
        assertEquals(0L, Counters.jec(c.load()), "thread-count updates never touch the JEC");
    }
}
