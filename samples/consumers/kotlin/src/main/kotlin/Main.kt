import dev.forage.coroutines.Forage
import dev.forage.coroutines.awaitJoin
import dev.forage.coroutines.forageDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

fun main() = runBlocking {
    // A drop-in for Dispatchers.Default, on ForagePool.commonPool():
    val squares = withContext(Dispatchers.Forage) { (1..10).map { async { it * it } }.awaitAll() }
    println(squares.sum())

    // A private pool that closes with its dispatcher:
    forageDispatcher { threads = 4; name = "compute" }.use { compute ->
        withContext(compute) {
            val (left, right) = compute.pool.awaitJoin({ (1..500L).sum() }, { (501..1000L).sum() })
            delay(10)                                // timed by the pool: no extra timer thread
            println(left + right)
        }
    }
}
