package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The selector parker's permit, and the reactors' IO waits on a pool with IO workers: ownership, cancel, close,
 * shutdown.
 */
@Watchdog.Budget(seconds = 60)
class SelectorParkerTest {
    /** Records how a wait ended. */
    static final class Outcome implements ReadinessListener {
        final CompletableFuture<String> readyOn = new CompletableFuture<>();
        final CompletableFuture<Throwable> failure = new CompletableFuture<>();

        @Override
        public void ready(SelectableChannel channel) {
            readyOn.complete(Thread.currentThread().getName());
        }

        @Override
        public void failed(Throwable error) {
            failure.complete(error);
        }
    }

    /** A connected pair: a blocking client and the accepted side in non-blocking mode. */
    static SocketChannel[] pair(ServerSocketChannel server) throws Exception {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        SocketChannel accepted = null;
        while (accepted == null) {
            accepted = server.accept(); // queued already: returns at once
        }
        accepted.configureBlocking(false);
        return new SocketChannel[] {client, accepted};
    }

    /** Whether {@code probe} selects a key now. */
    static boolean readable(Selector probe) {
        try {
            return probe.selectNow() > 0;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static ServerSocketChannel server() throws Exception {
        return ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
    }

    static ForagePool ioPool(String name, int threads) {
        return ForagePool.builder().ioWorkers().threads(threads).name(name).build();
    }

    @Test
    void aSelectIsBoundedByTheClosedChannelCheckOnlyWhileChannelsWait() {
        long bound = 100;
        assertEquals(IoReactor.NO_LIMIT_MILLIS, IoReactor.boundWhileWaiting(IoReactor.NO_LIMIT_MILLIS, 0, bound));
        assertEquals(bound, IoReactor.boundWhileWaiting(IoReactor.NO_LIMIT_MILLIS, 1, bound));
        assertEquals(bound, IoReactor.boundWhileWaiting(IoReactor.NO_LIMIT_MILLIS, Integer.MAX_VALUE, bound));
        assertEquals(7, IoReactor.boundWhileWaiting(7, 3, bound), "a nearer deadline stays");
        assertEquals(7, IoReactor.boundWhileWaiting(7, 0, bound));
        assertEquals(bound, IoReactor.boundWhileWaiting(bound, 2, bound));
        assertEquals(bound, IoReactor.boundWhileWaiting(bound + 1, 2, bound));
        assertEquals(bound + 1, IoReactor.boundWhileWaiting(bound + 1, 0, bound));
    }

    @Test
    void anUnparkBeforeTheParkIsAPermitThatEndsASelectAtOnce() throws Exception {
        // Without the permit this select would block forever and the watchdog would fail the test.
        try (ForagePool pool = ioPool("permit", 1)) {
            IoReactor reactor = new IoReactor(pool.name(), 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
            SelectorParker parker = reactor.parker();
            parker.bindCurrentThread();
            parker.unpark();
            parker.park(Parker.FOREVER);
            parker.unpark();
            parker.park(TimeUnit.HOURS.toNanos(1));
            reactor.close();
            parker.unpark(); // closed: the owner parks in LockSupport, and the permit still holds
            parker.park(Parker.FOREVER);
        }
    }

    /**
     * A park shorter than a select's millisecond (the nap, the lone-job pause) parks in {@code LockSupport}, where
     * readiness cannot end it; it first looks at the selector, so readiness already there ends the park before it
     * starts. Without the look the park waits out its time and collects nothing: a worker that naps again and again
     * beside a neighbour's chain of jobs never selects, and its channels wait milliseconds.
     */
    @Test
    void aParkTooShortForASelectFirstLooksAndEndsOnReadinessAlreadyThere() throws Exception {
        try (ForagePool pool = ioPool("short-park", 1); ServerSocketChannel server = server();
                Selector probe = Selector.open()) {
            IoReactor reactor = new IoReactor(pool.name(), 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
            SelectorParker parker = reactor.parker();
            parker.bindCurrentThread();
            SocketChannel[] p = pair(server);
            Outcome outcome = new Outcome();
            reactor.submit(new IoWait(reactor, p[1], SelectionKey.OP_READ, outcome));
            parker.park(TimeUnit.MICROSECONDS.toNanos(100));
            assertFalse(parker.eventsFound(), "nothing to read yet: the park found nothing");

            p[0].write(ByteBuffer.wrap(new byte[] {1}));
            p[1].register(probe, SelectionKey.OP_READ); // a second selector, to know the byte has arrived
            Watchdog.awaitCondition("the byte reaches the accepted side", Duration.ofSeconds(30),
                    () -> readable(probe), () -> "not readable");
            parker.park(TimeUnit.MICROSECONDS.toNanos(100));
            assertTrue(parker.eventsFound(), "the short park looked at the selector and found the readiness");
            reactor.runReady();
            assertEquals(Thread.currentThread().getName(), outcome.readyOn.getNow(null), "told on the owner");
            p[0].close();
            p[1].close();
            reactor.close();
        }
    }

    @Test
    void anUnparkReachesAThreadBlockedInSelect() throws Exception {
        try (ForagePool pool = ioPool("reach", 1)) {
            IoReactor reactor = new IoReactor(pool.name(), 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
            SelectorParker parker = reactor.parker();
            AtomicBoolean stop = new AtomicBoolean();
            Thread sleeper = new Thread(() -> {
                parker.bindCurrentThread();
                while (!stop.get()) {
                    parker.park(Parker.FOREVER); // in a loop, as every caller parks
                }
                reactor.closeSelector();
            });
            sleeper.start();
            stop.set(true);
            parker.unpark();
            sleeper.join();
        }
    }

    @Test
    void readinessIsToldOnTheWorkerThatOwnsTheChannel() throws Exception {
        // Takeover off: with it, a neighbour tells the readiness when the owner is descheduled for a millisecond.
        try (ForagePool pool = ForagePool.builder().ioWorkers().threads(2).name("owner")
                .tune(Tunable.IO_TAKEOVER_MILLIS, 0).build(); ServerSocketChannel server = server()) {
            SelectorIo io = (SelectorIo) pool.registry().io;
            for (int round = 0; round < 2; round++) { // channels are dealt in turn: one to each worker
                SocketChannel[] p = pair(server);
                Outcome outcome = new Outcome();
                pool.install(() -> pool.awaitReadiness(p[1], SelectionKey.OP_READ, outcome));
                p[0].write(ByteBuffer.wrap(new byte[] {1}));
                String toldOn = outcome.readyOn.get();
                int owner = p[1].keyFor(io.reactor(0).selector) != null ? 0 : 1;
                assertEquals("owner-worker-" + owner, toldOn);
                p[0].close();
                p[1].close();
            }
        }
    }

    @Test
    void aCancelledWaitLeavesNoInterestAndAClosedChannelLeavesNoKey() throws Exception {
        try (ForagePool pool = ioPool("cancel", 1); ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            Outcome outcome = new Outcome();
            IoWait wait = pool.awaitReadiness(p[1], SelectionKey.OP_READ, outcome); // from outside: handed over
            IoReactor owner = ((SelectorIo) pool.registry().io).reactor(0);
            Watchdog.awaitCondition("the owner applied the wait", Duration.ofSeconds(30),
                    () -> pool.install(() -> owner.waitingChannels() == 1), () -> "");
            assertTrue(wait.cancel());
            assertFalse(wait.cancel());
            Watchdog.awaitCondition("the owner withdrew the interest", Duration.ofSeconds(30),
                    () -> pool.install(() -> owner.waitingChannels() == 0
                            && p[1].keyFor(owner.selector).interestOps() == 0), () -> "");
            p[0].write(ByteBuffer.wrap(new byte[] {1})); // readiness now must not reach the cancelled listener
            pool.install(() -> {
                owner.poll();
                return null;
            });
            assertFalse(outcome.readyOn.isDone());
            assertFalse(outcome.failure.isDone());
            p[1].close();
            Watchdog.awaitCondition("the closed channel's key left the selector", Duration.ofSeconds(30),
                    () -> pool.install(() -> {
                        owner.poll(); // a select deregisters the cancelled key
                        return owner.selector.keys().isEmpty();
                    }), () -> "");
            p[0].close();
        }
    }

    @Test
    void closingAChannelFailsItsPendingWaitWithAClearException() throws Exception {
        try (ForagePool pool = ioPool("close-channel", 1); ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            Outcome outcome = new Outcome();
            pool.install(() -> pool.awaitReadiness(p[1], SelectionKey.OP_READ, outcome));
            p[1].close();
            Throwable error = outcome.failure.get();
            assertInstanceOf(AsynchronousCloseException.class, error);
            assertTrue(error.getMessage().contains("was closed while a wait for OP_READ was pending"), error::getMessage);
            p[0].close();
        }
    }

    @Test
    void shutdownFailsPendingWaitsClosesTheSelectorsAndRunsEveryQueuedJob() throws Exception {
        ForagePool pool = ioPool("shut", 2);
        try (ServerSocketChannel server = server()) {
            server.configureBlocking(false);
            Outcome outcome = new Outcome();
            AtomicInteger ran = new AtomicInteger();
            pool.install(() -> pool.awaitReadiness(server, SelectionKey.OP_ACCEPT, new ReadinessListener() {
                @Override
                public void ready(SelectableChannel channel) {
                    outcome.ready(channel);
                }

                @Override
                public void failed(Throwable error) {
                    pool.execute(ran::incrementAndGet); // a follow-up queued by the failure must still run
                    outcome.failed(error);
                }
            }));
            for (int i = 0; i < 1000; i++) {
                pool.execute(ran::incrementAndGet);
            }
            pool.close();
            Throwable error = outcome.failure.get();
            assertInstanceOf(AsynchronousCloseException.class, error);
            assertTrue(error.getMessage().contains("pool shut was shut down"), error::getMessage);
            assertEquals(1001, ran.get());
            Registry registry = pool.registry();
            SelectorIo io = (SelectorIo) registry.io;
            for (int i = 0; i < registry.coreWorkers; i++) {
                assertFalse(io.reactor(i).selector.isOpen());
            }
            for (int i = registry.coreWorkers; i < registry.workers.length; i++) {
                assertNull(io.reactor(i), "stand-ins for blocked workers have no selector");
            }
            Outcome late = new Outcome();
            pool.awaitReadiness(server, SelectionKey.OP_ACCEPT, late);
            assertTrue(late.failure.get().getMessage().contains("was shut down"));
        }
    }

    @Test
    void aStandInForABlockedIoWorkerRunsItsJobsAndHandsIoWaitsToTheCoreWorkers() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).ioWorkers().name("io-blocking").build();
                ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            server.configureBlocking(false);
            Outcome outcome = new Outcome();
            CompletableFuture<String> submittedOn = new CompletableFuture<>();
            CompletableFuture<Boolean> blocked = new CompletableFuture<>();
            pool.execute(() -> {
                // On the worker's own deque: only the stand-in can run it while the worker blocks below.
                pool.execute(() -> {
                    pool.awaitReadiness(server, SelectionKey.OP_ACCEPT, outcome);
                    submittedOn.complete(Thread.currentThread().getName());
                });
                try {
                    blocked.complete(ForagePool.managedBlock(
                            () -> submittedOn.get(Watchdog.DEFAULT_BUDGET_SECONDS, TimeUnit.SECONDS) != null));
                } catch (Exception e) {
                    blocked.completeExceptionally(e);
                }
            });
            assertTrue(blocked.get(Watchdog.DEFAULT_BUDGET_SECONDS, TimeUnit.SECONDS));
            assertTrue(submittedOn.get().startsWith("io-blocking-blocking-"), submittedOn::join);
            // The wait belongs to the core worker's selector, which sees the connection once the worker is back.
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
                String readyOn = outcome.readyOn.get(Watchdog.DEFAULT_BUDGET_SECONDS, TimeUnit.SECONDS);
                assertEquals("io-blocking-worker-0", readyOn);
                assertTrue(client.isConnected());
            }
        }
    }

    @Test
    void badInputIsRefusedWithWhatIsAllowed() throws Exception {
        try (ForagePool plain = ForagePool.builder().threads(1).name("plain").build();
                ForagePool io = ioPool("bad", 1);
                ServerSocketChannel server = server()) {
            Outcome outcome = new Outcome();
            IllegalStateException noIo = assertThrows(IllegalStateException.class,
                    () -> plain.awaitReadiness(server, SelectionKey.OP_ACCEPT, outcome));
            assertTrue(noIo.getMessage().contains("ioWorkers()"), noIo::getMessage);
            IllegalArgumentException blocking = assertThrows(IllegalArgumentException.class,
                    () -> io.awaitReadiness(server, SelectionKey.OP_ACCEPT, outcome));
            assertTrue(blocking.getMessage().contains("configureBlocking(false)"), blocking::getMessage);
            server.configureBlocking(false);
            IllegalArgumentException op = assertThrows(IllegalArgumentException.class,
                    () -> io.awaitReadiness(server, SelectionKey.OP_READ, outcome));
            assertTrue(op.getMessage().contains("OP_ACCEPT"), op::getMessage);
            assertThrows(IllegalArgumentException.class, () -> ForagePool.builder().ioWorkers().singleThreaded()
                    .build());
            IllegalArgumentException protocol = assertThrows(IllegalArgumentException.class,
                    () -> ForagePool.builder().ioWorkers().sleepProtocol(SleepProtocol.EMPER).build());
            assertTrue(protocol.getMessage().contains("SleepProtocol.JEC"), protocol::getMessage);
            server.close();
            IllegalArgumentException closed = assertThrows(IllegalArgumentException.class,
                    () -> io.awaitReadiness(server, SelectionKey.OP_ACCEPT, outcome));
            assertTrue(closed.getMessage().contains("open channels"), closed::getMessage);
        }
    }

    /**
     * A channel closed by another thread after the select picked its key and before this worker collects it: the
     * key is cancelled, so its {@code readyOps()} throws {@link java.nio.channels.CancelledKeyException}. The wait
     * must fail as closed; that exception once ended an IO worker's thread (a hang in {@code SocketEchoStressSpec}).
     */
    @Test
    void aChannelClosedBetweenTheSelectAndTheCollectFailsItsWaitNotTheWorker() throws Exception {
        try (ForagePool pool = ioPool("closed-after-select", 1); ServerSocketChannel server = server()) {
            IoReactor reactor = new IoReactor(pool.name(), 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
            IoWaits waits = new IoWaits(reactor, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS));
            SocketChannel[] p = pair(server);
            IoWait w = new IoWait(reactor, p[1], SelectionKey.OP_READ, new Outcome());
            waits.apply(w);
            p[0].write(ByteBuffer.wrap(new byte[] {1}));
            Watchdog.awaitCondition("the select picks the key of the channel with a byte to read",
                    Duration.ofSeconds(30), () -> reactor.selectNow() > 0, () -> "no key selected");
            p[1].close(); // cancels the selected key, as a close on another thread does
            waits.collectSelected();
            assertTrue(waits.hasReady(), "the wait ended");
            assertInstanceOf(IoClosedException.class, w.error, "it ended as closed");
            p[0].close();
            reactor.close();
        }
    }
}
