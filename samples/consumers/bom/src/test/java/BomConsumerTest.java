import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.context.OpenTelemetryTaskDecorator;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Forage as a project gets it from the local repository through the BOM: the jars, at the BOM's version. */
class BomConsumerTest {

    @Test
    void theBomGivesBothLibrariesOneVersionFromTheLocalRepository() throws URISyntaxException {
        Path pool = jarOf(ForagePool.class);
        Path futures = jarOf(ForageFutures.class);
        // ~/.m2/repository/dev/forage/<artifact>/<version>/<artifact>-<version>.jar, not a reactor's target/classes
        assertTrue(pool.getFileName().toString().equals("dispatcher-jvm-0.1.0-SNAPSHOT.jar"), pool.toString());
        assertTrue(futures.getFileName().toString().equals("interop-java-0.1.0-SNAPSHOT.jar"), futures.toString());
        assertEquals("0.1.0-SNAPSHOT", pool.getParent().getFileName().toString());
        assertEquals("0.1.0-SNAPSHOT", futures.getParent().getFileName().toString());
    }

    @Test
    void theLibrariesWork() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name("bom").build()) {
            ForageFuture<Integer> sum = ForageFutures.supplyAsync(() -> pool.join(() -> 20, () -> 22), pool)
                    .thenApply(pair -> pair.first() + pair.second());
            assertEquals(42, sum.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void forageContextComesWithTheBomAndWithoutItsOtherOptionalLibrary() throws Exception {
        Path context = jarOf(OpenTelemetryTaskDecorator.class);
        assertEquals("forage-context-0.1.0-SNAPSHOT.jar", context.getFileName().toString(), context.toString());
        // SLF4J is an optional dependency of forage-context: this project did not name it, so it did not get it.
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.slf4j.MDC"));

        ContextKey<String> requestId = ContextKey.named("requestId");
        try (ForagePool pool = ForagePool.builder().threads(2).name("bom-context")
                .taskDecorator(new OpenTelemetryTaskDecorator()).build();
             Scope request = Context.current().with(requestId, "r-1").makeCurrent()) {
            CompletableFuture<String> seen = new CompletableFuture<>();
            pool.execute(() -> seen.complete(Context.current().get(requestId)));
            assertEquals("r-1", seen.get(30, TimeUnit.SECONDS));
        }
    }

    private static Path jarOf(Class<?> c) throws URISyntaxException {
        return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
