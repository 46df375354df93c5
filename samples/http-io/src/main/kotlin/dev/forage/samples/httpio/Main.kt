package dev.forage.samples.httpio

/** The backends by the names that bench.sh and the tests use. */
enum class Backend(val label: String) {
    FORAGE_IO("forage-io"),
    NETTY_EPOLL("netty-epoll"),
    NETTY_NIO("netty-nio"),
    SELECTOR_DEFAULT("selector+default"),
    KTOR_CIO("ktor-cio");

    /** Starts the service on [port] (0: any free port); close the result to stop it. */
    fun start(port: Int, threads: Int): RunningServer = when (this) {
        FORAGE_IO -> ForageIoDriver(threads).let { driver ->
        NioHttpServer(driver, port).let { RunningServer(it.port, it, driver::statistics) }
    }
        NETTY_EPOLL -> NettyBackend(NettyBackend.Transport.EPOLL, port, threads).let { RunningServer(it.port, it) }
        NETTY_NIO -> NettyBackend(NettyBackend.Transport.NIO, port, threads).let { RunningServer(it.port, it) }
        SELECTOR_DEFAULT -> NioHttpServer(SelectorThreadDriver(), port).let { RunningServer(it.port, it) }
        KTOR_CIO -> KtorBackend(port).let { RunningServer(it.port, it) }
    }

    companion object {
        fun of(label: String): Backend = entries.firstOrNull { it.label == label }
            ?: throw IllegalArgumentException("unknown backend $label; allowed: ${entries.joinToString { it.label }}")
    }
}

class RunningServer(
    val port: Int,
    private val resource: AutoCloseable,
    /** What the backend can say about its own work when it stops (Forage: the pool's statistics). */
    val report: () -> String = { "" },
) : AutoCloseable {
    override fun close() = resource.close()
}

/**
 * `java ... dev.forage.samples.httpio.MainKt <backend> <port> [threads]`: serves until killed. Prints `listening
 * on <port>` once ready. Threads: Forage's IO workers and Netty's event loops (default: available processors); the
 * other backends size their own pools.
 */
fun main(args: Array<String>) {
    require(args.size in 2..3) { "usage: <${Backend.entries.joinToString("|") { it.label }}> <port> [threads]" }
    val backend = Backend.of(args[0])
    val threads = args.getOrNull(2)?.toInt() ?: Runtime.getRuntime().availableProcessors()
    val server = backend.start(args[1].toInt(), threads)
    Runtime.getRuntime().addShutdownHook(Thread { println(server.report()) })
    println("${backend.label} listening on ${server.port}")
    Thread.currentThread().join()
}
