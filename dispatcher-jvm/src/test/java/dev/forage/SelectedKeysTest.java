package dev.forage;

import static dev.forage.SelectorParkerTest.pair;
import static dev.forage.SelectorParkerTest.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two ways a reactor's selects hand over the keys they found ({@link SelectedKeys}): the selector's key set
 * (Java 8, Android) and the key action of Java 11's {@code Selector.select(Consumer, long)}. Both run here, on one
 * JVM; the IO suites run the one this JVM picks.
 */
@Watchdog.Budget(seconds = 60)
class SelectedKeysTest {
    @Test
    void aJava11JvmSelectsWithTheKeyAction() throws Exception {
        try (Selector selector = Selector.open()) {
            assertEquals("dev.forage.ConsumerSelectedKeys", SelectedKeys.of(selector).getClass().getName(),
                    "this JVM runs Java 11 or later and sees the Java 11 classes: the key action, not the set");
        }
    }

    @Test
    void theSetHandsOverEachReadyKeyOnceWithItsOperations() throws Exception {
        eachReadyKeyOnce(false);
    }

    @Test
    void theKeyActionHandsOverEachReadyKeyOnceWithItsOperations() throws Exception {
        eachReadyKeyOnce(true);
    }

    /**
     * Three connections, two made readable (one of them also asked for writes): a blocking select and a look that
     * does not block hand over exactly the ready keys, each once, with the operations that select found, and
     * nothing more until a channel is ready again. More ready keys than the action's first array holds.
     */
    private static void eachReadyKeyOnce(boolean consumerSelect) throws Exception {
        try (Selector selector = Selector.open(); ServerSocketChannel server = server()) {
            SelectedKeys selected = SelectedKeys.of(selector, consumerSelect);
            List<SocketChannel[]> pairs = new ArrayList<>();
            List<SelectionKey> keys = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                SocketChannel[] p = pair(server);
                pairs.add(p);
                keys.add(p[1].register(selector, SelectionKey.OP_READ));
            }
            keys.get(2).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            write(pairs.get(0)[0]);
            write(pairs.get(2)[0]);

            selected.select(10_000); // returns at once: key 2 is writable, and the writes are on their way
            Map<SelectionKey, Integer> found = drain(selected);
            Integer readAndWrite = SelectionKey.OP_READ | SelectionKey.OP_WRITE;
            while (!found.containsKey(keys.get(0)) || !readAndWrite.equals(found.get(keys.get(2)))) {
                selected.select(10_000); // loopback delivered one write after the select began: the next one sees it
                found.putAll(drain(selected));
            }
            assertEquals(SelectionKey.OP_READ, (int) found.get(keys.get(0)), "key 0 was found readable");
            assertTrue(!found.containsKey(keys.get(1)), "key 1 was never ready, so never handed over");

            read(pairs.get(0)[1]);
            read(pairs.get(2)[1]);
            keys.get(2).interestOps(SelectionKey.OP_READ);
            assertEquals(0, selected.selectNow(), "nothing ready any more");
            assertNull(selected.next(), "and nothing handed over");

            // Many ready at once: more than the action's first array of eight.
            List<SelectionKey> many = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                SocketChannel[] p = pair(server);
                pairs.add(p);
                many.add(p[1].register(selector, SelectionKey.OP_WRITE));
            }
            assertEquals(20, selected.selectNow(), "20 writable connections");
            Map<SelectionKey, Integer> all = drain(selected);
            assertEquals(20, all.size(), "each handed over once");
            for (SelectionKey k : many) {
                assertEquals(SelectionKey.OP_WRITE, (int) all.get(k), "with its operation");
            }
            for (SocketChannel[] p : pairs) {
                p[0].close();
                p[1].close();
            }
        }
    }

    /** The keys {@code selected} hands over until its first null, with their ready operations; no key twice. */
    private static Map<SelectionKey, Integer> drain(SelectedKeys selected) {
        Map<SelectionKey, Integer> found = new HashMap<>();
        SelectionKey key;
        while ((key = selected.next()) != null) {
            Integer previous = found.put(key, key.readyOps());
            assertNull(previous, "a key handed over twice after one select: " + key);
        }
        return found;
    }

    private static void write(SocketChannel ch) throws Exception {
        ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }

    private static void read(SocketChannel ch) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(16);
        int total = 0;
        while (total < 3) {
            total += Math.max(ch.read(b), 0); // non-blocking: the three bytes are there, or arrive within a moment
        }
    }
}
