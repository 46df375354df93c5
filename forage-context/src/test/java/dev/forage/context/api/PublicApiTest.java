package dev.forage.context.api;

import dev.forage.context.TaskDecorators;
import dev.forage.testing.ApiDump;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the public API of forage-context against {@code api/forage-context.api} ({@link ApiDump}); after a meant
 * change: {@code mvn -pl dispatcher-jvm,forage-context test -Dtest=PublicApiTest -Dforage.api.update=true}.
 */
class PublicApiTest {
    @Test
    void publicApiMatchesTheCommittedDump() throws Exception {
        new ApiDump("forage-context", List.of("dev.forage.context"), TaskDecorators.class).check();
    }
}
