package dev.forage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;

/**
 * For the selector takeover's tests: two IO workers' reactors that share one {@link IoTakeover} (1 ms delay), and
 * a pipe whose source a wait on reactor A watches. A fresh instance per sample.
 */
final class TwoReactors {
    private static final long CLOSED_CHECK = Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS);

    final IoReactor a = new IoReactor("stress", 0, CLOSED_CHECK, null);
    final IoReactor b = new IoReactor("stress", 1, CLOSED_CHECK, null);
    final Pipe pipe;

    /** {@code readable}: a byte is in the pipe already, so A's wait on its source is ready from the start. */
    TwoReactors(boolean readable) {
        IoTakeover takeover = new IoTakeover(new IoReactor[] {a, b}, 1L);
        a.takeover = takeover;
        b.takeover = takeover;
        try {
            pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            if (readable) {
                pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A wait for the pipe's source to turn readable, owned by A; not submitted yet. */
    IoWait waitOnA(ReadinessListener listener) {
        return new IoWait(a, pipe.source(), SelectionKey.OP_READ, listener);
    }

    /** Closes both selectors and the pipe (the arbiter, after both actors). */
    void close() {
        a.closeSelector();
        b.closeSelector();
        try {
            pipe.source().close();
            pipe.sink().close();
        } catch (IOException ignored) {
            // released with the pipe's descriptors
        }
    }
}
