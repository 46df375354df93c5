package dev.forage.samples.httpio

import io.ktor.server.request.uri
import io.ktor.server.cio.CIO
import io.ktor.server.engine.EmbeddedServer
import io.ktor.server.engine.embeddedServer
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.routing
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/**
 * Backend (c): Ktor's CIO engine as users run it today. CIO's selector manager and request parsing run on
 * `Dispatchers.IO`; the CPU-bound handler moves to `Dispatchers.Default`, as Ktor's guides advise for CPU work.
 */
class KtorBackend(port: Int) : AutoCloseable {
    private val server: EmbeddedServer<*, *> = embeddedServer(CIO, port = port, host = "127.0.0.1") {
        routing {
            get("/hash") {
                val rounds = Work.roundsOf(call.request.uri)
                if (rounds == null) {
                    call.respondText("use GET /hash?rounds=N, N from 1 to 100000\n", status = io.ktor.http.HttpStatusCode.NotFound)
                } else {
                    call.respondText(withContext(Dispatchers.Default) { Work.hash(rounds) })
                }
            }
        }
    }.start(wait = false)

    val port: Int = runBlocking { server.engine.resolvedConnectors().first().port }

    override fun close() = server.stop(100, 1000)
}
