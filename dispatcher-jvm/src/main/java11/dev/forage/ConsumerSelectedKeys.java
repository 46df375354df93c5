package dev.forage;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * {@link SelectedKeys} for Java 11 and later: {@code Selector.select(Consumer, long)} passes each ready key to
 * {@link #accept}, which appends it to an array, and the selector's selected-key set is never touched. Compiled for
 * Java 11 from its own source folder and loaded only by {@link SelectedKeys}, by name.
 *
 * <p>The JDK invokes the action at most once per key and select, with the key's ready set already replaced by the
 * operations that select found, which is what the set gives the reactor after it empties it each time.
 */
@Java11Only
final class ConsumerSelectedKeys extends SelectedKeys implements Consumer<SelectionKey> {
    private SelectionKey[] keys = new SelectionKey[8];
    /** Keys found since {@link #next()} last returned null; {@link #read} of them were returned. */
    private int found;
    private int read;

    ConsumerSelectedKeys(Selector selector) {
        super(selector);
    }

    @Override
    void select(long millis) throws IOException {
        selector.select(this, millis);
    }

    @Override
    int selectNow() throws IOException {
        return selector.selectNow(this);
    }

    /** The selector's action, on the thread in the select. */
    @Override
    public void accept(SelectionKey key) {
        if (found == keys.length) {
            keys = Arrays.copyOf(keys, found * 2);
        }
        keys[found++] = key;
    }

    @Override
    SelectionKey next() {
        if (read < found) {
            SelectionKey key = keys[read];
            keys[read++] = null; // a cancelled key's channel is not kept reachable from here
            return key;
        }
        found = 0;
        read = 0;
        return null;
    }
}
