package guide

import dev.forage.ForagePool
import dev.forage.coroutines.Forage
import dev.forage.coroutines.asForageDispatcher
import dev.forage.coroutines.forageDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

// The blocks of docs/migration.md.

suspend fun fromDispatchersDefault(pool: ForagePool, work: () -> Unit): List<CoroutineDispatcher> {
    withContext(Dispatchers.Forage) { work() }                    // was Dispatchers.Default
    val compute = forageDispatcher { threads = 4; name = "compute" } // was newFixedThreadPoolContext(4, "compute")
    val render = pool.asForageDispatcher()                           // over a ForagePool you built yourself
    return listOf(compute, render)
}
