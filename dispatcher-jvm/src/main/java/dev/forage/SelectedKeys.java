package dev.forage;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Iterator;
import java.util.Set;

/**
 * How a reactor's selects hand it the keys they found ({@code docs/io.md}, "The selected keys"). One per
 * {@link IoReactor}, used by whichever thread drives it.
 *
 * <p>Java 8 and Android: the selector's selected-key set, a {@code HashSet} that each select adds the ready keys to
 * and the reactor then iterates and empties: per ready key a hash, an insert, an iterator step and a removal. On a
 * server at a low rate, with one key per select, that was about 2 % of an IO worker's samples in a profile of the
 * HTTP sample. Java 11 and later: {@code Selector.select(Consumer, long)}, which passes each ready key to an action
 * and leaves the set alone; the action appends the key to an array ({@code ConsumerSelectedKeys}). Netty's NIO
 * transport gets the same by swapping the set's fields for an array by reflection; the JDK's own API needs none.
 *
 * <p>Loading rule, as for {@link PoolEvents}: {@code ConsumerSelectedKeys} is compiled for Java 11 from its own source
 * folder and packed under the jar's {@code META-INF/versions/11}, so a Java 8 JVM or Android never sees it. It is
 * loaded by name, once; if that fails, every reactor uses the set.
 */
abstract class SelectedKeys {
    /** {@code ConsumerSelectedKeys}' constructor, or null on a JVM without it: looked up once. */
    private static final Constructor<?> WITH_ACTION = withAction();

    final Selector selector;

    SelectedKeys(Selector selector) {
        this.selector = selector;
    }

    private static Constructor<?> withAction() {
        try {
            return Class.forName("dev.forage.ConsumerSelectedKeys", true, SelectedKeys.class.getClassLoader())
                    .getDeclaredConstructor(Selector.class);
        } catch (Throwable notHere) {
            // Java 8 or Android: not in the jar's root. From a plain class folder on Java 8:
            // UnsupportedClassVersionError. Either way the set does the same job.
            return null;
        }
    }

    /** The keys of {@code selector}'s selects: through the action on Java 11 and later, else through the set. */
    static SelectedKeys of(Selector selector) {
        return of(selector, WITH_ACTION != null);
    }

    /** {@link #of(Selector)} with the choice made by the caller: the tests run both kinds on one JVM. */
    static SelectedKeys of(Selector selector, boolean withAction) {
        if (!withAction) {
            return new FromSet(selector);
        }
        if (WITH_ACTION == null) {
            throw new IllegalStateException("the selected keys through an action need Java 11 or later and the "
                    + "jar's META-INF/versions/11; this JVM has only the selector's set");
        }
        try {
            return (SelectedKeys) WITH_ACTION.newInstance(selector);
        } catch (ReflectiveOperationException e) { // its constructor only stores the selector
            throw new IllegalStateException("cannot make the Java 11 selected keys", e);
        }
    }

    /** Blocks in a select for up to {@code millis} (positive); the keys it found are then {@link #next()}'s. */
    abstract void select(long millis) throws IOException;

    /** A select that does not block; returns how many keys it found, which are then {@link #next()}'s. */
    abstract int selectNow() throws IOException;

    /**
     * The next key that the selects since the last {@code null} found ready, each once; {@code null} when all were
     * returned. Its {@code readyOps} are those the select found.
     */
    abstract SelectionKey next();

    /** Java 8 and Android: the selector's selected-key set, emptied as it is read. */
    private static final class FromSet extends SelectedKeys {
        private final Set<SelectionKey> set;
        private Iterator<SelectionKey> reading;

        FromSet(Selector selector) {
            super(selector);
            this.set = selector.selectedKeys();
        }

        @Override
        void select(long millis) throws IOException {
            selector.select(millis);
        }

        @Override
        int selectNow() throws IOException {
            return selector.selectNow();
        }

        @Override
        SelectionKey next() {
            if (reading == null) {
                if (set.isEmpty()) {
                    return null; // the usual case of a look that found nothing: no iterator made
                }
                reading = set.iterator();
            }
            if (!reading.hasNext()) {
                reading = null;
                return null;
            }
            SelectionKey key = reading.next();
            reading.remove();
            return key;
        }
    }
}
