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
 * Chase-Lev's one delicate race: the owner's {@code pop} and a thief's {@code steal} of the last job. The owner
 * reserves the slot (decrements {@code bottom}, a volatile write) then reads {@code top}; the thief reads
 * {@code top} then {@code bottom}; both then CAS {@code top} from the same value. The StoreLoad order between
 * the owner's write of {@code bottom} and its read of {@code top}, and the shared CAS, make exactly one of them
 * win. Not a sleep-protocol step: {@code docs/sleep.md} lists it with the worker loop's local pop and steal.
 *
 * <p>Result: r1 what pop returned, r2 what steal returned (0 nothing, 1 the job, 3 RETRY), r3 jobs the arbiter
 * still found in the deque. The job must be taken exactly once and then be gone.
 */
@JCStressTest
@Description("WorkDeque pop vs steal of the last job: exactly one wins.")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "Owner won; the thief saw the deque empty.")
@Outcome(id = "1, 3, 0", expect = Expect.ACCEPTABLE, desc = "Owner won the CAS; the thief lost it (RETRY).")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "Thief won; the owner saw it gone or lost the CAS.")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "Both took the job: it runs twice.")
@Outcome(expect = Expect.FORBIDDEN, desc = "The job was lost (nobody took it and it left the deque) or is still there.")
@State
public class DequeLastItemRace {
    private final WorkDeque deque = new WorkDeque();

    public DequeLastItemRace() {
        // The owner role passes to the pop actor: jcstress publishes the state to it safely.
        deque.push(Jobs.A);
    }

    @Actor
    public void owner(III_Result r) {
        r.r1 = Jobs.code(deque.pop());
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = Jobs.code(deque.steal());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Jobs.drain(deque);
    }
}
