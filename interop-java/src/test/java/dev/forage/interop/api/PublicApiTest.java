package dev.forage.interop.api;

import dev.forage.interop.ForageExecutorService;
import dev.forage.testing.ApiDump;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the public API of interop-java against {@code api/interop-java.api} ({@link ApiDump}); after a meant
 * change: {@code mvn -pl dispatcher-jvm,interop-java test -Dtest=PublicApiTest -Dforage.api.update=true}.
 */
class PublicApiTest {
    @Test
    void publicApiMatchesTheCommittedDump() throws Exception {
        new ApiDump("interop-java", List.of("dev.forage.interop"), ForageExecutorService.class).check();
    }
}
