package dev.forage.coroutines

import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import java.net.InetSocketAddress
import java.nio.ByteBuffer
import java.nio.channels.AsynchronousCloseException
import java.nio.channels.ClosedChannelException
import java.nio.channels.Selector
import java.nio.channels.SelectionKey
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/** A listening, non-blocking server channel on a free loopback port. */
private fun loopbackServer(): ServerSocketChannel =
    ServerSocketChannel.open().bind(InetSocketAddress("127.0.0.1", 0)).apply { configureBlocking(false) }

/** A connected pair: a plain blocking client and the accepted side, non-blocking, for the pool. */
private fun connectedPair(server: ServerSocketChannel): Pair<SocketChannel, SocketChannel> {
    val client = SocketChannel.open(server.localAddress)
    var accepted: SocketChannel? = null
    while (accepted == null) accepted = server.accept() // the connection is queued already: no wait in practice
    accepted.configureBlocking(false)
    return client to accepted
}

private fun ioDispatcher(name: String, threads: Int = 2) = forageDispatcher {
    this.threads = threads
    this.name = name
    ioWorkers = true
}

class SocketIoSpec : FunSpec({
    test("accept, connect, read and write suspend on IO workers and echo bytes intact") {
        withWatchdog {
            ioDispatcher("io-echo").use { io ->
                val server = loopbackServer()
                val port = (server.localAddress as InetSocketAddress).port
                val serverJob = launch(io) {
                    val conn = server.acceptSuspending()
                    val buf = ByteBuffer.allocate(1024)
                    while (conn.readSuspending(buf) >= 0) {
                        buf.flip()
                        conn.writeSuspending(buf)
                        buf.clear()
                    }
                    conn.close()
                }
                val echoed = withContext(io) {
                    val ch = SocketChannel.open().apply { configureBlocking(false) }
                    ch.connectSuspending(InetSocketAddress("127.0.0.1", port))
                    val payload = ByteArray(200_000) { (it % 251).toByte() }
                    val sender = async { ch.writeSuspending(ByteBuffer.wrap(payload)) }
                    val got = ByteBuffer.allocate(payload.size)
                    while (got.hasRemaining()) check(ch.readSuspending(got) > 0) { "end of stream too early" }
                    sender.await() shouldBe payload.size
                    ch.close()
                    got.array().contentEquals(payload)
                }
                echoed shouldBe true
                serverJob.join()
                server.close()
            }
        }
    }

    test("socket IO on a pool without IO workers, or off every pool, says what is allowed") {
        withWatchdog {
            val server = loopbackServer()
            forageDispatcher { threads = 1; name = "io-none" }.use { plain ->
                val error = shouldThrow<IllegalStateException> { withContext(plain) { server.acceptSuspending() } }
                error.message shouldContain "io-none, which has no IO workers"
                error.message shouldContain "ioWorkers = true"
            }
            val outside = shouldThrow<IllegalStateException> {
                withContext(Dispatchers.Default) { server.acceptSuspending() }
            }
            outside.message shouldContain "which is no Forage worker"
            server.close()
        }
    }

    test("a blocking-mode channel, a closed one and one registered elsewhere are refused with the rule") {
        withWatchdog {
            ioDispatcher("io-bad").use { io ->
                val server = loopbackServer()
                val (client, accepted) = connectedPair(server)
                withContext(io) {
                    shouldThrow<IllegalArgumentException> { client.readSuspending(ByteBuffer.allocate(8)) }
                        .message shouldContain "configureBlocking(false)"
                    val other = Selector.open()
                    accepted.register(other, SelectionKey.OP_READ)
                    shouldThrow<IllegalArgumentException> { accepted.readSuspending(ByteBuffer.allocate(8)) }
                        .message shouldContain "registered with a selector that is not"
                    other.close()
                    accepted.close()
                    shouldThrow<ClosedChannelException> { accepted.readSuspending(ByteBuffer.allocate(8)) }
                        .message shouldContain "allowed: open channels"
                }
                client.close()
                server.close()
            }
        }
    }

    test("awaitReadable waits for input without reading it, sees input already there, and ends at end of stream") {
        withWatchdog {
            ioDispatcher("io-readable").use { io ->
                val server = loopbackServer()
                val (client, accepted) = connectedPair(server)
                val waited = async(io) { accepted.awaitReadable() }
                pollUntil("the wait is registered") { accepted.isRegistered }
                waited.isCompleted shouldBe false // nothing to read yet
                client.write(ByteBuffer.wrap(byteArrayOf(1, 2, 3)))
                waited.await()
                val buf = ByteBuffer.allocate(8)
                withContext(io) {
                    // The bytes are still there (nothing was read), and a second wait sees them at once.
                    accepted.awaitReadable()
                    accepted.readSuspending(buf) shouldBe 3
                }
                buf.array().copyOf(3).toList() shouldBe listOf<Byte>(1, 2, 3)
                withContext(io) {
                    shouldThrow<IllegalArgumentException> { client.awaitReadable() } // blocking mode: a rule
                }
                client.close()
                withContext(io) {
                    accepted.awaitReadable() // end of stream ends the wait
                    accepted.readSuspending(buf) shouldBe -1
                }
                shouldThrow<IllegalStateException> { accepted.awaitReadable() }.message shouldContain
                    "awaitReadable needs a coroutine on a Forage pool with IO workers"
                accepted.close()
                server.close()
            }
        }
    }

    test("a second pending read on one channel fails with the one-reader rule; the first still completes") {
        withWatchdog {
            ioDispatcher("io-two-readers", threads = 1).use { io ->
                val server = loopbackServer()
                val (client, accepted) = connectedPair(server)
                val first = launch(io, start = CoroutineStart.UNDISPATCHED) { }
                first.join()
                val reading = CompletableDeferred<Unit>()
                val firstRead = async(io) {
                    reading.complete(Unit)
                    accepted.readSuspending(ByteBuffer.allocate(8))
                }
                reading.await()
                // The first reader's wait is registered before it yields its worker; one worker runs both.
                val second = runCatching { withContext(io) { accepted.readSuspending(ByteBuffer.allocate(8)) } }
                second.exceptionOrNull()!!.message shouldContain "allowed: one pending wait per operation"
                client.write(ByteBuffer.wrap(byteArrayOf(1, 2, 3)))
                firstRead.await() shouldBe 3
                client.close()
                accepted.close()
                server.close()
            }
        }
    }

    test("a cancelled read withdraws its wait: the next read on the channel waits and completes normally") {
        withWatchdog {
            ioDispatcher("io-cancel").use { io ->
                val server = loopbackServer()
                val (client, accepted) = connectedPair(server)
                repeat(100) {
                    val started = CompletableDeferred<Unit>()
                    val reader = launch(io) {
                        started.complete(Unit)
                        accepted.readSuspending(ByteBuffer.allocate(8))
                    }
                    started.await()
                    reader.cancelAndJoin()
                }
                val read = async(io) { accepted.readSuspending(ByteBuffer.allocate(8)) }
                client.write(ByteBuffer.wrap(byteArrayOf(7)))
                read.await() shouldBe 1
                client.close()
                accepted.close()
                server.close()
            }
        }
    }

    test("closing a channel resumes its waiting reader with an AsynchronousCloseException") {
        withWatchdog {
            ioDispatcher("io-close-channel").use { io ->
                val server = loopbackServer()
                val (client, accepted) = connectedPair(server)
                val started = CompletableDeferred<Unit>()
                val read = async(io) {
                    started.complete(Unit)
                    runCatching { accepted.readSuspending(ByteBuffer.allocate(8)) }.exceptionOrNull()
                }
                started.await()
                pollUntil("the reader's wait is registered") { accepted.isRegistered }
                accepted.close() // from a thread outside the pool: no selector is woken by the close itself
                val error = read.await()
                (error is AsynchronousCloseException) shouldBe true
                error!!.message shouldContain "was closed while a wait for OP_READ was pending"
                client.close()
                server.close()
            }
        }
    }

    test("closing the pool fails pending waits with an exception naming the pool and loses no queued job") {
        withWatchdog {
            val io = ioDispatcher("io-shutdown")
            val server = loopbackServer()
            val waiting = CompletableDeferred<Unit>()
            val failure = CompletableDeferred<Throwable?>()
            val afterFailure = CompletableDeferred<String>()
            launch(io) {
                waiting.complete(Unit)
                failure.complete(runCatching { server.acceptSuspending() }.exceptionOrNull())
                afterFailure.complete(Thread.currentThread().name)
            }
            waiting.await()
            val ran = java.util.concurrent.atomic.AtomicInteger()
            repeat(1000) { io.pool.execute { ran.incrementAndGet() } }
            io.close()
            val error = failure.await()
            (error is AsynchronousCloseException) shouldBe true
            error!!.message shouldContain "pool io-shutdown was shut down"
            afterFailure.await()
            ran.get() shouldBe 1000
            server.close()
        }
    }
})
