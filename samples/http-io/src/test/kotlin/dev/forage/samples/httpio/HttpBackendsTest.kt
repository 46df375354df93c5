package dev.forage.samples.httpio

import java.io.BufferedReader
import java.io.InputStreamReader
import java.net.ConnectException
import java.net.InetSocketAddress
import java.net.Socket
import java.security.MessageDigest
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource

/** Every backend serves the same answers over keep-alive connections, and closing it frees its port. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpBackendsTest {
    /** SHA-256 applied [rounds] times to "forage", computed here independently of the service. */
    private fun expected(rounds: Int): String {
        var bytes = "forage".toByteArray()
        repeat(rounds) { bytes = MessageDigest.getInstance("SHA-256").digest(bytes) }
        return bytes.joinToString("") { "%02x".format(it) }
    }

    /** Sends [targets] one after another on one keep-alive connection; returns (status line, body) per request. */
    private fun exchange(port: Int, targets: List<String>): List<Pair<String, String>> =
        Socket("127.0.0.1", port).use { socket ->
            socket.soTimeout = 30_000
            val out = socket.getOutputStream()
            val input = BufferedReader(InputStreamReader(socket.getInputStream(), Charsets.ISO_8859_1))
            targets.map { target ->
                out.write("GET $target HTTP/1.1\r\nHost: localhost\r\n\r\n".toByteArray())
                out.flush()
                val status = input.readLine()
                var length = -1
                while (true) {
                    val line = input.readLine()
                    if (line.isEmpty()) break
                    if (line.startsWith("Content-Length:", ignoreCase = true)) length = line.substringAfter(':').trim().toInt()
                }
                val body = CharArray(length)
                var read = 0
                while (read < length) read += input.read(body, read, length - read)
                status to String(body)
            }
        }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun answersKeepAliveRequestsOnSeveralConnections(backend: Backend) {
        backend.start(0, 2).use { server ->
            val rounds = listOf(1, 20, 300)
            val replies = exchange(server.port, rounds.map { "/hash?rounds=$it" })
            assertEquals(rounds.map { "200" to expected(it) }, replies.map { it.first.split(' ')[1] to it.second.trim() })
            val clients = Executors.newFixedThreadPool(8)
            try {
                val all = (0 until 8).map { c ->
                    clients.submit(Callable { exchange(server.port, List(50) { "/hash?rounds=${1 + (c + it) % 7}" }) })
                }
                all.forEachIndexed { c, f ->
                    val bodies = f.get().map { it.second.trim() }
                    assertEquals(List(50) { expected(1 + (c + it) % 7) }, bodies)
                }
            } finally {
                clients.shutdownNow()
            }
            assertEquals("404", exchange(server.port, listOf("/nothing-here")).single().first.split(' ')[1])
        }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun closingTheServerFreesItsPort(backend: Backend) {
        val port = backend.start(0, 2).use { it.port }
        assertThrows(ConnectException::class.java) { Socket().use { it.connect(InetSocketAddress("127.0.0.1", port), 5_000) } }
    }

    @Test
    fun theTargetIsTheRequestLinesSecondWord() {
        assertEquals("/hash?rounds=3", Work.targetOf("GET /hash?rounds=3 HTTP/1.1"))
        assertEquals("/x", Work.targetOf("GET /x")) // no version
        assertEquals("/", Work.targetOf("GET")) // no target
        assertEquals("", Work.targetOf("GET  /x HTTP/1.1")) // an empty word, as the line's own spaces say
    }
}
