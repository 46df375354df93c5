package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The word of Rayon's pre-RFC-5 sleep module: the encoding examples of "The global state" and each transition. */
class SleepyWordTest {
    @Test
    void encodesTheModulesExamples() {
        // 0: everyone awake; 1: some asleep, nobody sleepy; 2: worker 0 sleepy; 3: worker 0 sleepy, some asleep.
        assertFalse(SleepyWord.anyoneAsleep(0));
        assertFalse(SleepyWord.anyWorkerSleepy(0));
        assertTrue(SleepyWord.anyoneAsleep(1));
        assertFalse(SleepyWord.anyWorkerSleepy(1));
        assertEquals(2, SleepyWord.withSleepyWorker(SleepyWord.AWAKE, 0));
        assertEquals(3, SleepyWord.withSleepyWorker(SleepyWord.ASLEEP_BIT, 0));
        assertTrue(SleepyWord.workerIsSleepy(3, 0));
        assertTrue(SleepyWord.anyoneAsleep(3));
        // Rayon's pre-RFC-5 module, scenario 1: "set it to 4 (worker 1 is sleepy)".
        assertEquals(4, SleepyWord.withSleepyWorker(SleepyWord.AWAKE, 1));
    }

    @Test
    void theSleepyIndexAndTheAsleepBitNeverOverlap() {
        for (int index : new int[] {0, 1, 2, 7, 1000, 65_534}) {
            for (int bit : new int[] {0, SleepyWord.ASLEEP_BIT}) {
                int w = SleepyWord.withSleepyWorker(bit, index);
                assertEquals(index, SleepyWord.sleepyWorker(w), SleepyWord.describe(w));
                assertTrue(SleepyWord.workerIsSleepy(w, index));
                assertFalse(SleepyWord.workerIsSleepy(w, index + 1));
                assertEquals(bit != 0, SleepyWord.anyoneAsleep(w), SleepyWord.describe(w));
            }
        }
        assertEquals(-1, SleepyWord.sleepyWorker(SleepyWord.ASLEEP_BIT));
    }

    @Test
    void onlyOneWorkerIsSleepyAtATime() {
        SleepyWord word = new SleepyWord();
        assertTrue(word.getSleepy(3));
        assertFalse(word.getSleepy(5), "worker 3 is sleepy: worker 5 waits its turn");
        assertTrue(word.stillSleepy(3));
        assertFalse(word.stillSleepy(5));
        assertEquals(3, SleepyWord.sleepyWorker(word.load()));
    }

    @Test
    void fallingAsleepClearsTheSleepyWorkerAndSetsTheBit() {
        SleepyWord word = new SleepyWord();
        assertTrue(word.getSleepy(2));
        assertTrue(word.fallAsleep(2));
        assertEquals(SleepyWord.ASLEEP_BIT, word.load());
        // The next worker may get sleepy while others sleep: the bit is kept.
        assertTrue(word.getSleepy(4));
        assertEquals(SleepyWord.withSleepyWorker(SleepyWord.ASLEEP_BIT, 4), word.load());
    }

    @Test
    void aTickleClearsTheSleepyWorkerSoItCannotFallAsleep() {
        SleepyWord word = new SleepyWord();
        assertTrue(word.getSleepy(1));
        assertFalse(word.tickle(), "nobody was asleep: no notify needed");
        assertEquals(SleepyWord.AWAKE, word.load());
        assertFalse(word.stillSleepy(1));
        assertFalse(word.fallAsleep(1), "tickled since it got sleepy: it must search again");
    }

    @Test
    void aTickleReportsSleepersOnlyWhenTheBitWasSet() {
        SleepyWord word = new SleepyWord();
        assertFalse(word.tickle());
        assertTrue(word.getSleepy(0));
        assertTrue(word.fallAsleep(0));
        assertTrue(word.tickle(), "someone is asleep: the tickler must wake every sleeper");
        assertEquals(SleepyWord.AWAKE, word.load());
        assertFalse(word.tickle(), "the first tickle took the bit");
    }
}
