package dev.forage.samples.httpio

import io.ktor.server.request.uri
import io.ktor.server.cio.CIO
import io.ktor.server.engine.EmbeddedServer
import io.ktor.server.engine.embeddedServer
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.routing
import kotlinx.coroutines.runBlocking

/**
 * Backend (c): Ktor's CIO engine with its default configuration, the shape many Kotlin services run. The handler
 * computes its answer where Ktor calls it, on the engine's own dispatcher: Ktor's guides ask for a `withContext`
 * only around blocking calls, and a few microseconds of hashing is not one. The sample builds Ktor against the
 * Kotlin and kotlinx-coroutines versions Ktor itself was built with (its POM's), not the project's.
 */
class KtorBackend(port: Int) : AutoCloseable {
    private val server: EmbeddedServer<*, *> = embeddedServer(CIO, port = port, host = "127.0.0.1") {
        routing {
            get("/hash") {
                val rounds = Work.roundsOf(call.request.uri)
                if (rounds == null) {
                    call.respondText("use GET /hash?rounds=N, N from 1 to 100000\n", status = io.ktor.http.HttpStatusCode.NotFound)
                } else {
                    call.respondText(Work.hash(rounds))
                }
            }
        }
    }.start(wait = false)

    val port: Int = runBlocking { server.engine.resolvedConnectors().first().port }

    override fun close() = server.stop(100, 1000)
}
