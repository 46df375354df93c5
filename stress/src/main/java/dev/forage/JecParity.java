package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JIZ_Result;

/**
 * The JEC's own guarantee, on the real {@link JecCounters}: a poster's flip of the JEC (I3,
 * {@code incrementJecIfSleepy}) that lands after a worker got sleepy (S1, {@code incrementJecIfActive}) and
 * before it counts itself (S2, the whole-word CAS from the word it loaded) makes that CAS fail, so the worker
 * searches again instead of sleeping. Pins S1/S2 against I3 of {@code docs/sleep.md}: a CAS on the sleeping
 * count alone (ignoring the JEC) would let the worker sleep through work that the poster, seeing no sleeper,
 * does not wake anyone for.
 *
 * <p>The JEC starts odd (1). The worker's S1 makes it even (2) and remembers it; S2 is JecSleep's loop: load,
 * give up if the JEC moved, else CAS, and on a failed CAS load again. The poster flips 2 to 3, or finds 1 (odd,
 * before S1) and writes nothing.
 *
 * <p>Result: r1 the JEC after the poster's I3, r2 sleepers the poster saw, r3 the worker counted itself.
 */
@JCStressTest
@Description("Poster's JEC flip vs sleepy worker's whole-word CAS: a flip after S1 always stops the sleep.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE,
        desc = "Poster before S1: JEC odd, no write; the worker sleeps (the injector check covers this case).")
@Outcome(id = "3, 0, false", expect = Expect.ACCEPTABLE, desc = "Flip between S1 and S2: the worker's CAS fails, it stays up.")
@Outcome(id = "3, 1, true", expect = Expect.ACCEPTABLE, desc = "Flip after S2: the poster sees the sleeper and wakes it.")
@Outcome(id = "3, 0, true", expect = Expect.FORBIDDEN,
        desc = "The worker counted itself although the JEC moved after S1, and the poster saw no sleeper.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else.")
@State
public class JecParity {
    private final JecCounters counters = new JecCounters();

    public JecParity() {
        counters.addInactiveThread();
        counters.incrementJecIfSleepy(); // JEC = 1: a previous post
    }

    @Actor
    public void poster(JIZ_Result r) {
        long c = counters.incrementJecIfSleepy(); // I3
        r.r1 = JecCounters.jec(c);
        r.r2 = JecCounters.sleepingThreads(c);
    }

    @Actor
    public void sleepyWorker(JIZ_Result r) {
        long remembered = JecCounters.jec(counters.incrementJecIfActive()); // S1
        while (true) { // S2, as in JecSleep.sleep
            long c = counters.load();
            if (JecCounters.jec(c) != remembered) {
                r.r3 = false;
                return;
            }
            if (counters.tryAddSleepingThread(c)) {
                r.r3 = true;
                return;
            }
        }
    }
}
