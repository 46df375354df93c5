package dev.forage;

import static dev.forage.SelectorParkerTest.pair;
import static dev.forage.SelectorParkerTest.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A wait handed over to an owner that blocks in its select ({@code docs/io.md} section 3.1, H1..H3): it wakes the
 * owner only when the select does not already watch the wait's operation on that channel, and a wait that woke
 * nobody is still told, failed when its channel closes, and failed at shutdown.
 *
 * <p>One IO worker, so the owner is worker 0 and nothing but the test ends its select: no neighbour watches (takeover
 * needs two), and no timer is scheduled. The waits come from the test thread, outside the pool, which never gets the
 * owner's drive while the owner selects: they are handed over.
 */
@Watchdog.Budget(seconds = 60)
class IoHandOverTest {
    private static final long TIMEOUT_SECONDS = 20;

    /** The first wait's listener: reads what made the channel ready, so that the key's interest is left idle. */
    static final class Draining implements ReadinessListener {
        final CompletableFuture<String> readyOn = new CompletableFuture<>();

        @Override
        public void ready(SelectableChannel channel) {
            try {
                ((SocketChannel) channel).read(ByteBuffer.allocate(16));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            readyOn.complete(Thread.currentThread().getName());
        }

        @Override
        public void failed(Throwable error) {
            readyOn.completeExceptionally(error);
        }
    }

    private static ForagePool onePool(String name, long closedCheckMillis) {
        return ForagePool.builder().ioWorkers().threads(1).name(name)
                .tune(Tunable.IO_CLOSED_CHECK_MILLIS, closedCheckMillis).build();
    }

    private static IoReactor owner(ForagePool pool) {
        return ((SelectorIo) pool.registry().io).reactor(0);
    }

    /**
     * Registers {@code p[1]} for reading on the one worker, makes it ready once and lets the listener read the byte:
     * the key keeps its interest in OP_READ with no wait pending (R2). Returns once the owner blocks in its select.
     */
    private static void leaveInterestHeld(ForagePool pool, SocketChannel[] p) throws Exception {
        Draining first = new Draining();
        pool.awaitReadiness(p[1], SelectionKey.OP_READ, first);
        p[0].write(ByteBuffer.wrap(new byte[] {1}));
        first.readyOn.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        IoReactor owner = owner(pool);
        SelectionKey key = p[1].keyFor(owner.selector);
        Watchdog.awaitCondition("the owner selects with OP_READ held on the channel's key", Duration.ofSeconds(30),
                () -> owner.parker().isSelecting() && ((IoChannel) key.attachment()).holds(SelectionKey.OP_READ)
                        && !owner.parker().hasPermit(),
                () -> "selecting " + owner.parker().isSelecting() + ", interest " + key.interestOps());
    }

    @Test
    void aWaitHandedOverForAnInterestTheSelectHoldsWakesNobodyAndIsToldOnReadiness() throws Exception {
        try (ForagePool pool = onePool("held", 60_000); ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            leaveInterestHeld(pool, p);
            IoReactor owner = owner(pool);
            SelectorParkerTest.Outcome second = new SelectorParkerTest.Outcome();
            IoWait wait = pool.awaitReadiness(p[1], SelectionKey.OP_READ, second); // H1..H3
            // The submitter's unpark would have set the permit on its own thread, before awaitReadiness returned.
            assertFalse(owner.parker().hasPermit(), "the hand-over woke an owner whose select watched the channel");
            assertTrue(owner.parker().isSelecting(), "the owner left its select without readiness");
            assertTrue(wait.isPending());
            p[0].write(ByteBuffer.wrap(new byte[] {2})); // ends the select; P4' applies the wait, R2 fires it
            assertEquals("held-worker-0", second.readyOn.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            p[0].close();
            p[1].close();
        }
    }

    @Test
    void aWaitHandedOverForAnInterestTheSelectLacksWakesTheOwner() throws Exception {
        // The key holds OP_READ only; a wait for OP_WRITE must wake the owner, which sets the interest. A socket
        // with room in its send buffer is writable at once, so the listener runs as soon as the owner applies the
        // wait; without the wake-up the owner would sleep out the 60 s bound and the get below would time out.
        try (ForagePool pool = onePool("lacking", 60_000); ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            leaveInterestHeld(pool, p);
            SelectorParkerTest.Outcome writable = new SelectorParkerTest.Outcome();
            pool.awaitReadiness(p[1], SelectionKey.OP_WRITE, writable);
            assertEquals("lacking-worker-0", writable.readyOn.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            p[0].close();
            p[1].close();
        }
    }

    @Test
    void aWaitThatWokeNobodyFailsWhenItsChannelIsClosed() throws Exception {
        // Closing a channel wakes no selector. The owner's select stays bounded by the closed-channel check (100 ms
        // here) while a key holds interest, so the handed-over wait is applied and failed within about two checks;
        // with a select left unbounded because no wait was pending, it would wait for ever.
        try (ForagePool pool = onePool("closed", 100); ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            leaveInterestHeld(pool, p);
            SelectorParkerTest.Outcome second = new SelectorParkerTest.Outcome();
            pool.awaitReadiness(p[1], SelectionKey.OP_READ, second);
            p[1].close();
            Throwable error = second.failure.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertInstanceOf(AsynchronousCloseException.class, error);
            assertTrue(error.getMessage().contains("was closed while a wait for OP_READ was pending"), error::getMessage);
            assertFalse(second.readyOn.isDone());
            p[0].close();
        }
    }

    @Test
    void shutdownFailsAWaitThatWokeNobody() throws Exception {
        SelectorParkerTest.Outcome second = new SelectorParkerTest.Outcome();
        ServerSocketChannel server = server();
        SocketChannel[] p = pair(server);
        try (ForagePool pool = onePool("shutdown", 60_000)) {
            leaveInterestHeld(pool, p);
            pool.awaitReadiness(p[1], SelectionKey.OP_READ, second);
            assertFalse(owner(pool).parker().hasPermit());
        }
        Throwable error = second.failure.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertInstanceOf(AsynchronousCloseException.class, error);
        assertTrue(error.getMessage().contains("shutdown"), error::getMessage);
        assertFalse(second.readyOn.isDone());
        p[0].close();
        p[1].close();
        server.close();
    }
}
