package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The core round trip the runner records for every fork ({@link CoreRoundTrip}): a measurement that finishes and
 * lands in the range a cache line's trip between two cores can take, and a run-details line that shows each fork's
 * value before and after, since the docs read the launch row by it.
 */
class CoreRoundTripTest {
    @Test
    void aRoundTripTakesAtLeastTwoStoresAndFinishes() throws Exception {
        Guard.within(60, "core round trip", () -> {
            long nanos = CoreRoundTrip.measureNanos();
            // Two threads passing one line: at least a store seen by the other side each way (tens of
            // nanoseconds), and on a machine of one core every pass waits for a time slice (milliseconds).
            assertTrue(nanos >= 10 && nanos < 50_000_000, "round trip " + nanos + " ns");
        });
    }

    @Test
    void aBurstStopsAtItsTimeCap() throws Exception {
        // 2^31 round trips would take minutes even at 60 ns each: the burst must stop on its own, and the other
        // thread with it (the join inside would hang otherwise).
        Guard.within(60, "capped burst", () -> {
            long nanos = CoreRoundTrip.burstNanos(Integer.MAX_VALUE);
            assertTrue(nanos >= 10, "round trip " + nanos + " ns");
        });
    }

    @Test
    void theRunDetailsShowEachForkBeforeAndAfter() {
        RunData d = new RunData();
        d.add(ResultLine.info("launch-1m", "forage-jec", 2, CoreRoundTrip.INFO_KEY, "62/331"));
        d.add(ResultLine.info("launch-1m", "forage-jec", 2, CoreRoundTrip.INFO_KEY, "58/60"));
        String details = Report.details(d, List.of(Scenarios.byId("launch-1m")),
                List.of(Subjects.byId("forage-jec")));
        assertTrue(details.contains("core round trip before/after 62/331 · 58/60 ns"), details);
    }
}
