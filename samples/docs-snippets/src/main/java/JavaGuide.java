import dev.forage.ForagePool;
import dev.forage.interop.ForageBlocking;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

public class JavaGuide {
    public static void main(String[] args) throws Exception {
        Path path = Files.createTempFile("forage", ".txt");
        Files.write(path, "to be or not to be".getBytes(StandardCharsets.UTF_8));
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(4).build())) {
            ForagePool pool = executor.pool();

            Future<Integer> answer = executor.submit(() -> 6 * 7);                  // an ExecutorService
            ScheduledFuture<String> later = executor.schedule(() -> "later", 10, TimeUnit.MILLISECONDS); // a pool timer

            ForageFuture<Integer> words = ForageFutures.supplyAsync(() -> "to be or not to be", pool)
                    .thenApplyAsync(text -> text.split(" "))                        // runs on the pool
                    .thenApply(parts -> parts.length);                              // still a ForageFuture
            words.orTimeout(2, TimeUnit.SECONDS);                                   // a pool timer, also on Java 8

            Future<Integer> size = executor.submit(() -> {
                byte[] raw = ForageBlocking.call(() -> Files.readAllBytes(path)); // blocking I/O on a worker:
                return raw.length;                                                // a stand-in runs the pool's
            });                                                                   // other jobs meanwhile

            System.out.println(answer.get() + " " + later.get() + " " + words.join() + " " + size.get());
        } finally {                                                               // close(): shut down and wait
            Files.delete(path);
        }
    }
}
