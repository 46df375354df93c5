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
 * {@link InjectorCloseVsPush} where the outside push takes the last slot of its block and installs the next
 * block, writing the tail index with a plain store: the close must wait for that store, or it would be lost
 * (and later outside pushes accepted after shutdown), or overwrite the step over the installing offset.
 *
 * <p>Result: r1 the push (1 accepted, 0 refused), r2 the look after the close (1 a job is queued), r3 the jobs the
 * arbiter polls, r4 whether the injector ended closed and refuses an outside push (1).
 */
@JCStressTest
@Description("Injector close vs an outside push that installs the next block.")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "Pushed before the close: the drain sees the job.")
@Outcome(id = "0, 0, 0, 1", expect = Expect.ACCEPTABLE, desc = "Closed first: the push is refused.")
@Outcome(id = "1, 0, 1, 1", expect = Expect.FORBIDDEN,
        desc = "Accepted, but the look after the close found nothing: the last worker retires without it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A refused job queued, a job lost, or the close undone.")
@State
public class InjectorCloseVsBlockInstall {
    /** Blocks of 3 slots; the race is for the third, whose taker installs the next block. */
    final Injector injector = new Injector(4);

    public InjectorCloseVsBlockInstall() {
        injector.push(Jobs.B);
        injector.push(Jobs.B);
        injector.poll();
        injector.poll();
    }

    @Actor
    public void submitter(IIII_Result r) {
        r.r1 = injector.pushFromOutside(Jobs.A) == Injector.REJECTED ? 0 : 1;
    }

    @Actor
    public void shutdown(IIII_Result r) {
        injector.close();
        r.r2 = injector.isEmpty() ? 0 : 1;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = InjectorCloseRaces.pollAll(injector);
        r.r4 = injector.isClosed() && injector.pushFromOutside(Jobs.B) == Injector.REJECTED ? 1 : 0;
    }
}
