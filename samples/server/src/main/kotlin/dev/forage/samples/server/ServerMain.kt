package dev.forage.samples.server

/**
 * Runs the service until the process is stopped: `ServerMain [forage|default] [port]` (defaults: forage, 8080).
 * It listens on 127.0.0.1 only.
 */
fun main(args: Array<String>) {
    val backend = args.getOrNull(0)?.let { Backend.valueOf(it.uppercase()) } ?: Backend.FORAGE
    val port = args.getOrNull(1)?.toInt() ?: 8080
    val server = SampleServer.start(backend, port)
    Runtime.getRuntime().addShutdownHook(Thread { server.close() })
    println("Serving on ${backend.name.lowercase()} at http://127.0.0.1:${server.port}/ (Ctrl-C stops it); try")
    println("  curl 'http://127.0.0.1:${server.port}/fanout?text=hi&parts=4&rounds=1000'")
    Thread.currentThread().join()
}
