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

/**
 * 10^6 {@code execute} calls from one thread outside the pool, until all jobs ran: with one job object reused
 * ({@code submit-1m}), or as users write it, a new lambda per call that counts down a shared
 * {@code CountDownLatch} ({@code submit-latch-1m}).
 */
public final class OutsideSubmit implements Scenario {
    private final boolean asUsersWriteIt;

    public OutsideSubmit(boolean asUsersWriteIt) {
        this.asUsersWriteIt = asUsersWriteIt;
    }

    @Override
    public String id() {
        return asUsersWriteIt ? "submit-latch-1m" : "submit-1m";
    }

    @Override
    public String title() {
        return asUsersWriteIt ? "10^6 execute() from outside, a lambda each" : "10^6 execute() from outside";
    }

    @Override
    public String description() {
        return asUsersWriteIt
                ? "One thread outside the pool calls `execute(() -> done.countDown())` 10^6 times, a new lambda "
                        + "each time, every job counting down one shared `CountDownLatch(10^6)`, then awaits the "
                        + "latch. Dispatchers.Default gets the jobs through `asExecutor()`. Time per 10^6 jobs."
                : "One thread outside the pool calls `execute` 10^6 times with a tiny job (it decrements a shared "
                        + "counter; the last one opens a latch) and waits until all ran. Dispatchers.Default gets "
                        + "the jobs through `asExecutor()`. Time per 10^6 jobs.";
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
        if (asUsersWriteIt) {
            Measure.timeMillis(budget, out, "time", () -> {
                CountDownLatch done = new CountDownLatch(n);
                for (int i = 0; i < n; i++) {
                    ex.execute(() -> done.countDown());
                }
                Scenarios.await(done, "submit-latch-1m");
            });
            return;
        }
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
