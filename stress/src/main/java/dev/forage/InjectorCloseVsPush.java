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
 * Shutdown's admission race: an outside {@code execute} ({@link Injector#pushFromOutside}) against the shutdown
 * that closes the injector and then asks whether anything is queued, as the drain does before the last worker
 * retires. The push's claim CAS and the close's CAS on the same tail word decide it: an accepted job is seen by
 * the look after the close, a refused one is never queued. Here the push takes a slot inside its block.
 *
 * <p>Result: r1 the push (1 accepted, 0 refused), r2 the look after the close (1 a job is queued), r3 the jobs the
 * arbiter polls, r4 whether the injector ended closed (1).
 */
@JCStressTest
@Description("Injector close vs an outside push: accepted and seen, or refused and absent.")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "Pushed before the close: the drain sees the job.")
@Outcome(id = "0, 0, 0, 1", expect = Expect.ACCEPTABLE, desc = "Closed first: the push is refused.")
@Outcome(id = "1, 0, 1, 1", expect = Expect.FORBIDDEN,
        desc = "Accepted, but the look after the close found nothing: the last worker retires without it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A refused job queued, a job lost, or the close undone.")
@State
public class InjectorCloseVsPush {
    /** Blocks of 3 slots; the race is for the second slot of the first block. */
    final Injector injector = new Injector(4);

    public InjectorCloseVsPush() {
        injector.push(Jobs.B); // a worker's job, polled away before the race: the race slot is offset 1
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
        r.r4 = injector.isClosed() ? 1 : 0;
    }
}
