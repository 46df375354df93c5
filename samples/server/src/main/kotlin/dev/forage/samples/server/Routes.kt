package dev.forage.samples.server

import dev.forage.ForagePool
import io.ktor.http.HttpStatusCode
import io.ktor.server.application.Application
import io.ktor.server.application.ApplicationCall
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.routing
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.future.await

/**
 * The service's endpoints. Each answer is a plain-text line that a client can recompute (see [Answers]).
 *
 * - `GET /hash?text=T&rounds=R`: CPU work, SHA-256 applied R times;
 * - `GET /fanout?text=T&parts=P&rounds=R`: P hashes in parallel with `async`, combined;
 * - `GET /stock?sku=S`: awaits the `CompletableFuture` of a Java component ([InventoryService]);
 * - `GET /delay?ms=M`: suspends for M ms with `delay` (no thread is held);
 * - `GET /where`: which thread runs the handler ("forage-worker" when it is one of Forage's workers).
 *
 * Bad parameters get `400 Bad Request` with a message saying what is allowed.
 */
fun Application.sampleRoutes(inventory: InventoryService) {
    routing {
        get("/hash") {
            val text = call.textParameter("text") ?: return@get
            val rounds = call.intParameter("rounds", 1..MAX_ROUNDS) ?: return@get
            call.respondText(Answers.hash(text, rounds))
        }
        get("/fanout") {
            val text = call.textParameter("text") ?: return@get
            val parts = call.intParameter("parts", 1..MAX_PARTS) ?: return@get
            val rounds = call.intParameter("rounds", 1..MAX_ROUNDS) ?: return@get
            val digests = coroutineScope {
                (0 until parts).map { i -> async { Hashing.sha256Rounds("$text-$i", rounds) } }.awaitAll()
            }
            call.respondText(Hashing.hex(Hashing.combine(digests)))
        }
        get("/stock") {
            val sku = call.textParameter("sku") ?: return@get
            val level = inventory.stockLevel(sku).await() // suspends; resumes on this call's dispatcher
            call.respondText(Answers.stock(sku, level))
        }
        get("/delay") {
            val ms = call.intParameter("ms", 0..MAX_DELAY_MS) ?: return@get
            delay(ms.toLong())
            call.respondText(Answers.delay(ms))
        }
        get("/where") {
            call.respondText(if (ForagePool.current() != null) FORAGE_WORKER else "other: ${Thread.currentThread().name}")
        }
    }
}

/** What the endpoints answer, so that clients and tests can check a response without a second server. */
object Answers {
    fun hash(text: String, rounds: Int): String = Hashing.hex(Hashing.sha256Rounds(text, rounds))

    fun fanout(text: String, parts: Int, rounds: Int): String =
        Hashing.hex(Hashing.combine((0 until parts).map { Hashing.sha256Rounds("$text-$it", rounds) }))

    fun stock(sku: String, level: Int = InventoryService.expectedStock(sku)): String = "$sku: $level in stock"

    fun delay(ms: Int): String = "waited $ms ms"
}

/** `/where`'s answer when the handler runs on a Forage worker. */
const val FORAGE_WORKER = "forage-worker"

private const val MAX_ROUNDS = 100_000
private const val MAX_PARTS = 64
private const val MAX_DELAY_MS = 10_000
private const val MAX_TEXT = 64

private suspend fun ApplicationCall.textParameter(name: String): String? {
    val value = request.queryParameters[name]
    if (value == null || value.isEmpty() || value.length > MAX_TEXT) {
        respondText("$name must be 1 to $MAX_TEXT characters, was ${value?.let { "'$it'" } ?: "missing"}",
            status = HttpStatusCode.BadRequest)
        return null
    }
    return value
}

private suspend fun ApplicationCall.intParameter(name: String, allowed: IntRange): Int? {
    val raw = request.queryParameters[name]
    val value = raw?.toIntOrNull()
    if (value == null || value !in allowed) {
        respondText("$name must be an integer in ${allowed.first}..${allowed.last}, was ${raw ?: "missing"}",
            status = HttpStatusCode.BadRequest)
        return null
    }
    return value
}
