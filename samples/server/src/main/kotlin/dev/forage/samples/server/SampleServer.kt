package dev.forage.samples.server

import dev.forage.ForagePool
import dev.forage.coroutines.Forage
import io.ktor.server.cio.CIO
import io.ktor.server.engine.EmbeddedServer
import io.ktor.server.engine.embeddedServer
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import java.net.InetAddress
import java.util.concurrent.ForkJoinPool

/** Where the service runs its calls and its Java component's work. */
enum class Backend(
    val dispatcher: () -> CoroutineDispatcher,
    val inventory: () -> InventoryService,
) {
    /** Kotlin handlers on `Dispatchers.Forage`, the Java component on the same (common) Forage pool. */
    FORAGE({ Dispatchers.Forage }, { InventoryService.onForage(ForagePool.commonPool()) }),

    /** The usual setup: handlers on `Dispatchers.Default`, the Java component on `ForkJoinPool.commonPool()`. */
    DEFAULT({ Dispatchers.Default }, { InventoryService.onExecutor(ForkJoinPool.commonPool()) }),
}

/**
 * The sample service on Ktor's CIO engine, with every call moved onto [backend]'s dispatcher.
 *
 * ```
 * SampleServer.start(Backend.FORAGE, port = 0).use { server ->
 *     println("listening on http://127.0.0.1:${server.port}/hash?text=hi&rounds=1000")
 * }
 * ```
 */
class SampleServer private constructor(
    val backend: Backend,
    private val server: EmbeddedServer<*, *>,
    /** The port the server listens on (the one the OS chose when started with port 0). */
    val port: Int,
) : AutoCloseable {

    /** Stops accepting, lets calls in flight finish (up to the grace period), then closes the port. */
    override fun close() {
        server.stop(STOP_GRACE_MILLIS, STOP_TIMEOUT_MILLIS)
    }

    companion object {
        private const val STOP_GRACE_MILLIS = 200L
        private const val STOP_TIMEOUT_MILLIS = 5_000L

        /**
         * Starts the service on [host]:[port] ([port] 0: any free port) and returns once it accepts connections.
         * The host must be a loopback address: this sample serves only this machine.
         */
        fun start(backend: Backend, port: Int = 0, host: String = "127.0.0.1"): SampleServer {
            require(InetAddress.getByName(host).isLoopbackAddress) { "host must be a loopback address, was $host" }
            require(port in 0..65_535) { "port must be in 0..65535 (0: any free port), was $port" }
            val dispatcher = backend.dispatcher()
            val inventory = backend.inventory()
            val server = embeddedServer(CIO, port = port, host = host) {
                runCallsOn(dispatcher)
                sampleRoutes(inventory)
            }
            server.start(wait = false)
            val bound = runBlocking { server.engine.resolvedConnectors().first().port }
            return SampleServer(backend, server, bound)
        }
    }
}
