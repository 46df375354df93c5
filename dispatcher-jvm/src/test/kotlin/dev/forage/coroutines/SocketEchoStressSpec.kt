package dev.forage.coroutines

import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import java.net.InetSocketAddress
import java.nio.ByteBuffer
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import kotlin.concurrent.thread
import kotlinx.coroutines.launch

private const val MESSAGE = 16
private const val CLIENT_THREADS = 4
private const val CONNECTIONS_PER_THREAD = 16
private const val ROUND_TRIPS = 100_000

/**
 * An echo server on an IO pool (accept, read and write all suspending on the pool's workers), loaded with
 * 10^5 round trips over 64 connections from 4 client threads. Every message carries its connection and sequence
 * number; the client checks that each reply is exactly the next message it sent (nothing lost, duplicated or
 * reordered), and the server counts the messages it echoed.
 */
class SocketEchoStressSpec : FunSpec({
    test("an echo server on IO workers answers 10^5 round trips over 64 connections, none lost or duplicated") {
        withWatchdog(seconds = 180) {
            forageDispatcher { threads = 2; name = "io-echo-stress"; ioWorkers = true }.use { io ->
                val server = ServerSocketChannel.open().bind(InetSocketAddress("127.0.0.1", 0))
                server.configureBlocking(false)
                val echoed = AtomicLong()
                val acceptor = launch(io) {
                    while (true) {
                        val conn = runCatching { server.acceptSuspending() }.getOrNull() ?: break
                        launch(io) {
                            val buf = ByteBuffer.allocate(4 * MESSAGE)
                            var pending = 0L
                            while (conn.readSuspending(buf) >= 0) {
                                buf.flip()
                                pending += buf.remaining()
                                conn.writeSuspending(buf)
                                buf.clear()
                            }
                            echoed.addAndGet(pending / MESSAGE)
                            conn.close()
                        }
                    }
                }
                val failures = ConcurrentLinkedQueue<Throwable>()
                val perConnection = ROUND_TRIPS / (CLIENT_THREADS * CONNECTIONS_PER_THREAD)
                val extra = ROUND_TRIPS - perConnection * CLIENT_THREADS * CONNECTIONS_PER_THREAD
                val clients = (0 until CLIENT_THREADS).map { t ->
                    thread(name = "echo-client-$t") {
                        runCatching { runClient(server.localAddress, t, perConnection, if (t == 0) extra else 0) }
                            .exceptionOrNull()?.let { failures += it }
                    }
                }
                clients.forEach { it.join() }
                failures.toList() shouldBe emptyList()
                server.close() // the acceptor's wait fails (closed channel) and it stops
                acceptor.join()
                pollUntil("every connection's coroutine counted its echoes") { echoed.get() == ROUND_TRIPS.toLong() }
                echoed.get() shouldBe ROUND_TRIPS.toLong()
            }
        }
    }
})

/** One client thread: its connections take turns, one message in flight on each; [extra] more on the first. */
private fun runClient(address: java.net.SocketAddress, thread: Int, rounds: Int, extra: Int) {
    val conns = (0 until CONNECTIONS_PER_THREAD).map { SocketChannel.open(address) }
    val out = ByteBuffer.allocate(MESSAGE)
    val inp = ByteBuffer.allocate(MESSAGE)
    for (round in 0 until rounds + extra) {
        val active = if (round < rounds) conns.indices else 0..0
        for (c in active) {
            out.clear()
            out.putInt(thread).putInt(c).putLong(round.toLong()).flip()
            while (out.hasRemaining()) conns[c].write(out)
        }
        for (c in active) {
            inp.clear()
            while (inp.hasRemaining()) check(conns[c].read(inp) >= 0) { "connection $thread/$c closed early" }
            inp.flip()
            val seen = Triple(inp.int, inp.int, inp.long)
            check(seen == Triple(thread, c, round.toLong())) {
                "connection $thread/$c expected round $round back, got $seen: a message was lost, duplicated or mixed"
            }
        }
    }
    conns.forEach { it.close() }
}
