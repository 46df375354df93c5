package guide

import dev.forage.coroutines.ForageBlocking
import java.nio.file.Files
import java.nio.file.Path
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

// The blocks of docs/coroutines.md after its opening program.

suspend fun loadReport(path: Path): Report {
    val raw = withContext(Dispatchers.ForageBlocking) { Files.readAllBytes(path) }  // a blocking section
    return Report.parse(raw)                                                        // back on the caller's dispatcher
}
