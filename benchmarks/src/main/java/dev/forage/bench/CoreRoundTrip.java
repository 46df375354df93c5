package dev.forage.bench;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What it costs this machine, right now, to move a cache line from one core to the other and back: two threads
 * pass a counter back and forth, each spinning until the other has written it, and the round trip is the time
 * of one pass there and back.
 *
 * <p>Why the runner records it: on a cloud machine the two virtual CPUs are threads the host places, and it moves
 * them, in the middle of a JVM's run too, and any row whose time is lines moving between two workers follows the
 * round trip of the moment (docs/comparison-runner.md, "The machine's placement"). The round trip before and
 * after the scenario, in the run details, says which placement each fork had.
 *
 * <p>The threads spin: the other core must be free, so it is measured outside the timed part, with the pool's
 * workers idle.
 */
public final class CoreRoundTrip {
    /** The {@link Results} info key, shown in the run details. */
    public static final String INFO_KEY = "coreRoundTripNanos";

    private static final int ROUNDS = 50_000;
    private static final int BURSTS = 3;
    private static final long CAP_NANOS = 100_000_000L;

    private CoreRoundTrip() {
    }

    /**
     * The median of three bursts of 50,000 round trips between the calling thread and a new one, in nanoseconds
     * per round trip. Takes 10 to 60 ms on a machine of two cores; on one, where each pass waits for a time slice,
     * each burst is cut short after about 100 ms.
     */
    public static long measureNanos() throws InterruptedException {
        long[] bursts = new long[BURSTS];
        for (int i = 0; i < BURSTS; i++) {
            bursts[i] = burstNanos(ROUNDS);
        }
        Arrays.sort(bursts);
        return bursts[BURSTS / 2];
    }

    /**
     * One burst: {@code rounds} round trips, or fewer once 100 ms have passed (checked every 64); nanoseconds per
     * round trip.
     */
    static long burstNanos(int rounds) throws InterruptedException {
        AtomicLong ball = new AtomicLong();
        // This side serves 2, 4, 6, ...; the other answers each serve v with v + 1, and stops at a negative
        // value. Its first write, 1, says it runs, so the clock starts after the thread's start-up. Plain
        // spinning, no onSpinWait: its pause would add its own latency to every pass.
        Thread other = new Thread(() -> {
            ball.set(1);
            for (long expect = 2; ; expect += 2) {
                long v;
                while ((v = ball.get()) != expect) {
                    if (v < 0) {
                        return;
                    }
                }
                ball.lazySet(v + 1);
            }
        }, "core-round-trip");
        other.setDaemon(true);
        other.start();
        while (ball.get() != 1) {
            // spin until the other side runs
        }
        long start = System.nanoTime();
        int done = 0;
        while (done < rounds && ((done & 63) != 0 || System.nanoTime() - start < CAP_NANOS)) {
            long v = 2 + 2L * done;
            ball.lazySet(v);
            while (ball.get() != v + 1) {
                // spin until the answer arrives
            }
            done++;
        }
        long elapsed = System.nanoTime() - start;
        ball.set(-1);
        other.join();
        return elapsed / Math.max(1, done);
    }
}
