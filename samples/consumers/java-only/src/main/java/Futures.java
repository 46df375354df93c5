import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

public class Futures {
    public static void main(String[] args) throws Exception {
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(4).build())) {
            Future<Integer> answer = executor.submit(() -> 6 * 7);
            ForageFuture<Integer> length = ForageFutures.supplyAsync(() -> "forage", executor.pool())
                    .thenApplyAsync(String::toUpperCase)   // runs on the pool, on Java 8 too
                    .thenApply(String::length);            // still a ForageFuture
            length.orTimeout(2, TimeUnit.SECONDS);         // fired by the pool's timers
            System.out.println(answer.get() + " " + length.join());
        }                                                  // close(): shut down and wait
    }
}
