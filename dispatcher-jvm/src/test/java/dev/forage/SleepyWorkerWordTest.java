package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The word of Rayon's pre-RFC-5 sleep module: the encoding examples of "The global state" and each transition. */
class SleepyWorkerWordTest {
    @Test
    void encodesTheModulesExamples() {
        // 0: everyone awake; 1: some asleep, nobody sleepy; 2: worker 0 sleepy; 3: worker 0 sleepy, some asleep.
        assertFalse(SleepyWorkerWord.anyoneAsleep(0));
        assertFalse(SleepyWorkerWord.anyWorkerSleepy(0));
        assertTrue(SleepyWorkerWord.anyoneAsleep(1));
        assertFalse(SleepyWorkerWord.anyWorkerSleepy(1));
        assertEquals(2, SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.AWAKE, 0));
        assertEquals(3, SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.ASLEEP_BIT, 0));
        assertTrue(SleepyWorkerWord.workerIsSleepy(3, 0));
        assertTrue(SleepyWorkerWord.anyoneAsleep(3));
        // Rayon's pre-RFC-5 module, scenario 1: "set it to 4 (worker 1 is sleepy)".
        assertEquals(4, SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.AWAKE, 1));
    }

    @Test
    void theSleepyIndexAndTheAsleepBitNeverOverlap() {
        for (int index : new int[] {0, 1, 2, 7, 1000, 65_534}) {
            for (int bit : new int[] {0, SleepyWorkerWord.ASLEEP_BIT}) {
                int w = SleepyWorkerWord.withSleepyWorker(bit, index);
                assertEquals(index, SleepyWorkerWord.sleepyWorker(w), SleepyWorkerWord.describe(w));
                assertTrue(SleepyWorkerWord.workerIsSleepy(w, index));
                assertFalse(SleepyWorkerWord.workerIsSleepy(w, index + 1));
                assertEquals(bit != 0, SleepyWorkerWord.anyoneAsleep(w), SleepyWorkerWord.describe(w));
            }
        }
        assertEquals(-1, SleepyWorkerWord.sleepyWorker(SleepyWorkerWord.ASLEEP_BIT));
    }

    @Test
    void onlyOneWorkerIsSleepyAtATime() {
        SleepyWorkerWord word = new SleepyWorkerWord();
        assertTrue(word.getSleepy(3));
        assertFalse(word.getSleepy(5), "worker 3 is sleepy: worker 5 waits its turn");
        assertTrue(word.stillSleepy(3));
        assertFalse(word.stillSleepy(5));
        assertEquals(3, SleepyWorkerWord.sleepyWorker(word.load()));
    }

    @Test
    void fallingAsleepClearsTheSleepyWorkerAndSetsTheBit() {
        SleepyWorkerWord word = new SleepyWorkerWord();
        assertTrue(word.getSleepy(2));
        assertTrue(word.fallAsleep(2));
        assertEquals(SleepyWorkerWord.ASLEEP_BIT, word.load());
        // The next worker may get sleepy while others sleep: the bit is kept.
        assertTrue(word.getSleepy(4));
        assertEquals(SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.ASLEEP_BIT, 4), word.load());
    }

    @Test
    void aTickleClearsTheSleepyWorkerSoItCannotFallAsleep() {
        SleepyWorkerWord word = new SleepyWorkerWord();
        assertTrue(word.getSleepy(1));
        assertFalse(word.tickle(), "nobody was asleep: no notify needed");
        assertEquals(SleepyWorkerWord.AWAKE, word.load());
        assertFalse(word.stillSleepy(1));
        assertFalse(word.fallAsleep(1), "tickled since it got sleepy: it must search again");
    }

    @Test
    void aTickleReportsSleepersOnlyWhenTheBitWasSet() {
        SleepyWorkerWord word = new SleepyWorkerWord();
        assertFalse(word.tickle());
        assertTrue(word.getSleepy(0));
        assertTrue(word.fallAsleep(0));
        assertTrue(word.tickle(), "someone is asleep: the tickler must wake every sleeper");
        assertEquals(SleepyWorkerWord.AWAKE, word.load());
        assertFalse(word.tickle(), "the first tickle took the bit");
    }
}
