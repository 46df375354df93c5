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

/** A chain of 200k jobs on a plain executor: each job submits the next from inside the pool. */
public final class ChainedExecute implements Scenario {
    @Override
    public String id() {
        return "chain-exec-200k";
    }

    @Override
    public String title() {
        return "chained execute() 200k";
    }

    @Override
    public String description() {
        return "A job that, 200,000 times in a row, submits its successor with `execute` from inside the pool "
                + "(only one job exists at a time, so this is the latency of handing a job on, not parallel "
                + "throughput). Time per chain.";
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
        int n = budget.size(200_000, 2_000);
        Executor ex = subject.executor();
        Measure.timeMillis(budget, out, "time", () -> {
            Link link = new Link(ex, n);
            ex.execute(link);
            Scenarios.await(link.done, "chain-exec");
        });
    }

    private static final class Link implements Runnable {
        final CountDownLatch done = new CountDownLatch(1);
        private final Executor ex;
        /** Plain field: each run happens-after the execute() that submitted it. */
        private int left;

        Link(Executor ex, int n) {
            this.ex = ex;
            this.left = n;
        }

        @Override
        public void run() {
            if (--left == 0) {
                done.countDown();
            } else {
                ex.execute(this);
            }
        }
    }
}
