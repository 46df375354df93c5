package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class IoBesideChainTest {
    @Test
    void everyRoundTripIsRecordedAndTheChainRunsBesideTheServerOnlyWhenAsked() throws Exception {
        IoBesideChain.Result on = IoBesideChain.run(true, 300, 20, 200, 2);
        assertEquals(300, on.sorted().length);
        for (int i = 0; i < on.sorted().length; i++) {
            assertTrue(on.sorted()[i] > 0, "a round trip takes time");
            assertTrue(i == 0 || on.sorted()[i - 1] <= on.sorted()[i], "sorted");
        }
        assertTrue(on.chainJobs() > 0, "the chain ran");
        // The chain's count is read as it stops, and the last echo's job may be counted after its answer was read:
        // one job of slack for each.
        assertTrue(on.statistics().jobsRun() >= on.chainJobs() + 318, on.statistics().toString());

        IoBesideChain.Result off = IoBesideChain.run(false, 100, 10, 200, 2);
        assertEquals(0, off.chainJobs());
        assertTrue(off.statistics().jobsRun() >= 109, "one job per echo: " + off.statistics());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        off.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("chain off: 100 round trips, p50 "), bytes.toString());
    }

    @Test
    void badOptionsAreRefusedWithWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IoBesideChain.main(new String[] {"--chain", "maybe"}));
        assertEquals("--chain must be on or off, was maybe", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> IoBesideChain.main(new String[] {"--rounds", "3"}));
        assertTrue(e.getMessage().contains("--chain, --samples"), e.getMessage());
    }
}
