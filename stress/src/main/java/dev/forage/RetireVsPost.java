package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * The last worker retiring against a post ({@link Retirement}'s Dekker pair): the retiring worker marks itself
 * RETIRED and counts itself (R1), then looks at the deques once more (R2); the poster pushes its job on its deque
 * (P1, a volatile write of {@code bottom}) and then asks for a retired worker (P3). Either the retiring worker sees
 * the job and stays, or the poster sees it retired and takes it over to start a thread. A job is stranded only if
 * the worker's thread ended and the poster found nobody to bring back.
 *
 * <p>Result: r1 the retiring thread ended (1) or went back to work (0); r2 the worker index the poster claimed,
 * or -1; r3 the worker is RUNNING at the end (whoever runs it) and the retired count is back to zero.
 */
@JCStressTest
@Description("Retirement.retire vs a post and Retirement.claimRetired: a job posted while the last worker retires "
        + "always gets a worker.")
@Outcome(id = "0, -1, true", expect = Expect.ACCEPTABLE, desc = "R2 saw the job: the worker stayed.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE, desc = "The poster saw the worker retired and brought it back.")
@Outcome(id = "1, -1, false", expect = Expect.FORBIDDEN,
        desc = "Stranded: the thread ended, and the poster found no retired worker to bring back.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: the worker taken twice, or the count off.")
@State
public class RetireVsPost {
    private final WorkDeque deque = new WorkDeque();
    private final Retirement retirement = new Retirement(1);

    @Actor
    public void retiringWorker(IIZ_Result r) {
        r.r1 = retirement.retire(0, new Retirement.WorkCheck() {
            @Override
            public boolean workLeft() {
                return !deque.isEmpty();
            }
        }) ? 1 : 0;
    }

    @Actor
    public void poster(IIZ_Result r) {
        deque.push(Jobs.A);             // P1
        r.r2 = retirement.claimRetired(); // P3
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r3 = retirement.state(0) == Retirement.RUNNING && retirement.retiredCount() == 0;
    }
}
