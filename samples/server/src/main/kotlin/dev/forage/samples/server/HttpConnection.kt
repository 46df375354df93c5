package dev.forage.samples.server

import java.io.BufferedInputStream
import java.io.BufferedOutputStream
import java.io.ByteArrayOutputStream
import java.io.EOFException
import java.io.IOException
import java.io.InputStream
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.Socket

/** A response: status code and body (UTF-8). */
data class HttpResponse(val status: Int, val body: String)

/**
 * One persistent HTTP/1.1 connection to a loopback server, one request at a time (blocking). Small on purpose:
 * the load generator runs in the same JVM as the server, so its own CPU cost must stay low and be measurable
 * (it never leaves the calling thread). Understands `Content-Length` and chunked bodies.
 */
class HttpConnection(host: String, port: Int) : AutoCloseable {
    private val socket = Socket()
    private val input: InputStream
    private val output: BufferedOutputStream
    private val hostHeader = "$host:$port"

    init {
        val address = InetAddress.getByName(host)
        require(address.isLoopbackAddress) { "the load generator talks to loopback only, was $host" }
        socket.tcpNoDelay = true
        socket.soTimeout = READ_TIMEOUT_MILLIS
        socket.connect(InetSocketAddress(address, port), CONNECT_TIMEOUT_MILLIS)
        input = BufferedInputStream(socket.getInputStream())
        output = BufferedOutputStream(socket.getOutputStream())
    }

    /** Sends `GET path` and reads the whole response. */
    fun get(path: String): HttpResponse {
        require(path.startsWith("/")) { "path must start with '/', was '$path'" }
        output.write("GET $path HTTP/1.1\r\nHost: $hostHeader\r\n\r\n".toByteArray(Charsets.US_ASCII))
        output.flush()
        val statusLine = readLine()
        val status = statusLine.split(' ').getOrNull(1)?.toIntOrNull()
            ?: throw IOException("malformed status line: '$statusLine'")
        var contentLength = -1
        var chunked = false
        while (true) {
            val header = readLine()
            if (header.isEmpty()) break
            val colon = header.indexOf(':')
            if (colon < 0) continue
            val name = header.substring(0, colon).trim()
            val value = header.substring(colon + 1).trim()
            when {
                name.equals("Content-Length", ignoreCase = true) -> contentLength = value.toInt()
                name.equals("Transfer-Encoding", ignoreCase = true) -> chunked = value.equals("chunked", true)
            }
        }
        val body = when {
            chunked -> readChunked()
            contentLength >= 0 -> readExactly(contentLength)
            else -> throw IOException("response has neither Content-Length nor chunked encoding")
        }
        return HttpResponse(status, String(body, Charsets.UTF_8))
    }

    override fun close() {
        socket.close()
    }

    private fun readChunked(): ByteArray {
        val body = ByteArrayOutputStream()
        while (true) {
            val size = readLine().substringBefore(';').trim().toInt(16)
            if (size == 0) {
                while (readLine().isNotEmpty()) Unit // trailers
                return body.toByteArray()
            }
            body.write(readExactly(size))
            readLine() // the CRLF after each chunk
        }
    }

    private fun readExactly(n: Int): ByteArray {
        val bytes = ByteArray(n)
        var read = 0
        while (read < n) {
            val r = input.read(bytes, read, n - read)
            if (r < 0) throw EOFException("connection closed after $read of $n body bytes")
            read += r
        }
        return bytes
    }

    private fun readLine(): String {
        val line = StringBuilder()
        while (true) {
            val b = input.read()
            if (b < 0) throw EOFException("connection closed mid-line: '$line'")
            if (b == '\n'.code) return line.toString().removeSuffix("\r")
            line.append(b.toChar())
        }
    }

    private companion object {
        const val CONNECT_TIMEOUT_MILLIS = 5_000
        const val READ_TIMEOUT_MILLIS = 30_000
    }
}
