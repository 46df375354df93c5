package dev.forage;

import static dev.forage.SelectorParkerTest.ioPool;
import static dev.forage.SelectorParkerTest.pair;
import static dev.forage.SelectorParkerTest.server;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which IO worker owns a new channel ({@code docs/io.md}, "Ownership"): a channel's first wait deals it to the IO
 * workers in turn, as Netty's event loop group deals its loops to accepted channels, whoever waits first. Keeping a
 * new channel with the calling worker put every connection of a one-acceptor server on that worker; requests that
 * arrived together then woke the other worker to steal them.
 */
@Watchdog.Budget(seconds = 60)
class IoOwnershipTest {
    private static final ReadinessListener NOTHING = new ReadinessListener() {
        @Override
        public void ready(SelectableChannel channel) {}

        @Override
        public void failed(Throwable error) {}
    };

    /** How many of {@code channels} each of the pool's reactors holds a key for, once all are registered. */
    private static int[] keysPerWorker(ForagePool pool, List<SocketChannel> channels) {
        SelectorIo io = (SelectorIo) pool.registry().io;
        int workers = pool.parallelism();
        int[][] counts = new int[1][];
        Watchdog.awaitCondition("every channel registered with one reactor", Duration.ofSeconds(30), () -> {
            int[] c = new int[workers];
            int registered = 0;
            for (SocketChannel ch : channels) {
                for (int i = 0; i < workers; i++) {
                    if (ch.keyFor(io.reactor(i).selector) != null) {
                        c[i]++;
                        registered++;
                    }
                }
            }
            counts[0] = c;
            return registered == channels.size();
        }, () -> "keys per worker so far " + Arrays.toString(counts[0]));
        return counts[0];
    }

    @Test
    void channelsFirstWaitedOnByOneWorkerAreDealtToTheIoWorkersInTurn() throws Exception {
        try (ForagePool pool = ioPool("dealt-inside", 2); ServerSocketChannel server = server()) {
            List<SocketChannel[]> pairs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                pairs.add(pair(server));
            }
            List<SocketChannel> accepted = new ArrayList<>();
            // One job waits on all four, as one accepting coroutine would for the connections it accepts.
            pool.install(() -> {
                for (SocketChannel[] p : pairs) {
                    pool.awaitReadiness(p[1], SelectionKey.OP_READ, NOTHING);
                    accepted.add(p[1]);
                }
                return null;
            });
            assertArrayEquals(new int[] {2, 2}, keysPerWorker(pool, accepted),
                    "four channels first waited on by one worker: two per IO worker");
            for (SocketChannel[] p : pairs) {
                p[0].close();
                p[1].close();
            }
        }
    }

    @Test
    void channelsFirstWaitedOnFromOutsideThePoolAreDealtInTurnToo() throws Exception {
        try (ForagePool pool = ioPool("dealt-outside", 2); ServerSocketChannel server = server()) {
            List<SocketChannel[]> pairs = new ArrayList<>();
            List<SocketChannel> accepted = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                SocketChannel[] p = pair(server);
                pairs.add(p);
                pool.awaitReadiness(p[1], SelectionKey.OP_READ, NOTHING);
                accepted.add(p[1]);
            }
            int[] perWorker = keysPerWorker(pool, accepted);
            assertEquals(6, perWorker[0] + perWorker[1]);
            assertArrayEquals(new int[] {3, 3}, perWorker, "six channels from outside: three per IO worker");
            for (SocketChannel[] p : pairs) {
                p[0].close();
                p[1].close();
            }
        }
    }
}
