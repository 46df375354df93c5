package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void medianOfAnOddSampleIsTheMiddleValueRegardlessOfOrder() {
        Stats s = Stats.of(List.of(9.0, 1.0, 5.0, 3.0, 7.0));
        assertEquals(5.0, s.median);
        assertEquals(1.0, s.min);
        assertEquals(9.0, s.max);
        assertEquals(5, s.n);
    }

    @Test
    void medianOfAnEvenSampleIsTheMeanOfTheTwoMiddleValues() {
        Stats s = Stats.of(List.of(4.0, 1.0, 3.0, 10.0));
        assertEquals(3.5, s.median);
        assertEquals(1.0, s.min);
        assertEquals(10.0, s.max);
    }

    @Test
    void singleValue() {
        Stats s = Stats.of(List.of(2.5));
        assertEquals(2.5, s.median);
        assertEquals(2.5, s.min);
        assertEquals(2.5, s.max);
    }

    @Test
    void emptyOrNaNSamplesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(List.of()));
        assertThrows(IllegalArgumentException.class, () -> Stats.of(List.of(1.0, Double.NaN)));
    }

    @Test
    void ratioIsValueOverReferenceAndUndefinedForAZeroReference() {
        assertEquals(0.8, Stats.ratio(4.0, 5.0), 1e-12);
        assertEquals(1.25, Stats.ratio(5.0, 4.0), 1e-12);
        assertTrue(Double.isNaN(Stats.ratio(0.0, 0.0)));
        assertTrue(Double.isNaN(Stats.ratio(3.0, 0.0)));
    }

    @Test
    void formatKeepsThreeSignificantDigits() {
        assertEquals("1235", Stats.format(1234.6));
        assertEquals("12.3", Stats.format(12.34));
        assertEquals("1.23", Stats.format(1.234));
        assertEquals("0.123", Stats.format(0.1234));
        assertEquals("0.00123", Stats.format(0.001234));
        assertEquals("0", Stats.format(0.0));
        assertEquals("n/a", Stats.format(Double.NaN));
    }
}
