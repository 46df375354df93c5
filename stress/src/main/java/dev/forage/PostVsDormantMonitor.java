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
 * Blocked-job detection going dormant against a post behind busy workers ({@link MonitorGate#stopSamplingUnless},
 * {@link MonitorGate#claimSampling}; {@code docs/monitor.md} "Races"): the monitor, whose last sample found no job
 * waiting, stops sampling (D1) and looks at the queue once more (D2); a poster pushes a job (J1, the injector's
 * CAS) and reads the sampling flag (J2), claiming it to wake the monitor if it is off. Either the monitor samples
 * on, or the poster wakes it: a job never waits behind a blocked worker with nobody sampling.
 *
 * <p>Result: r1 the poster claimed sampling (1: it wakes the monitor) or saw it on (0); r2 the monitor samples on
 * (1) or parks dormant (0); r3 sampling is on at the end.
 */
@JCStressTest
@Description("MonitorGate.stopSamplingUnless vs Injector.push + MonitorGate.claimSampling: a job posted while the "
        + "monitor goes dormant is seen by the monitor or wakes it.")
@Outcome(id = "0, 1, true", expect = Expect.ACCEPTABLE, desc = "J2 before D1: D2 saw the job, the monitor samples on.")
@Outcome(id = "1, 0, true", expect = Expect.ACCEPTABLE, desc = "D2 before J1: the poster claimed sampling and wakes it.")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "Both: the poster claimed it, D2 saw the job too.")
@Outcome(id = "0, 0, false", expect = Expect.FORBIDDEN,
        desc = "Lost: the monitor went dormant without seeing the job, and the poster saw it sampling.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else: sampling off while a job waits.")
@State
public class PostVsDormantMonitor {
    private final Injector injector = new Injector();
    private final MonitorGate gate = new MonitorGate(MonitorGate.RUNNING);

    public PostVsDormantMonitor() {
        gate.claimSampling(); // the monitor samples: its last sample found nothing waiting
    }

    @Actor
    public void poster(IIZ_Result r) {
        injector.push(Jobs.A);                   // J1
        r.r1 = gate.claimSampling() ? 1 : 0;     // J2
    }

    @Actor
    public void monitor(IIZ_Result r) {
        r.r2 = gate.stopSamplingUnless(() -> !injector.isEmpty()) ? 1 : 0; // D1, D2
    }

    @Arbiter
    public void arbiter(IIZ_Result r) {
        r.r3 = gate.isSampling();
    }
}
