package dev.forage.samples.server

import io.ktor.server.application.Application
import io.ktor.server.application.ApplicationCallPipeline
import kotlinx.coroutines.withContext
import kotlin.coroutines.CoroutineContext

/**
 * Runs every call's pipeline (routing, handlers, the response) in [context], for example on Forage:
 *
 * ```
 * embeddedServer(CIO, port = 8080) {
 *     runCallsOn(Dispatchers.Forage)
 *     routing { get("/") { call.respondText(render()) } }   // runs on a Forage worker
 * }
 * ```
 *
 * Why an interceptor: in Ktor 3.5 neither engine lets you choose the dispatcher of request handling. CIO
 * reads and parses requests on `Dispatchers.IO` and starts each call there; Netty starts each call on its
 * event loop. `serverConfig { parentCoroutineContext = ... }` only sets the context of the application's own
 * coroutines (`application.launch`): the engines put their own dispatcher on top of it for calls. So the
 * service moves each call once, as its first step, the way Ktor's own CallLogging wraps the pipeline in
 * `withContext(MDCContext(...)) { proceed() }`. Everything after that (handlers, `async` children, resumptions
 * after `delay` or `await`) inherits the dispatcher.
 */
fun Application.runCallsOn(context: CoroutineContext) {
    intercept(ApplicationCallPipeline.Setup) {
        withContext(context) { proceed() }
    }
}
