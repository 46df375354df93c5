import dev.forage.ForagePool;
import dev.forage.JoinResult;

public class Fib {
    public static void main(String[] args) {
        try (ForagePool pool = ForagePool.builder().threads(4).name("compute").build()) {
            long result = pool.install(() -> fib(pool, 30));   // runs inside the pool; the caller waits
            System.out.println(result + " " + pool.statistics());
        }
    }

    static long fib(ForagePool pool, int n) {
        if (n < 20) return sequentialFib(n);
        JoinResult<Long, Long> r = pool.join(() -> fib(pool, n - 1), () -> fib(pool, n - 2));
        return r.first() + r.second();
    }

    static long sequentialFib(int n) {
        return n < 2 ? n : sequentialFib(n - 1) + sequentialFib(n - 2);
    }
}
