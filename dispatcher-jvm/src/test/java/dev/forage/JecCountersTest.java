package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The packed counters word: layout, rollover, parity rules and the whole-word CAS (Rayon's sleep module). */
class JecCountersTest {
    private static final long SLEEPING_FIELD = JecCounters.THREADS_MASK;
    private static final long INACTIVE_FIELD = JecCounters.THREADS_MASK << JecCounters.THREADS_BITS;
    private static final long JEC_FIELD = -1L << JecCounters.JEC_SHIFT;
    private static final long JEC_MAX = 0xFFFF_FFFFL;

    private static long word(long jec, int inactive, int sleeping) {
        return (jec << JecCounters.JEC_SHIFT) | ((long) inactive << JecCounters.THREADS_BITS) | sleeping;
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
        assertEquals(1, Long.bitCount(JecCounters.ONE_SLEEPING));
        assertEquals(1, Long.bitCount(JecCounters.ONE_INACTIVE));
        assertEquals(1, Long.bitCount(JecCounters.ONE_JEC));
        assertEquals(JecCounters.ONE_SLEEPING, Long.lowestOneBit(SLEEPING_FIELD));
        assertEquals(JecCounters.ONE_INACTIVE, Long.lowestOneBit(INACTIVE_FIELD));
        assertEquals(JecCounters.ONE_JEC, Long.lowestOneBit(JEC_FIELD));
    }

    @Test
    void theThreadLimitIsTheLargestCountAFieldHolds() {
        assertEquals(65_535, JecCounters.THREADS_MAX);
        long full = JecCounters.THREADS_MAX * JecCounters.ONE_SLEEPING + JecCounters.THREADS_MAX * JecCounters.ONE_INACTIVE;
        assertEquals(JecCounters.THREADS_MAX, JecCounters.sleepingThreads(full));
        assertEquals(JecCounters.THREADS_MAX, JecCounters.inactiveThreads(full));
        assertEquals(0L, JecCounters.jec(full), "full thread counts must not spill into the JEC");
    }

    @Test
    void fieldsDecodeIndependently() {
        long w = word(0xDEAD_BEEFL, 1234, 567);
        assertEquals(567, JecCounters.sleepingThreads(w));
        assertEquals(1234, JecCounters.inactiveThreads(w));
        assertEquals(0xDEAD_BEEFL, JecCounters.jec(w));
        assertEquals(1234 - 567, JecCounters.awakeButIdleThreads(w));
        assertFalse(JecCounters.isJecSleepy(w), "an odd JEC means new work since the last sleepy");
        assertTrue(JecCounters.isJecSleepy(word(2, 0, 0)));
    }

    @Test
    void jecWrapsFromItsMaximumWithoutTouchingTheThreadCounts() {
        JecCounters c = new JecCounters();
        // JEC max is odd ("active"): getting sleepy increments it, and it must wrap to 0 alone.
        c.setForTest(word(JEC_MAX, 7, 3));
        long after = c.incrementJecIfActive();
        assertEquals(0L, JecCounters.jec(after), JecCounters.describe(after));
        assertEquals(3, JecCounters.sleepingThreads(after), JecCounters.describe(after));
        assertEquals(7, JecCounters.inactiveThreads(after), JecCounters.describe(after));
        assertEquals(after, c.load());
        assertTrue(JecCounters.isJecSleepy(after), "0 is even: sleepy");
    }

    @Test
    void jecWrapsWithFullThreadCounts() {
        JecCounters c = new JecCounters();
        c.setForTest(word(JEC_MAX - 1, JecCounters.THREADS_MAX, JecCounters.THREADS_MAX));
        long odd = c.incrementJecIfSleepy();
        assertEquals(JEC_MAX, JecCounters.jec(odd));
        long wrapped = c.incrementJecIfActive();
        assertEquals(0L, JecCounters.jec(wrapped), JecCounters.describe(wrapped));
        assertEquals(JecCounters.THREADS_MAX, JecCounters.sleepingThreads(wrapped), JecCounters.describe(wrapped));
        assertEquals(JecCounters.THREADS_MAX, JecCounters.inactiveThreads(wrapped), JecCounters.describe(wrapped));
        long next = c.incrementJecIfSleepy();
        assertEquals(1L, JecCounters.jec(next));
        assertEquals(JecCounters.THREADS_MAX, JecCounters.sleepingThreads(next));
        assertEquals(JecCounters.THREADS_MAX, JecCounters.inactiveThreads(next));
    }

    @Test
    void incrementJecIfSleepyFlipsOnlyAnEvenJec() {
        JecCounters c = new JecCounters();
        c.setForTest(word(10, 2, 1));
        long updated = c.incrementJecIfSleepy();
        assertEquals(11L, JecCounters.jec(updated), "even (sleepy) JEC must become odd");
        assertEquals(updated, c.load(), "returns the word after the update");
        long unchanged = c.incrementJecIfSleepy();
        assertEquals(11L, JecCounters.jec(unchanged), "odd JEC must be left alone");
        assertEquals(updated, unchanged);
        assertEquals(1, JecCounters.sleepingThreads(unchanged));
        assertEquals(2, JecCounters.inactiveThreads(unchanged));
    }

    @Test
    void incrementJecIfActiveFlipsOnlyAnOddJec() {
        JecCounters c = new JecCounters();
        c.setForTest(word(11, 2, 1));
        long updated = c.incrementJecIfActive();
        assertEquals(12L, JecCounters.jec(updated), "odd (active) JEC must become even");
        assertEquals(updated, c.load());
        long unchanged = c.incrementJecIfActive();
        assertEquals(12L, JecCounters.jec(unchanged), "even JEC must be left alone");
        assertEquals(updated, unchanged);
    }

    @Test
    void tryAddSleepingThreadSucceedsOnlyOnTheExactWord() {
        JecCounters c = new JecCounters();
        c.setForTest(word(4, 3, 1));
        long seen = c.load();
        assertTrue(c.tryAddSleepingThread(seen));
        long now = c.load();
        assertEquals(2, JecCounters.sleepingThreads(now));
        assertEquals(3, JecCounters.inactiveThreads(now));
        assertEquals(4L, JecCounters.jec(now));
        assertFalse(c.tryAddSleepingThread(seen), "a stale word must not add a sleeper");
        assertEquals(now, c.load());
    }

    @Test
    void tryAddSleepingThreadFailsWhenTheJecMoved() {
        JecCounters c = new JecCounters();
        c.setForTest(word(4, 3, 1)); // a sleepy JEC
        long seen = c.load();
        c.incrementJecIfSleepy(); // new work posted after the worker read the word
        long before = c.load();
        assertFalse(c.tryAddSleepingThread(seen), "the JEC moved: the worker must not count itself asleep");
        assertEquals(before, c.load(), "a failed attempt must leave the word alone");
        assertEquals(1, JecCounters.sleepingThreads(c.load()));
    }

    @Test
    void tryAddSleepingThreadFailsWhenAnotherFieldMoved() {
        JecCounters c = new JecCounters();
        long seen = c.load();
        c.addInactiveThread();
        assertFalse(c.tryAddSleepingThread(seen));
        assertEquals(0, JecCounters.sleepingThreads(c.load()));
    }

    @Test
    void subInactiveThreadReturnsTheSleepersBeforeTheDecrement() {
        // The strategy applies its own ramp-up cap (Tunable.WAKE_ON_WORK_FOUND); the word reports the truth.
        int[][] sleepingToExpected = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {100, 100}};
        for (int[] row : sleepingToExpected) {
            JecCounters c = new JecCounters();
            c.setForTest(word(1, row[0] + 1, row[0]));
            assertEquals(row[1], c.subInactiveThread(), "sleeping=" + row[0]);
            assertEquals(row[0], JecCounters.inactiveThreads(c.load()));
            assertEquals(row[0], JecCounters.sleepingThreads(c.load()));
        }
    }

    @Test
    void inactiveAndSleepingCountsMoveByOne() {
        JecCounters c = new JecCounters();
        c.addInactiveThread();
        c.addInactiveThread();
        assertEquals(2, JecCounters.inactiveThreads(c.load()));
        assertEquals(2, JecCounters.awakeButIdleThreads(c.load()));
        assertTrue(c.tryAddSleepingThread(c.load()));
        assertEquals(1, JecCounters.sleepingThreads(c.load()));
        assertEquals(1, JecCounters.awakeButIdleThreads(c.load()));
        c.subSleepingThread();
        assertEquals(0, JecCounters.sleepingThreads(c.load()));
        assertEquals(2, JecCounters.inactiveThreads(c.load()));
        assertEquals(0L, JecCounters.jec(c.load()), "thread-count updates never touch the JEC");
    }
}
