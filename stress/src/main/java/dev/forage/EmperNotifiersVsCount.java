package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * EMPER's sleepers count ({@link EmperSleepers}) under two notifiers at once, over one counted sleeper:
 * {@code NotifyAnywhere(1)} (an injected job) against {@code NotifyEmper(2)} (a worker that pushed two jobs on
 * its own deque). Each returns how many hints it must write, that is how many sleepers it claimed.
 *
 * <p>Pins "why the CAS loops" of {@code docs/sleep-strategies.md} section 6: exactly one notifier claims the one
 * sleeper, and {@code NotifyAnywhere}'s notification is never lost: if {@code NotifyEmper} claimed the sleeper,
 * it stays pending (count -1) for the next worker about to sleep. Two things break this: a notifier that reads,
 * decides and writes in separate steps (both read 1 and both claim the same sleeper, and the count ends at 0 or
 * -1 with one wake-up too many), and the blind {@code getAndAdd(-n)} followed by a correction that the document
 * rejects ({@code NotifyEmper(2)} takes the count to -1, {@code NotifyAnywhere} reads that -1 as "one already
 * pending" and backs off, then the correction brings the count back to 0: the injected job's notification is
 * gone).
 *
 * <p>Result: r1 sleepers claimed by {@code NotifyAnywhere}, r2 by {@code NotifyEmper}, r3 the count at the end.
 */
@JCStressTest
@Description("EMPER: NotifyAnywhere vs NotifyEmper over one sleeper: one claim, the other notification kept.")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "NotifyAnywhere claimed the sleeper; NotifyEmper found nobody (its pusher takes its own jobs).")
@Outcome(id = "0, 1, -1", expect = Expect.ACCEPTABLE,
        desc = "NotifyEmper claimed the sleeper; NotifyAnywhere left its notification pending.")
@Outcome(id = "1, 1, .*", expect = Expect.FORBIDDEN,
        desc = "Both claimed the same single sleeper: one hint has no reader, a notification is lost.")
@Outcome(id = "0, 1, 0", expect = Expect.FORBIDDEN,
        desc = "NotifyEmper claimed the sleeper and NotifyAnywhere's notification vanished (not pending).")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: nobody claimed the sleeper, or the count is off.")
@State
public class EmperNotifiersVsCount {
    private final EmperSleepers sleepers = new EmperSleepers();

    public EmperNotifiersVsCount() {
        sleepers.countSleeper(); // one worker counted as sleeping, not yet claimed
    }

    @Actor
    public void fromAnywhere(III_Result r) {
        r.r1 = sleepers.notifyAnywhere(1);
    }

    @Actor
    public void fromWorker(III_Result r) {
        r.r2 = sleepers.notifyEmper(2);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = sleepers.get();
    }
}
