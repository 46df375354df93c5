import dev.forage.coroutines.Forage
import dev.forage.coroutines.ForageBlocking
import dev.forage.coroutines.awaitJoin
import dev.forage.coroutines.forageDispatcher
import java.nio.file.Files
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

fun main() = runBlocking {
    // The shared dispatcher, over ForagePool.commonPool() (daemon threads forage-common-worker-N):
    val lengths = withContext(Dispatchers.Forage) {
        listOf("alpha", "beta", "gamma").map { word -> async { word.length } }.awaitAll()
    }
    println(lengths.sum())

    // Blocking calls on the same pool's threads, Forage's Dispatchers.IO:
    val path = Files.createTempFile("forage", ".txt")
    val size = withContext(Dispatchers.ForageBlocking) {
        Files.write(path, "to be or not to be".toByteArray())
        Files.readAllBytes(path).size.also { Files.delete(path) }
    }
    println(size)

    // A private pool that closes with its dispatcher:
    val data = LongArray(1_000) { it + 1L }
    forageDispatcher { threads = 4; name = "compute" }.use { compute ->
        withContext(compute) {
            val (left, right) = compute.pool.awaitJoin({ data.take(500).sum() }, { data.drop(500).sum() })
            delay(10)                                    // timed by the pool: no timer thread
            println(left + right)
        }
    }
}
