@file:JvmName("SocketIo")

package dev.forage.coroutines

import dev.forage.ForagePool
import dev.forage.ReadinessListener
import java.net.SocketAddress
import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.channels.SelectableChannel
import java.nio.channels.SelectionKey
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import kotlin.coroutines.cancellation.CancellationException
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.suspendCancellableCoroutine

/*
 * Suspending socket IO on a Forage pool with IO workers (docs/io.md). Each function first tries the operation
 * without waiting; only when the channel is not ready does the coroutine suspend, and the worker that owns the
 * channel resumes it when its selector reports readiness, on that worker's own queue.
 *
 * Rules, checked by every function: the coroutine runs on a worker of a pool with IO workers (any dispatcher over
 * it: the pool's own, a limitedParallelism view); the channel is open, in non-blocking mode, and registered with
 * no selector but the pool's. A channel belongs to one worker until it is closed, picked at its first wait: the
 * IO workers in turn, as Netty deals its event loops to accepted channels, so a server's connections spread over
 * the workers. A coroutine that runs elsewhere later still waits through that worker, and is resumed there.
 */

/**
 * Reads into [buffer], suspending until at least one byte is read. Returns the number of bytes read, -1 at the end
 * of the stream, or 0 when [buffer] has no room.
 *
 * Cancellation withdraws the wait (the channel's key stays registered, with no interest, until the channel is
 * closed). Closing the channel from another coroutine or thread resumes the reader with a
 * [java.nio.channels.AsynchronousCloseException]; so does shutting the pool down, with a message naming the pool.
 * At most one pending read per channel.
 * ```
 * forageDispatcher { ioWorkers = true }.use { io ->
 *     withContext(io) {
 *         val ch = SocketChannel.open().apply { configureBlocking(false) }
 *         ch.connectSuspending(InetSocketAddress("example.org", 80))
 *         ch.writeSuspending(ByteBuffer.wrap("HEAD / HTTP/1.0\r\n\r\n".toByteArray()))
 *         val buf = ByteBuffer.allocate(4096)
 *         while (ch.readSuspending(buf) >= 0) buf.clear()
 *     }
 * }
 * ```
 * @throws IllegalStateException if the coroutine does not run on a worker of a pool with IO workers
 * @throws IllegalArgumentException if the channel is in blocking mode or registered with another selector
 * @throws ClosedChannelException if the channel is closed
 */
public suspend fun SocketChannel.readSuspending(buffer: ByteBuffer): Int {
    val pool = checkIo("readSuspending", this)
    if (!buffer.hasRemaining()) return 0
    while (true) {
        val n = read(buffer)
        if (n != 0) return n
        awaitReady(pool, SelectionKey.OP_READ)
    }
}

/**
 * Suspends until the channel has input: bytes to read, the end of the stream, or an error that the next read
 * reports. Nothing is read. This is the wait [readSuspending] makes when a read finds nothing, without the read
 * before it (Tokio's `readable()`).
 *
 * Use it between messages on a kept-alive connection. There the next message has usually not arrived when the
 * previous answer is written, so [readSuspending]'s first read returns nothing and costs a system call for each
 * message; waiting first lets the worker's selector report the connection with the others it is ready with, and
 * the read that follows finds the message. Within a message, where the rest is usually on its way, call
 * [readSuspending] directly. Readiness is level-triggered: if input is already there, the next select reports it
 * at once. Cancellation, closing and pool shutdown behave as for [readSuspending]; it counts as the channel's one
 * pending read.
 * ```
 * while (true) {
 *     if (input.position() == 0) ch.awaitReadable()   // between messages: no read that finds nothing
 *     if (ch.readSuspending(input) < 0) break
 *     // ... answer each complete message in input, compact the rest
 * }
 * ```
 * @throws IllegalStateException if the coroutine does not run on a worker of a pool with IO workers
 * @throws IllegalArgumentException if the channel is in blocking mode or registered with another selector
 * @throws ClosedChannelException if the channel is closed
 */
public suspend fun SocketChannel.awaitReadable() {
    awaitReady(checkIo("awaitReadable", this), SelectionKey.OP_READ)
}

/**
 * Writes every remaining byte of [buffer], suspending while the socket's send buffer is full. Returns the number
 * of bytes written. Cancellation, closing and pool shutdown behave as for [readSuspending]; at most one pending
 * write per channel.
 * ```
 * ch.writeSuspending(ByteBuffer.wrap(response))   // returns once all of it is in the socket's send buffer
 * ```
 * @throws IllegalStateException if the coroutine does not run on a worker of a pool with IO workers
 * @throws IllegalArgumentException if the channel is in blocking mode or registered with another selector
 * @throws ClosedChannelException if the channel is closed
 */
public suspend fun SocketChannel.writeSuspending(buffer: ByteBuffer): Int {
    val pool = checkIo("writeSuspending", this)
    var written = 0
    while (buffer.hasRemaining()) {
        val n = write(buffer)
        if (n == 0) {
            awaitReady(pool, SelectionKey.OP_WRITE)
        } else {
            written += n
        }
    }
    return written
}

/**
 * Accepts a connection, suspending until one arrives. The new channel is in non-blocking mode, ready for
 * [readSuspending] and [writeSuspending]; at its first wait it is given to the next IO worker in turn, so the
 * connections of one accepting coroutine spread over the workers.
 * ```
 * val server = ServerSocketChannel.open().bind(InetSocketAddress(8080)).apply { configureBlocking(false) }
 * while (true) {
 *     val client = server.acceptSuspending()
 *     launch { serve(client) }      // on the same pool: the connection's coroutine starts on this worker
 * }
 * ```
 * @throws IllegalStateException if the coroutine does not run on a worker of a pool with IO workers
 * @throws IllegalArgumentException if the channel is in blocking mode or registered with another selector
 * @throws ClosedChannelException if the channel is closed
 */
public suspend fun ServerSocketChannel.acceptSuspending(): SocketChannel {
    val pool = checkIo("acceptSuspending", this)
    while (true) {
        val client = accept()
        if (client != null) {
            client.configureBlocking(false)
            return client
        }
        awaitReady(pool, SelectionKey.OP_ACCEPT)
    }
}

/**
 * Connects to [address], suspending until the connection is established. If the coroutine is cancelled while the
 * connection is being established, the channel is closed (a half-made connection cannot be taken up again).
 * ```
 * val ch = SocketChannel.open().apply { configureBlocking(false) }
 * ch.connectSuspending(InetSocketAddress("localhost", 8080))
 * ```
 * @throws IllegalStateException if the coroutine does not run on a worker of a pool with IO workers
 * @throws IllegalArgumentException if the channel is in blocking mode or registered with another selector
 * @throws ClosedChannelException if the channel is closed
 * @throws java.io.IOException if the connection fails (for example `java.net.ConnectException`)
 */
public suspend fun SocketChannel.connectSuspending(address: SocketAddress) {
    val pool = checkIo("connectSuspending", this)
    if (connect(address)) return
    try {
        while (!finishConnect()) {
            awaitReady(pool, SelectionKey.OP_CONNECT)
        }
    } catch (e: CancellationException) {
        close()
        throw e
    }
}

/** The pool of the calling worker, once the rules in this file's header hold. */
private fun checkIo(function: String, channel: SelectableChannel): ForagePool {
    val pool = ForagePool.current()
    if (pool == null || !pool.hasIoWorkers()) {
        val where = if (pool == null) {
            "it runs on thread ${Thread.currentThread().name}, which is no Forage worker"
        } else {
            "it runs on pool ${pool.name()}, which has no IO workers"
        }
        throw IllegalStateException(
            "$function needs a coroutine on a Forage pool with IO workers (forageDispatcher { ioWorkers = true }, " +
                "or ForagePool.builder().ioWorkers()); $where",
        )
    }
    if (!channel.isOpen) {
        throw ClosedChannelWithMessage("$function on $channel, which is closed; allowed: open channels")
    }
    require(!channel.isBlocking) {
        "$function on $channel, which is in blocking mode; allowed: non-blocking channels (call " +
            "configureBlocking(false) first)"
    }
    return pool
}

/** Suspends until [channel][this] is ready for [op], through the pool's owner of the channel. */
private suspend fun SelectableChannel.awaitReady(pool: ForagePool, op: Int): Unit =
    suspendCancellableCoroutine { cont ->
        val wait = try {
            pool.awaitReadiness(this, op, ResumeOnReadiness(cont))
        } catch (e: IllegalArgumentException) {
            cont.resumeWithException(e)
            return@suspendCancellableCoroutine
        }
        cont.invokeOnCancellation { wait.cancel() }
    }

/**
 * Resumes a coroutine when its wait ends; runs on the worker that told the wait (its owner, or a neighbour that took
 * its selector over), so the resumption goes to that worker's own queue.
 */
private class ResumeOnReadiness(private val cont: CancellableContinuation<Unit>) : ReadinessListener {
    override fun ready(channel: SelectableChannel) {
        cont.resume(Unit)
    }

    override fun failed(error: Throwable) {
        cont.resumeWithException(error)
    }
}

/** A [ClosedChannelException] (what NIO code catches) that says what was closed; the JDK's has no message. */
private class ClosedChannelWithMessage(override val message: String) : ClosedChannelException()
