package dev.forage.bench;

import dev.forage.ForagePool;
import dev.forage.PoolStatistics;
import dev.forage.ReadinessListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * An echo server on a pool of two IO workers, with or without a chain of short jobs beside it on the same pool:
 * what a connection's round trip costs when one worker runs compute that pushes and pops its own jobs, and the
 * other worker, idle, keeps finding the jobs counter moved by those pushes. Each failed sleep of that worker is a
 * nap, shorter than a select's millisecond, so it parks where readiness cannot end it (docs/io.md section 4).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.forage.bench.IoBesideChain --chain on --samples 20000
 * </pre>
 *
 * <p>A thread outside the pool holds two connections, one per IO worker (channels are dealt to the workers in
 * turn), and sends 8 bytes every {@code --interval-us} (default 500), alternating between them, on a fixed
 * schedule; each sample is the time from the write to the whole echo read back. The chain (with {@code --chain
 * on}) is one job that spins {@code --job-us} (default 2) and executes itself again, until the samples are taken.
 * Prints the round trip's p50, p90 and p99 in microseconds and the pool's statistics. One JVM: alternate runs, and
 * compare builds by putting another engine jar first on the class path.
 */
public final class IoBesideChain {
    private static final List<String> OPTIONS = List.of("chain", "samples", "warmup", "interval-us", "job-us");

    private IoBesideChain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = ToolOptions.parse(args, OPTIONS);
        String chain = opts.getOrDefault("chain", "on");
        if (!chain.equals("on") && !chain.equals("off")) {
            throw new IllegalArgumentException("--chain must be on or off, was " + chain);
        }
        Result r = run(chain.equals("on"), ToolOptions.positive(opts, "samples", 20_000),
                ToolOptions.positive(opts, "warmup", 2_000), ToolOptions.positive(opts, "interval-us", 500),
                ToolOptions.positive(opts, "job-us", 2));
        r.print(System.out);
    }

    /** The round trips, sorted, in nanoseconds; the chain's jobs; the pool's statistics at the end. */
    record Result(boolean chain, long[] sorted, long chainJobs, PoolStatistics statistics) {
        double percentileMicros(int p) {
            return sorted[Math.min(sorted.length - 1, (int) ((long) sorted.length * p / 100))] / 1e3;
        }

        void print(PrintStream out) {
            out.printf("chain %s: %d round trips, p50 %.1f µs, p90 %.1f µs, p99 %.1f µs; chain jobs %d%n",
                    chain ? "on" : "off", sorted.length, percentileMicros(50), percentileMicros(90),
                    percentileMicros(99), chainJobs);
            out.println(statistics);
        }
    }

    static Result run(boolean withChain, int samples, int warmup, int intervalMicros, int jobMicros)
            throws IOException {
        try (ForagePool pool = ForagePool.builder().threads(2).ioWorkers().name("io-beside-chain").build();
                ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0)).configureBlocking(false);
            Echo echo = new Echo(pool);
            pool.execute(() -> echo.accept(server));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            Socket[] clients = {new Socket("127.0.0.1", port), new Socket("127.0.0.1", port)};
            Chain chain = new Chain(pool, jobMicros * 1_000L);
            try {
                if (withChain) {
                    pool.execute(chain);
                }
                long[] trips = roundTrips(clients, warmup, samples, intervalMicros * 1_000L);
                Arrays.sort(trips);
                return new Result(withChain, trips, chain.stop(), pool.statistics());
            } finally {
                chain.stop();
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
    }

    /** {@code warmup} unrecorded round trips, then {@code samples} recorded, one every {@code interval} ns. */
    private static long[] roundTrips(Socket[] clients, int warmup, int samples, long interval) throws IOException {
        for (Socket s : clients) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(30_000); // a server that never answers fails the run instead of hanging it
        }
        byte[] out = new byte[8];
        byte[] in = new byte[8];
        long[] trips = new long[samples];
        long next = System.nanoTime();
        for (int i = 0; i < warmup + samples; i++) {
            next += interval;
            for (long now; (now = System.nanoTime()) < next; ) {
                LockSupport.parkNanos(next - now); // open loop: a late round trip does not move the schedule
            }
            Socket s = clients[i & 1];
            OutputStream os = s.getOutputStream();
            InputStream is = s.getInputStream();
            long start = System.nanoTime();
            os.write(out);
            for (int got = 0; got < in.length; ) {
                int n = is.read(in, got, in.length - got);
                if (n < 0) {
                    throw new IOException("the server closed the connection");
                }
                got += n;
            }
            if (i >= warmup) {
                trips[i - warmup] = System.nanoTime() - start;
            }
        }
        return trips;
    }

    /** The server: each connection's readiness runs a job on the pool, as a resumed coroutine would. */
    private static final class Echo {
        private final ForagePool pool;

        Echo(ForagePool pool) {
            this.pool = pool;
        }

        void accept(ServerSocketChannel server) {
            pool.awaitReadiness(server, SelectionKey.OP_ACCEPT, new Listener() {
                @Override
                public void ready(SelectableChannel channel) {
                    try {
                        SocketChannel ch = server.accept();
                        if (ch != null) {
                            ch.configureBlocking(false);
                            serve(ch);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    accept(server);
                }
            });
        }

        void serve(SocketChannel ch) {
            pool.awaitReadiness(ch, SelectionKey.OP_READ, new Listener() {
                @Override
                public void ready(SelectableChannel channel) {
                    try {
                        pool.execute(() -> answer(ch));
                    } catch (RejectedExecutionException e) {
                        close(ch); // the pool is closing: the client closed this connection first
                    }
                }
            });
        }

        private static void close(SocketChannel ch) {
            try {
                ch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void answer(SocketChannel ch) {
            try {
                ByteBuffer b = ByteBuffer.allocate(64);
                if (ch.read(b) < 0) {
                    ch.close();
                    return;
                }
                b.flip();
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                serve(ch);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A wait that ends when the connection closes needs nothing more. */
    private abstract static class Listener implements ReadinessListener {
        @Override
        public void failed(Throwable error) {
        }
    }

    /** One job that spins a while and executes itself again: a worker that pushes and pops its own jobs. */
    private static final class Chain implements Runnable {
        private final ForagePool pool;
        private final long spinNanos;
        private volatile boolean stopped;
        private volatile long jobs; // written by the one job running at a time

        Chain(ForagePool pool, long spinNanos) {
            this.pool = pool;
            this.spinNanos = spinNanos;
        }

        @Override
        public void run() {
            long end = System.nanoTime() + spinNanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            jobs++;
            if (!stopped) {
                try {
                    pool.execute(this);
                } catch (RejectedExecutionException e) {
                    // the pool closed between the test and the call: the chain ends with it
                }
            }
        }

        long stop() {
            stopped = true;
            return jobs;
        }
    }
}
