package dev.forage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;

/**
 * The probe for refusal messages: a task whose {@code toString} prints a 5,000-character payload after
 * {@link #MARK}. A message that quotes it whole runs long; one that quotes it twice (a facade quoting the pool's
 * message) shows the mark twice.
 */
public final class LongNamedTask implements Runnable, Callable<String> {
    public static final String MARK = "LONG-NAMED-TASK";
    /** The most characters a refusal or bad-input message may have. */
    public static final int MAX_MESSAGE = 300;

    @Override
    public void run() {
    }

    @Override
    public String call() {
        return "called";
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(MARK);
        for (int i = 0; i < 5000; i++) {
            b.append('x');
        }
        return b.toString();
    }

    public static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** At most {@link #MAX_MESSAGE} characters. */
    public static void assertShort(Throwable e) {
        String m = e.getMessage();
        assertTrue(m != null && m.length() <= MAX_MESSAGE, () -> e + " (" + (m == null ? 0 : m.length()) + " characters)");
    }

    /** Short, and names a {@code LongNamedTask} exactly once. */
    public static void assertNamesItOnce(Throwable e) {
        assertShort(e);
        assertEquals(1, occurrences(e.getMessage(), MARK), e.getMessage());
    }
}
