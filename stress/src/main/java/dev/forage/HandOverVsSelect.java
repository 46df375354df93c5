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
 * A hand-over that wakes nobody ({@code docs/io.md} section 3.1): the owner's selector holds OP_READ on a pipe's
 * source with no wait pending (R2 kept it); another thread submits a new wait for it (H1 queue it, H2 read SELECTING
 * and the key's interest, and wake the owner only if its select does not watch the operation) and then writes into
 * the pipe, against the owner entering one select of a second (P0 apply, P1, P2, P3, P4 and P4' apply the commands,
 * then collect). The wait may be applied at once (the owner not driving yet), or handed over to a select that
 * watches it and ends on the byte. Either way the park ends before its second and the wait is told no later than the
 * owner's next look. Fresh reactor and pipe per sample ({@link HandOverPair}).
 *
 * <p>Result: r1 the owner's park ended before its second, r2 the wait was told at the owner's next look.
 */
@JCStressTest
@Description("A new wait handed over to an owner whose select holds its interest: the readiness still ends it.")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE,
        desc = "The select (or a permit) ended the park; the wait was applied and told.")
@Outcome(id = "false, true", expect = Expect.FORBIDDEN,
        desc = "The owner slept its whole second although the channel turned ready for a submitted wait.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: the wait was lost.")
@State
public class HandOverVsSelect {
    private final HandOverPair pair = new HandOverPair(true);

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
