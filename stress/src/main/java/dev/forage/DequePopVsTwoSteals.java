package dev.forage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The StoreLoad race inside {@code pop}: two jobs A (older) and B; the owner pops once while one thief steals
 * twice. The thief's first steal takes A; its second may go for B exactly when the owner does. The owner must
 * publish its decremented {@code bottom} before it reads {@code top} (volatile write, then volatile read): if it
 * read a stale {@code top} (0) while the thief read a stale {@code bottom} (2), the owner would take B without a
 * CAS, believing it is not the last job, and the thief would take B with its CAS. With the order kept, the
 * owner sees {@code top == bottom} and races the thief with the same CAS ({@link DequeLastItemRace}).
 *
 * <p>Result: r1 pop, r2 and r3 the two steals (0 nothing, 1 A, 2 B, 3 RETRY), r4 jobs left for the arbiter.
 */
@JCStressTest
@Description("WorkDeque pop vs two steals over two jobs: each job taken exactly once.")
@Outcome(id = "2, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "Owner took B; the thief took A, then found the deque empty.")
@Outcome(id = "2, 1, 3, 0", expect = Expect.ACCEPTABLE, desc = "Owner took B by winning the CAS against the second steal.")
@Outcome(id = "0, 1, 2, 0", expect = Expect.ACCEPTABLE, desc = "The thief took both; the owner found B gone or lost the CAS.")
@Outcome(id = "2, 1, 2, 0", expect = Expect.FORBIDDEN, desc = "B taken twice: the owner read a stale top.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A job taken twice, lost, or left behind.")
@State
public class DequePopVsTwoSteals {
    private final WorkDeque deque = new WorkDeque();

    public DequePopVsTwoSteals() {
        deque.push(Jobs.A);
        deque.push(Jobs.B);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = Jobs.code(deque.pop());
    }

    @Actor
    public void thief(IIII_Result r) {
        r.r2 = Jobs.code(deque.steal());
        r.r3 = Jobs.code(deque.steal());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = Jobs.drain(deque);
    }
}
