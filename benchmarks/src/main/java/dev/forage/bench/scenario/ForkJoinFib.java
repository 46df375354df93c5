package dev.forage.bench.scenario;

import dev.forage.ForagePool;
import dev.forage.JoinResult;
import dev.forage.bench.Budget;
import dev.forage.bench.Measure;
import dev.forage.bench.Metric;
import dev.forage.bench.Results;
import dev.forage.bench.Running;
import dev.forage.bench.Scenario;
import dev.forage.bench.Subject;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/** Fork-join throughput: recursive fib with a sequential cutoff, Forage {@code join} vs {@code RecursiveTask}. */
public final class ForkJoinFib implements Scenario {
    static final int N = 30;
    static final int CUTOFF = 12;

    @Override
    public String id() {
        return "fib-join";
    }

    @Override
    public String title() {
        return "fork-join fib(30), cutoff 12";
    }

    @Override
    public String description() {
        return "Recursive fib(30); below n = 12 it recurses sequentially. Forage: `pool.install` of a function "
                + "that calls `pool.join(fib(n-1), fib(n-2))`; ForkJoinPool and the common pool: `invoke` of a "
                + "`RecursiveTask` that forks fib(n-1) and computes fib(n-2) itself. Time per fib(30), called "
                + "from a thread outside the pool.";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(Scenarios.TIME);
    }

    @Override
    public Subject.Capability needs() {
        return Subject.Capability.FORK_JOIN;
    }

    @Override
    public Group group() {
        return Group.THROUGHPUT;
    }

    @Override
    public void run(Running subject, Budget budget, Results out) throws Exception {
        int n = budget.size(N, 20);
        long expected = sequential(n);
        ForagePool forage = subject.foragePool();
        ForkJoinPool fjp = subject.forkJoinPool();
        Measure.timeMillis(budget, out, "time", () -> {
            long r = forage != null ? forage.install(() -> fib(forage, n)) : fjp.invoke(new FibTask(n));
            Scenarios.check(r == expected, "fib(" + n + ") = " + r + ", expected " + expected);
        });
    }

    static long fib(ForagePool pool, int n) {
        if (n <= CUTOFF) {
            return sequential(n);
        }
        JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1), () -> fib(pool, n - 2));
        return r.first() + r.second();
    }

    static long sequential(int n) {
        return n < 2 ? n : sequential(n - 1) + sequential(n - 2);
    }

    static final class FibTask extends RecursiveTask<Long> {
        private final int n;

        FibTask(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n <= CUTOFF) {
                return sequential(n);
            }
            FibTask left = new FibTask(n - 1);
            left.fork();
            long right = new FibTask(n - 2).compute();
            return left.join() + right;
        }
    }
}
