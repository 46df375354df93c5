package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * The other side of {@link HandOverVsSelect} ({@code docs/io.md} section 3.1): the key on the owner's selector holds
 * no interest (the first wait was cancelled), so a select in progress would not end when the pipe turns readable. A
 * wait handed over to it must wake the owner (H2 finds the operation missing), whose next select, after P0 applied
 * the wait, sees the byte. A hand-over that skipped the wake-up whenever the owner selects, ignoring the interest,
 * leaves the owner asleep for its whole second. Fresh reactor and pipe per sample ({@link HandOverPair}).
 *
 * <p>Result: r1 the owner's park ended before its second, r2 the wait was told at the owner's next look.
 */
@JCStressTest
@Description("A new wait handed over to an owner whose select lacks its interest: the owner is woken.")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE,
        desc = "The select (or a permit) ended the park; the wait was applied and told.")
@Outcome(id = "false, true", expect = Expect.FORBIDDEN,
        desc = "The owner slept its whole second although a wait its select did not watch was handed over.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: the wait was lost.")
@State
public class HandOverWithoutInterestVsSelect {
    private final HandOverPair pair = new HandOverPair(false);

    @Actor
    public void owner() {
        pair.ownerParks();
    }

    @Actor
    public void submitter() {
        pair.submitThenWrite();
    }

    @Arbiter
    public void arbiter(ZZ_Result r) {
        r.r1 = pair.parkEndedEarly();
        r.r2 = pair.toldAfterNextLook();
    }
}
