package dev.forage.samples.httpio

import java.nio.ByteBuffer
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import java.security.MessageDigest
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.launch

/** The service's one endpoint, `GET /hash?rounds=R`: SHA-256 applied R times to a fixed text, in hex. */
object Work {
    const val DEFAULT_ROUNDS = 20
    private val SEED = "forage".toByteArray()
    private val DIGITS = "0123456789abcdef".toCharArray()

    fun hash(rounds: Int): String {
        val digest = MessageDigest.getInstance("SHA-256")
        var bytes = SEED
        repeat(rounds) { bytes = digest.digest(bytes) }
        val hex = CharArray(bytes.size * 2)
        for (i in bytes.indices) {
            val b = bytes[i].toInt() and 0xff
            hex[2 * i] = DIGITS[b ushr 4]
            hex[2 * i + 1] = DIGITS[b and 15]
        }
        return String(hex)
    }

    /**
     * The request target of a request line (`GET /hash?rounds=20 HTTP/1.1` gives `/hash?rounds=20`): its second
     * word, or "/" if it has none. Every backend reads requests with this.
     */
    fun targetOf(requestLine: String): String {
        val first = requestLine.indexOf(' ')
        if (first < 0) return "/"
        val second = requestLine.indexOf(' ', first + 1)
        return if (second < 0) requestLine.substring(first + 1) else requestLine.substring(first + 1, second)
    }

    /** The rounds asked for by a request target such as `/hash?rounds=20`, or null for any other target. */
    fun roundsOf(target: String): Int? {
        if (!target.startsWith("/hash")) return null
        val query = target.substringAfter('?', "")
        if (query.isEmpty()) return DEFAULT_ROUNDS
        val value = query.split('&').firstOrNull { it.startsWith("rounds=") }?.substringAfter('=')
            ?: return DEFAULT_ROUNDS
        return value.toIntOrNull()?.takeIf { it in 1..100_000 }
    }
}

/**
 * How a backend that runs the service on plain NIO channels waits for them: accept, read and write that suspend
 * until the channel is ready, and the dispatcher that runs the connections' coroutines.
 */
interface SocketDriver : AutoCloseable {
    val name: String
    val dispatcher: CoroutineDispatcher

    suspend fun accept(server: ServerSocketChannel): SocketChannel

    /** Reads at least one byte; -1 at the end of the stream. */
    suspend fun read(channel: SocketChannel, buffer: ByteBuffer): Int

    /**
     * Waits until the channel has input, reading nothing: called between requests on a kept-alive connection, where
     * a read would usually find nothing yet (one system call per request for nothing).
     */
    suspend fun awaitInput(channel: SocketChannel)

    /** Writes every remaining byte. */
    suspend fun write(channel: SocketChannel, buffer: ByteBuffer)
}

/**
 * The HTTP/1.1 service on a [SocketDriver]: one coroutine accepts, one per connection reads requests (keep-alive;
 * GET without a body), computes the answer right there and writes it. Deliberately small: the point is the
 * path from socket readiness to the handler and back, the same for both NIO backends.
 */
class NioHttpServer(private val driver: SocketDriver, port: Int) : AutoCloseable {
    private val server: ServerSocketChannel = ServerSocketChannel.open()
        .bind(java.net.InetSocketAddress("127.0.0.1", port), 1024)
        .apply { configureBlocking(false) }
    val port: Int = (server.localAddress as java.net.InetSocketAddress).port
    private val scope = CoroutineScope(driver.dispatcher)
    private val acceptor: Job = scope.launch {
        while (true) {
            val conn = try {
                driver.accept(server)
            } catch (e: java.io.IOException) {
                break // the server channel was closed
            }
            launch { serve(conn) }
        }
    }

    private suspend fun serve(conn: SocketChannel) {
        // Direct buffers, as Netty's pooled allocator gives its channels: a heap buffer costs the JDK a copy through a
        // temporary direct buffer on every read and write (docs/io.md section 1).
        val input = ByteBuffer.allocateDirect(8192)
        val output = ByteBuffer.allocateDirect(256) // either answer fits: 64 hex digits, or 404's text
        try {
            while (true) {
                // The next request head, read here rather than in a suspending function called per request: each
                // call of one allocates its frame, and the frame's first wait wraps it for the dispatcher (a
                // DispatchedContinuation, which kotlinx.coroutines makes once per frame); docs/io.md section 1.
                var end = headerEnd(input)
                while (end < 0) {
                    if (!input.hasRemaining()) {
                        throw java.io.IOException("request head larger than ${input.capacity()} bytes")
                    }
                    // Between requests the next one has usually not arrived: wait for it rather than read nothing first.
                    if (input.position() == 0) driver.awaitInput(conn)
                    if (driver.read(conn, input) < 0) return
                    end = headerEnd(input)
                }
                val rounds = Work.roundsOf(requestTarget(input, end))
                input.flip()
                input.position(end + 4)
                input.compact()
                output.clear()
                if (rounds == null) {
                    respond(output, "404 Not Found", NOT_FOUND_BODY)
                } else {
                    respond(output, "200 OK", Work.hash(rounds))
                }
                output.flip()
                driver.write(conn, output)
            }
        } catch (e: java.io.IOException) {
            // the client went away
        } finally {
            conn.close()
        }
    }

    private fun headerEnd(a: ByteBuffer): Int {
        for (i in 0..a.position() - 4) {
            if (a[i] == CR && a[i + 1] == LF && a[i + 2] == CR && a[i + 3] == LF) {
                return i
            }
        }
        return -1
    }

    /** The request line's target; the line is the head's first, up to its CR. */
    private fun requestTarget(a: ByteBuffer, headEnd: Int): String {
        var lineEnd = 0
        while (lineEnd < headEnd && a[lineEnd] != CR) lineEnd++
        val line = CharArray(lineEnd) { (a[it].toInt() and 0xff).toChar() }
        return Work.targetOf(String(line))
    }

    /** Writes the answer, head and body, as ASCII into [out]: no intermediate strings or arrays. */
    private fun respond(out: ByteBuffer, status: String, body: String) {
        ascii(out, "HTTP/1.1 ")
        ascii(out, status)
        ascii(out, "\r\nContent-Type: text/plain\r\nContent-Length: ")
        ascii(out, body.length.toString())
        ascii(out, "\r\n\r\n")
        ascii(out, body)
    }

    private fun ascii(out: ByteBuffer, text: String) {
        for (i in text.indices) out.put(text[i].code.toByte())
    }

    override fun close() {
        server.close()
        acceptor.cancel()
        driver.close()
    }

    private companion object {
        const val CR = '\r'.code.toByte()
        const val LF = '\n'.code.toByte()
        const val NOT_FOUND_BODY = "use GET /hash?rounds=N, N from 1 to 100000\n"
    }
}
