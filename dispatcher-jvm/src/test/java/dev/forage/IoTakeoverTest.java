package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Selector takeover ({@code docs/io.md} section 6): a channel whose worker is stuck in a long job is served by a
 * neighbour, and readiness is told exactly once while owners and neighbours drive the same selectors.
 */
@Watchdog.Budget(seconds = 120)
class IoTakeoverTest {
    private static final long WAIT_SECONDS = 30;

    /**
     * The owner registers a read wait, then runs a job that ends only when that wait's listener has run. Without
     * takeover the listener would wait for the job, which waits for the listener: the latch times out.
     */
    @Test
    void aChannelWhoseWorkerIsStuckInALongJobIsServedByANeighbour() throws Exception {
        try (ForagePool pool = takeoverPool("takeover", 1);
                ServerSocketChannel server = SelectorParkerTest.server()) {
            Stuck stuck = stuckOwner(pool, server, WAIT_SECONDS * 1000);
            assertTrue(stuck.servedWhileStuck(), "the readiness waited for the stuck owner");
            assertNotEquals(stuck.stuckOn(), stuck.toldOn(), "told on the stuck owner itself");
            assertTrue(stuck.toldOn().startsWith("takeover"), "told on a worker of the pool: " + stuck.toldOn());
            // Counted before the neighbour told the listener, so the chain listener, job, this thread sees it.
            assertTrue(pool.statistics().count(PoolCounter.IO_TAKEOVERS) >= 1, pool.statistics()::toString);
        }
    }

    /**
     * Takeover is off unless asked for: the stuck owner's channel waits for its owner, as on Netty's event loops,
     * and is told there once the job ends. The window is 300 ms, 300 times the delay the takeover would use.
     */
    @Test
    void offByDefaultAChannelWaitsForItsOwnWorker() throws Exception {
        try (ForagePool pool = SelectorParkerTest.ioPool("owner-only", 2);
                ServerSocketChannel server = SelectorParkerTest.server()) {
            Stuck stuck = stuckOwner(pool, server, 300);
            assertFalse(stuck.servedWhileStuck(), "a neighbour served the channel with takeover off");
            assertEquals(stuck.stuckOn(), stuck.toldOn(), "told on another worker than the channel's owner");
            assertEquals(0, pool.statistics().count(PoolCounter.IO_TAKEOVERS), pool.statistics()::toString);
        }
    }

    @Test
    void badTakeoverSettingsAreRefusedWithWhatIsAllowed() {
        IllegalArgumentException noIo = assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().ioTakeover(1, TimeUnit.MILLISECONDS).build());
        assertEquals("ioTakeover(...) applies to IO workers, and this pool has none; allowed: ioTakeover(...) "
                + "together with ioWorkers()", noIo.getMessage());
        IllegalArgumentException fraction = assertThrows(
                IllegalArgumentException.class,
                () -> ForagePool.builder().ioWorkers().ioTakeover(500, TimeUnit.MICROSECONDS));
        assertEquals("ioTakeover must be a whole number of milliseconds from 0 (off) to 60000 ms, was 500 "
                + "MICROSECONDS", fraction.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ForagePool.builder().ioWorkers().ioTakeover(-1, TimeUnit.MILLISECONDS));
        assertThrows(NullPointerException.class,
                () -> ForagePool.builder().ioWorkers().ioTakeover(1, null));
    }

    /** A two-worker IO pool with takeover on, after {@code millis}. */
    static ForagePool takeoverPool(String name, long millis) {
        return ForagePool.builder().ioWorkers().threads(2).name(name).ioTakeover(millis, TimeUnit.MILLISECONDS)
                .build();
    }

    /** Where a stuck owner's channel was told, and whether before the owner's job ended. */
    private record Stuck(String stuckOn, String toldOn, boolean servedWhileStuck) {}

    /**
     * A worker registers a read wait on a channel it owns, then runs a job that ends when that wait's listener has
     * run or after {@code stuckMillis}, while the test makes the channel readable.
     */
    private static Stuck stuckOwner(ForagePool pool, ServerSocketChannel server, long stuckMillis) throws Exception {
        SocketChannel[] p = SelectorParkerTest.pair(server);
        SocketChannel[] spare = SelectorParkerTest.pair(server); // dealt to worker 0 when the job runs on 1
        CountDownLatch registered = new CountDownLatch(1);
        CountDownLatch told = new CountDownLatch(1);
        AtomicReference<String> stuckOn = new AtomicReference<>();
        AtomicReference<String> toldOn = new AtomicReference<>();
        AtomicBoolean servedWhileStuck = new AtomicBoolean();
        CountDownLatch jobEnded = new CountDownLatch(1);
        pool.execute(() -> {
            stuckOn.set(Thread.currentThread().getName());
            // The channel must belong to this worker. New channels are dealt to the IO workers in turn from
            // worker 0 (docs/io.md, "Ownership"), and none was dealt before: on worker 1, one other first.
            if (ForagePool.currentWorkerIndex() == 1) {
                pool.awaitReadiness(spare[1], SelectionKey.OP_READ, new ReadinessListener() {
                    @Override
                    public void ready(SelectableChannel channel) {}

                    @Override
                    public void failed(Throwable error) {}
                });
            }
            pool.awaitReadiness(p[1], SelectionKey.OP_READ, new ReadinessListener() {
                @Override
                public void ready(SelectableChannel channel) {
                    toldOn.set(Thread.currentThread().getName());
                    told.countDown();
                }

                @Override
                public void failed(Throwable error) {
                    toldOn.set("failed: " + error);
                    told.countDown();
                }
            });
            registered.countDown();
            try {
                servedWhileStuck.set(told.await(stuckMillis, TimeUnit.MILLISECONDS)); // the long job
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                jobEnded.countDown();
            }
        });
        assertTrue(registered.await(WAIT_SECONDS, TimeUnit.SECONDS));
        p[0].write(ByteBuffer.wrap(new byte[] {1}));
        assertTrue(jobEnded.await(stuckMillis + WAIT_SECONDS * 1000, TimeUnit.MILLISECONDS));
        assertTrue(told.await(WAIT_SECONDS, TimeUnit.SECONDS), "never told");
        p[0].close();
        p[1].close();
        spare[0].close();
        spare[1].close();
        return new Stuck(stuckOn.get(), toldOn.get(), servedWhileStuck.get());
    }

    /**
     * Echo over 32 connections from 4 client threads while the workers keep running 2 ms jobs, so that owners
     * are often busy when their channels turn ready and neighbours take over: every byte is echoed exactly once,
     * no listener fails and no worker sees an exception. A lost wait hangs a client (the watchdog's budget); a
     * wait told twice echoes a byte twice (a client reads a byte it did not send, or the counts differ).
     */
    @Test
    void echoUnderLongJobsLosesAndDuplicatesNothing() throws Exception {
        int connections = 32;
        int rounds = 300;
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicLong echoed = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long lent = 0;
        SelectorIo io;
        ForagePool closed;
        try (ForagePool pool = ForagePool.builder().ioWorkers().threads(2).name("takeover-echo")
                .ioTakeover(1, TimeUnit.MILLISECONDS).uncaughtExceptionHandler((t, e) -> errors.add(e)).build();
                ServerSocketChannel server = SelectorParkerTest.server()) {
            List<SocketChannel> clients = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                SocketChannel[] p = SelectorParkerTest.pair(server);
                clients.add(p[0]);
                SocketChannel accepted = p[1];
                pool.execute(() -> new Echo(pool, accepted, echoed, errors).await());
            }
            Thread spinner = new Thread(() -> {
                while (!stop.get()) {
                    CountDownLatch done = new CountDownLatch(2);
                    for (int i = 0; i < 2; i++) {
                        pool.execute(() -> {
                            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                            while (System.nanoTime() < end) {
                                Thread.onSpinWait();
                            }
                            done.countDown();
                        });
                    }
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "long-jobs");
            spinner.start();
            Thread[] senders = new Thread[4];
            for (int s = 0; s < senders.length; s++) {
                List<SocketChannel> mine = clients.subList(s * connections / 4, (s + 1) * connections / 4);
                senders[s] = new Thread(() -> {
                    ByteBuffer out = ByteBuffer.allocate(1);
                    ByteBuffer in = ByteBuffer.allocate(2);
                    try {
                        for (int r = 0; r < rounds; r++) {
                            for (SocketChannel c : mine) {
                                byte b = (byte) r;
                                out.clear();
                                out.put(b).flip();
                                c.write(out);
                                in.clear();
                                while (in.position() == 0) {
                                    c.read(in);
                                }
                                if (in.position() != 1 || in.get(0) != b) {
                                    throw new AssertionError("echo of " + b + " came back as " + in.position()
                                            + " bytes starting with " + in.get(0));
                                }
                            }
                        }
                    } catch (IOException | AssertionError e) {
                        errors.add(e);
                    }
                }, "sender-" + s);
                senders[s].start();
            }
            for (Thread t : senders) {
                t.join();
            }
            stop.set(true);
            spinner.join();
            for (SocketChannel c : clients) {
                c.close();
            }
            io = (SelectorIo) pool.registry().io;
            closed = pool;
        }
        // Read after close: the workers have ended, so every count is final.
        lent = io.reactor(0).lent + io.reactor(1).lent;
        assertEquals(lent, closed.statistics().count(PoolCounter.IO_TAKEOVERS),
                "every takeover that moved waits is counted once, on the worker that took over");
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertEquals((long) connections * rounds, echoed.get());
        assertTrue(lent > 0, "no neighbour took a selector over: the test did not exercise takeover");
    }

    /** One connection's server side: read what came, write it back, wait again. */
    private static final class Echo implements ReadinessListener {
        private final ForagePool pool;
        private final SocketChannel channel;
        private final AtomicLong echoed;
        private final ConcurrentLinkedQueue<Throwable> errors;
        private final ByteBuffer buf = ByteBuffer.allocate(64);

        Echo(ForagePool pool, SocketChannel channel, AtomicLong echoed, ConcurrentLinkedQueue<Throwable> errors) {
            this.pool = pool;
            this.channel = channel;
            this.echoed = echoed;
            this.errors = errors;
        }

        void await() {
            pool.awaitReadiness(channel, SelectionKey.OP_READ, this);
        }

        @Override
        public void ready(SelectableChannel ch) {
            try {
                buf.clear();
                int n = channel.read(buf);
                if (n < 0) {
                    channel.close();
                    return;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    channel.write(buf); // one byte at a time in flight: the socket buffer always has room
                }
                echoed.addAndGet(n);
                await();
            } catch (IOException e) {
                errors.add(e);
            }
        }

        @Override
        public void failed(Throwable error) {
            if (!(error instanceof AsynchronousCloseException)) { // the pool closing before the client's close was read
                errors.add(error);
            }
        }
    }
}
