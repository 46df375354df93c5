package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.Color;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChartsTest {
    /** A --strategies run charts every subject at once: two with one colour cannot be told apart. */
    @Test
    void everySubjectHasItsOwnColour() {
        Set<Color> colours = new HashSet<>();
        for (Subject s : Subjects.ALL) {
            colours.add(Charts.color(s));
        }
        assertEquals(Subjects.ALL.size(), colours.size(), "distinct colours for " + Subjects.ALL);
    }
}
