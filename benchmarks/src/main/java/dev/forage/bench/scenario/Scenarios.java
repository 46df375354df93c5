package dev.forage.bench.scenario;

import dev.forage.bench.Metric;
import dev.forage.bench.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Every scenario of the comparison, in the order of the results table. */
public final class Scenarios {
    private Scenarios() {
    }

    /** Time per operation, the metric of every throughput scenario. */
    public static final Metric TIME = new Metric("time", "ms", "time per op");

    /** A scenario that has not finished after this long is broken (a lost wake-up, a deadlock). */
    static final long OP_TIMEOUT_SECONDS = 60;

    public static final List<Scenario> ALL = List.of(
            new ForkJoinFib(),
            CoroutineScenarios.fib(),
            CoroutineScenarios.launches(),
            new OutsideSubmit(false),
            new OutsideSubmit(true),
            CoroutineScenarios.pingPong(),
            CoroutineScenarios.chain(),
            new ChainedExecute(),
            CoroutineScenarios.yields(),
            new LowLoadCpu(TimeUnit.MILLISECONDS.toNanos(1), 0),
            new LowLoadCpu(TimeUnit.MICROSECONDS.toNanos(100), 0),
            new LowLoadCpu(TimeUnit.MILLISECONDS.toNanos(1), 8),
            new LowLoadCpu(TimeUnit.MICROSECONDS.toNanos(100), 8),
            new IdleCpu(),
            new WakeupLatency(false),
            new WakeupLatency(true),
            new PeriodicWakeup());

    /**
     * The demo's scenarios (the README's command, {@code --quick}): a row or two per group of the results table,
     * about a minute of measuring for the four subjects of {@code Subjects.DEMO} on two cores.
     */
    public static final List<Scenario> DEMO = List.of(
            byId("fib-join"),
            byId("submit-1m"),
            byId("lowload-1ms"),
            byId("idle"),
            byId("wakeup-outside"));

    public static Scenario byId(String id) {
        for (Scenario s : ALL) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + id + "'; known: " + ids());
    }

    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (Scenario s : ALL) {
            ids.add(s.id());
        }
        return ids;
    }

    static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException("wrong result: " + message);
        }
    }

    static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(what + " did not finish within " + OP_TIMEOUT_SECONDS + " s");
        }
    }
}
