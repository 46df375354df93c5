package dev.forage.bench.scenario;

import dev.forage.bench.Budget;
import dev.forage.bench.Measure;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/** 10^6 {@code execute} calls from one thread outside the pool, until all jobs ran. */
public final class OutsideSubmit implements Scenario {
    @Override
    public String id() {
        return "submit-1m";
    }

    @Override
    public String title() {
        return "10^6 execute() from outside";
    }

    @Override
    public String description() {
        return "One thread outside the pool calls `execute` 10^6 times with a tiny job (it decrements a shared "
                + "counter; the last one opens a latch) and waits until all ran. Dispatchers.Default gets the jobs "
                + "through `asExecutor()`. Time per 10^6 jobs.";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(Scenarios.TIME);
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.EXECUTOR;
    }

    @Override
    public Group group() {
        return Group.THROUGHPUT;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        int n = budget.size(1_000_000, 10_000);
        Executor ex = subject.executor();
        Measure.timeMillis(budget, out, "time", () -> {
            AtomicInteger left = new AtomicInteger(n);
            CountDownLatch done = new CountDownLatch(1);
            Runnable job = () -> {
                if (left.decrementAndGet() == 0) {
                    done.countDown();
                }
            };
            for (int i = 0; i < n; i++) {
                ex.execute(job);
            }
            Scenarios.await(done, "submit-1m");
        });
    }
}
