package dev.forage.bench.scenario;

import dev.forage.bench.Budget;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import dev.forage.bench.ThreadCpu;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** CPU burnt by an idle pool: after a burst of work, nothing is submitted for a while. */
public final class IdleCpu implements Scenario {
    static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    @Override
    public String id() {
        return "idle";
    }

    @Override
    public String title() {
        return "idle pool CPU";
    }

    @Override
    public String description() {
        return "Every worker is woken by a burst of 20,000 tiny jobs, then nothing is submitted: after 200 ms "
                + "for the workers to fall asleep, the CPU time of the pool's threads over each idle window, in "
                + "µs of CPU per second. A pool whose workers really sleep scores 0.";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(new Metric("cpu", "µs/s", "pool CPU while idle"));
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.EXECUTOR;
    }

    @Override
    public Group group() {
        return Group.IDLE;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        burst(subject.executor(), budget.size(20_000, 200));
        sleepFor(SETTLE_NANOS);
        for (int w = 0; w < budget.windows; w++) {
            Map<Long, Long> before = ThreadCpu.snapshot(subject.threadPrefix());
            long t0 = System.nanoTime();
            sleepFor(budget.idleWindowNanos);
            long elapsed = System.nanoTime() - t0;
            Map<Long, Long> after = ThreadCpu.snapshot(subject.threadPrefix());
            double cpuMicros = ThreadCpu.between(before, after) / 1e3;
            out.add("cpu", cpuMicros / (elapsed / 1e9));
        }
        out.info("poolThreads", ThreadCpu.count(subject.threadPrefix()));
    }

    private static void burst(Executor ex, int jobs) throws InterruptedException {
        AtomicInteger left = new AtomicInteger(jobs);
        CountDownLatch done = new CountDownLatch(1);
        Runnable job = () -> {
            // Long enough that the other workers wake up to help.
            long until = System.nanoTime() + 2_000;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            if (left.decrementAndGet() == 0) {
                done.countDown();
            }
        };
        for (int i = 0; i < jobs; i++) {
            ex.execute(job);
        }
        Scenarios.await(done, "idle burst");
    }

    private static void sleepFor(long nanos) {
        long end = System.nanoTime() + nanos;
        long now;
        while ((now = System.nanoTime()) - end < 0) {
            LockSupport.parkNanos(end - now);
        }
    }
}
