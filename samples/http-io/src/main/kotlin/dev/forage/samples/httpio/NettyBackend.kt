package dev.forage.samples.httpio

import io.netty.bootstrap.ServerBootstrap
import io.netty.buffer.ByteBuf
import io.netty.buffer.ByteBufUtil
import io.netty.buffer.PooledByteBufAllocator
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInitializer
import io.netty.channel.ChannelOption
import io.netty.channel.EventLoopGroup
import io.netty.channel.IoHandlerFactory
import io.netty.channel.MultiThreadIoEventLoopGroup
import io.netty.channel.ServerChannel
import io.netty.channel.epoll.Epoll
import io.netty.channel.epoll.EpollIoHandler
import io.netty.channel.epoll.EpollServerSocketChannel
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.SocketChannel
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.handler.codec.ByteToMessageDecoder
import java.net.InetSocketAddress

/**
 * Backends (d) and (e): the service on Netty, the event-loop runtime most JVM servers stand on, set up as Netty's
 * documentation advises for a small CPU-light handler. One [MultiThreadIoEventLoopGroup] of [threads] event loops
 * (as many as Forage has IO workers) accepts and serves every connection; the pooled allocator
 * ([PooledByteBufAllocator.DEFAULT], named explicitly since Netty 4.2's default is the adaptive one); the handler
 * runs on its channel's event loop with no executor group, so a request is read, hashed and answered by one
 * thread, which is the shape of the Forage IO backend.
 *
 * The HTTP handling is [NioHttpServer]'s, byte for byte in what it accepts and answers (find the end of the head,
 * take the request target, answer with Content-Length, keep the connection open), rather than Netty's
 * `HttpServerCodec`, so that the comparison is of the event loops and not of two HTTP parsers.
 */
class NettyBackend(private val transport: Transport, port: Int, threads: Int) : AutoCloseable {
    /** Netty's two transports on Linux: the native epoll one and the JDK's NIO selector. */
    enum class Transport(val label: String) {
        EPOLL("netty-epoll"),
        NIO("netty-nio");

        internal fun ioHandler(): IoHandlerFactory = when (this) {
            EPOLL -> {
                // The native library ships in the linux-x86_64 jar; say why it is missing instead of failing later.
                check(Epoll.isAvailable()) { "Netty's epoll transport is not available here: ${Epoll.unavailabilityCause()}" }
                EpollIoHandler.newFactory()
            }
            NIO -> NioIoHandler.newFactory()
        }

        internal fun serverChannel(): Class<out ServerChannel> = when (this) {
            EPOLL -> EpollServerSocketChannel::class.java
            NIO -> NioServerSocketChannel::class.java
        }
    }

    private val group: EventLoopGroup = MultiThreadIoEventLoopGroup(threads, transport.ioHandler())
    private val channel = try {
        ServerBootstrap()
            .group(group) // one group: the same loops accept and serve, as Forage's workers do
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(object : ChannelInitializer<SocketChannel>() {
                override fun initChannel(ch: SocketChannel) {
                    ch.pipeline().addLast(HashRequestHandler())
                }
            })
            .bind(InetSocketAddress("127.0.0.1", port)).sync().channel()
    } catch (e: Exception) {
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly()
        throw e
    }

    val port: Int = (channel.localAddress() as InetSocketAddress).port

    override fun close() {
        channel.close().syncUninterruptibly()
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly()
    }

    /**
     * Decodes request heads from the connection's cumulated bytes and answers each at once; the writes are flushed
     * once per read batch (`channelReadComplete`), as Netty's HTTP examples do.
     */
    private class HashRequestHandler : ByteToMessageDecoder() {
        override fun decode(ctx: ChannelHandlerContext, input: ByteBuf, out: MutableList<Any>) {
            while (true) {
                val end = headEnd(input)
                if (end < 0) {
                    if (input.readableBytes() > MAX_HEAD) {
                        ctx.close() // NioHttpServer's limit: a head larger than its 8 KiB buffer ends the connection
                    }
                    return
                }
                val lineEnd = input.indexOf(input.readerIndex(), end, '\r'.code.toByte()).let { if (it < 0) end else it }
                val line = input.toString(input.readerIndex(), lineEnd - input.readerIndex(), Charsets.ISO_8859_1)
                input.readerIndex(end + 4)
                val rounds = Work.roundsOf(Work.targetOf(line))
                val body = if (rounds == null) NOT_FOUND_BODY else Work.hash(rounds)
                val status = if (rounds == null) "404 Not Found" else "200 OK"
                val response = ctx.alloc().buffer(96 + body.length)
                ByteBufUtil.writeAscii(response, "HTTP/1.1 $status\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n")
                ByteBufUtil.writeAscii(response, body)
                ctx.write(response, ctx.voidPromise())
            }
        }

        override fun channelReadComplete(ctx: ChannelHandlerContext) {
            ctx.flush()
            super.channelReadComplete(ctx)
        }

        override fun exceptionCaught(ctx: ChannelHandlerContext, cause: Throwable) {
            ctx.close() // the client went away
        }
    }

    private companion object {
        /** The index of the CR LF CR LF that ends the first request head in [b]'s readable bytes, or -1. */
        fun headEnd(b: ByteBuf): Int {
            for (i in b.readerIndex()..b.writerIndex() - 4) {
                if (b.getByte(i) == CR && b.getByte(i + 1) == LF && b.getByte(i + 2) == CR && b.getByte(i + 3) == LF) {
                    return i
                }
            }
            return -1
        }

        const val CR = '\r'.code.toByte()
        const val LF = '\n'.code.toByte()
        const val MAX_HEAD = 8192
        const val NOT_FOUND_BODY = "use GET /hash?rounds=N, N from 1 to 100000\n"
    }
}
