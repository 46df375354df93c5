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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    /**
     * An IO worker whose deque runs dry looks at its own selector before it steals from a neighbour's deque: its own
     * channels' work stays with it, where stealing first moved the neighbour's resumed jobs to it and left its own
     * ready channels for later. The owner of a ready channel comes back from a job while its neighbour, busy in
     * another, holds eight jobs on its deque; the channel's listener must run on the owner before any of them.
     */
    @Test
    void aWorkerWhoseDequeRunsDryServesItsOwnReadyChannelBeforeStealing() throws Exception {
        try (ForagePool pool = ForagePool.builder().ioWorkers().threads(2).name("own-first")
                        .blockingDetection(0, TimeUnit.MILLISECONDS).build(); // no stand-in for the blocked jobs
                ServerSocketChannel server = server()) {
            SocketChannel[] p = pair(server);
            AtomicInteger neighbourJobsRun = new AtomicInteger();
            AtomicInteger runBeforeReady = new AtomicInteger(-1);
            AtomicInteger readyOn = new AtomicInteger(-1);
            pool.awaitReadiness(p[1], SelectionKey.OP_READ, new ReadinessListener() {
                @Override
                public void ready(SelectableChannel channel) {
                    runBeforeReady.set(neighbourJobsRun.get());
                    readyOn.set(Worker.current().index);
                }

                @Override
                public void failed(Throwable error) {}
            });
            int[] keys = keysPerWorker(pool, List.of(p[1]));
            int owner = keys[0] == 1 ? 0 : 1;
            int jobs = 8;
            CountDownLatch ownerIn = new CountDownLatch(1);
            CountDownLatch neighbourPushed = new CountDownLatch(1);
            CountDownLatch releaseOwner = new CountDownLatch(1);
            CountDownLatch releaseNeighbour = new CountDownLatch(1);
            CountDownLatch neighbourJobsDone = new CountDownLatch(jobs);
            Runnable blocker = () -> {
                try {
                    if (Worker.current().index == owner) {
                        ownerIn.countDown();
                        releaseOwner.await();
                    } else {
                        ownerIn.await(); // the owner is busy: nobody steals what we push
                        for (int i = 0; i < jobs; i++) {
                            pool.execute(() -> {
                                neighbourJobsRun.incrementAndGet();
                                neighbourJobsDone.countDown();
                            });
                        }
                        neighbourPushed.countDown();
                        releaseNeighbour.await();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            pool.execute(blocker);
            pool.execute(blocker);
            try {
                Watchdog.awaitLatch("the neighbour pushed its jobs while the owner is busy", Duration.ofSeconds(30),
                        neighbourPushed, pool::toString);
                p[0].write(java.nio.ByteBuffer.wrap(new byte[] {1})); // the owner's channel turns ready
                releaseOwner.countDown();
                Watchdog.awaitLatch("the owner ran the neighbour's jobs", Duration.ofSeconds(30), neighbourJobsDone,
                        () -> neighbourJobsRun.get() + " of " + jobs + " run");
                Watchdog.awaitCondition("the channel's listener ran", Duration.ofSeconds(30),
                        () -> readyOn.get() >= 0, () -> "it has not");
            } finally {
                // A failed wait above still lets both blocking jobs end, so that closing the pool does not wait on them.
                releaseOwner.countDown();
                releaseNeighbour.countDown();
            }
            assertEquals(owner, readyOn.get(), "the listener runs on the channel's owner");
            assertEquals(0, runBeforeReady.get(),
                    "the owner served its own ready channel before it took any of its neighbour's jobs");
            p[0].close();
            p[1].close();
        }
    }
}
