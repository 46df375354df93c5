package dev.forage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.ChildJvm;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * An idle pool holds little heap (docs/lifecycle.md, "What an idle pool costs"): what compensation needs for each
 * of the {@code maxBlockingThreads} extra slots is made when a slot is first used, not with the pool, so apps
 * that build a pool per tenant or per test do not pay for stand-ins they never start.
 */
class IdleHeapTest {
    /** The bound docs/lifecycle.md states for a default two-thread pool. */
    static final long BOUND_BYTES = 16 * 1024;

    @Test
    void aDefaultTwoThreadPoolHoldsAtMost16KiBWhileIdle() throws Exception {
        String out = ChildJvm.run(2, Arrays.asList("-XX:+UseSerialGC", "-Xmx256m"), IdleHeapMain.class);
        int at = out.indexOf(IdleHeapMain.PREFIX);
        assertTrue(at >= 0, out);
        String number = out.substring(at + IdleHeapMain.PREFIX.length()).split(" ")[0];
        long bytes = Long.parseLong(number);
        System.out.println(IdleHeapMain.PREFIX + bytes + " bytes (bound " + BOUND_BYTES + ")");
        assertTrue(bytes <= BOUND_BYTES, "an idle default pool holds " + bytes + " bytes of heap; the bound is "
                + BOUND_BYTES + "\n" + out);
        assertTrue(bytes > 0, "the measurement saw no pool at all:\n" + out);
    }
}
