package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.bench.scenario.LaunchLoop;
import org.junit.jupiter.api.Test;

/**
 * The launch row's split ({@link LaunchLoop}), which the run details show next to the timings and the docs read
 * the row by: it must see a pool that runs no child while the loop launches, and it must count every child.
 */
class LaunchLoopTest {
    private static final int CHILDREN = 20_000;

    @Test
    void onOneWorkerNoChildRunsBeforeTheLoopEnds() throws Exception {
        Guard.within(60, "one-worker launch loop", () -> {
            try (Running r = Subjects.byId("forage-jec").open(1)) {
                LaunchLoop.Split split = LaunchLoop.measureOnce(r.requireDispatcher(), CHILDREN);
                // The launching coroutine holds the only worker until its loop ends, so every child waits.
                assertEquals(0L, split.getDoneDuringLoop(), "children done during the loop");
                assertTrue(split.getLoopNanos() > 0 && split.getLoopNanos() <= split.getOpNanos(),
                        "loop " + split.getLoopNanos() + " ns of " + split.getOpNanos());
            }
        });
    }

    @Test
    void onTwoWorkersTheCountStaysWithinTheChildren() throws Exception {
        Guard.within(60, "two-worker launch loop", () -> {
            try (Running r = Subjects.byId("forkjoin").open(2)) {
                LaunchLoop.Split split = LaunchLoop.measureOnce(r.requireDispatcher(), CHILDREN);
                assertTrue(split.getDoneDuringLoop() >= 0 && split.getDoneDuringLoop() <= CHILDREN,
                        "children done during the loop: " + split.getDoneDuringLoop());
                assertTrue(split.getLoopNanos() <= split.getOpNanos());
            }
        });
    }
}
