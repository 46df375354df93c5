package dev.forage.samples.httpio

import dev.forage.coroutines.ForageDispatcher
import dev.forage.coroutines.acceptSuspending
import dev.forage.coroutines.awaitReadable
import dev.forage.coroutines.forageDispatcher
import dev.forage.coroutines.readSuspending
import dev.forage.coroutines.writeSuspending
import java.nio.ByteBuffer
import java.nio.channels.SelectableChannel
import java.nio.channels.SelectionKey
import java.nio.channels.Selector
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import java.util.concurrent.ConcurrentLinkedQueue
import kotlin.coroutines.resume
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Backend (a): one Forage pool with IO workers for accept, IO and compute. A connection's coroutine waits in its
 * worker's selector; the worker that sees the socket ready resumes it on its own queue and runs the handler.
 */
class ForageIoDriver(threads: Int) : SocketDriver {
    override val name = "forage-io"
    private val forage: ForageDispatcher = forageDispatcher {
        this.threads = threads
        name = "http"
        ioWorkers = true
    }
    override val dispatcher: CoroutineDispatcher = forage

    /** The pool's counters (jobs, sleeps, wake-ups, ...), for the benchmark's log. */
    fun statistics(): String = forage.pool.statistics().toString()

    override suspend fun accept(server: ServerSocketChannel): SocketChannel = server.acceptSuspending()

    override suspend fun read(channel: SocketChannel, buffer: ByteBuffer): Int = channel.readSuspending(buffer)

    override suspend fun awaitInput(channel: SocketChannel) = channel.awaitReadable()

    override suspend fun write(channel: SocketChannel, buffer: ByteBuffer) {
        channel.writeSuspending(buffer)
    }

    override fun close() = forage.close()
}

/**
 * Backend (b), the conventional shape of a JVM server on coroutines (Ktor's SelectorManager, an NIO event loop):
 * one selector thread waits for readiness and resumes the waiting coroutine, whose dispatcher,
 * `Dispatchers.Default`, wakes one of its threads to run it. Every request crosses from the selector thread to a
 * pool thread.
 */
class SelectorThreadDriver : SocketDriver {
    override val name = "selector+default"
    override val dispatcher: CoroutineDispatcher = Dispatchers.Default
    private val selector: Selector = Selector.open()
    private val registrations = ConcurrentLinkedQueue<Registration>()

    @Volatile
    private var running = true
    private val thread = Thread(::loop, "http-selector").apply {
        isDaemon = true
        start()
    }

    private class Registration(val channel: SelectableChannel, val op: Int, val cont: CancellableContinuation<Unit>)

    /** The key's attachment: the coroutine waiting for each operation. */
    private class Waiters {
        var read: CancellableContinuation<Unit>? = null
        var write: CancellableContinuation<Unit>? = null
        fun ops() = (if (read != null) SelectionKey.OP_READ or SelectionKey.OP_ACCEPT else 0) or
            (if (write != null) SelectionKey.OP_WRITE else 0)
    }

    private suspend fun await(channel: SelectableChannel, op: Int) = suspendCancellableCoroutine { cont ->
        registrations.add(Registration(channel, op, cont))
        selector.wakeup()
    }

    private fun loop() {
        while (running) {
            selector.select()
            while (true) {
                val r = registrations.poll() ?: break
                try {
                    val key = r.channel.keyFor(selector) ?: r.channel.register(selector, 0, Waiters())
                    val w = key.attachment() as Waiters
                    if (r.op == SelectionKey.OP_WRITE) w.write = r.cont else w.read = r.cont
                    key.interestOps(w.ops() and r.channel.validOps())
                } catch (e: Exception) { // closed meanwhile (ClosedChannelException, CancelledKeyException)
                    r.cont.resumeWith(Result.failure(java.io.IOException("channel closed", e)))
                }
            }
            val it = selector.selectedKeys().iterator()
            while (it.hasNext()) {
                val key = it.next()
                it.remove()
                val w = key.attachment() as Waiters
                if (!key.isValid) continue
                val ready = key.readyOps()
                if (ready and (SelectionKey.OP_READ or SelectionKey.OP_ACCEPT) != 0) {
                    w.read?.resume(Unit) // dispatched to Dispatchers.Default: wakes one of its threads
                    w.read = null
                }
                if (ready and SelectionKey.OP_WRITE != 0) {
                    w.write?.resume(Unit)
                    w.write = null
                }
                try {
                    key.interestOps(w.ops() and key.channel().validOps())
                } catch (e: java.nio.channels.CancelledKeyException) {
                    // the resumed coroutine closed the channel meanwhile
                }
            }
        }
        selector.close()
    }

    override suspend fun accept(server: ServerSocketChannel): SocketChannel {
        while (true) {
            server.accept()?.let { return it.apply { configureBlocking(false) } }
            await(server, SelectionKey.OP_ACCEPT)
        }
    }

    override suspend fun read(channel: SocketChannel, buffer: ByteBuffer): Int {
        while (true) {
            val n = channel.read(buffer)
            if (n != 0) return n
            await(channel, SelectionKey.OP_READ)
        }
    }

    override suspend fun awaitInput(channel: SocketChannel) = await(channel, SelectionKey.OP_READ)

    override suspend fun write(channel: SocketChannel, buffer: ByteBuffer) {
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) == 0) await(channel, SelectionKey.OP_WRITE)
        }
    }

    override fun close() {
        running = false
        selector.wakeup()
        thread.join()
    }
}
