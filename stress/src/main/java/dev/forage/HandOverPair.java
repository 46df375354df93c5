package dev.forage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;

/**
 * For the hand-over tests ({@code docs/io.md} section 3.1): one IO worker's reactor whose selector holds a pipe's
 * source (its key registered by a first wait), an owner that parks once for a second, and a submitter that hands a
 * second wait over and then writes into the pipe. A fresh instance per sample.
 */
final class HandOverPair {
    private static final long PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    final IoReactor owner = new IoReactor("stress", 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
    private final Pipe pipe;
    private final IoWait second;
    private volatile boolean told;
    private long parkedNanos = -1;

    /**
     * {@code interestHeld}: the first wait fired and its listener read the byte, so the key keeps OP_READ with no
     * wait pending (R2); otherwise the first wait was cancelled, which withdrew the interest.
     */
    HandOverPair(boolean interestHeld) {
        try {
            pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            IoWait first = new IoWait(owner, pipe.source(), SelectionKey.OP_READ, new ReadinessListener() {
                @Override
                public void ready(SelectableChannel channel) {
                    try {
                        pipe.source().read(ByteBuffer.allocate(8));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void failed(Throwable error) {
                    throw new AssertionError(error);
                }
            });
            owner.submit(first); // nobody drives yet: applied at once (R1)
            if (interestHeld) {
                pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
                owner.poll(); // selectNow, R2 (the interest stays), R3: the listener reads the byte
            } else {
                first.cancel(); // withdrawn under the drive: the key stays, with no interest
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        second = new IoWait(owner, pipe.source(), SelectionKey.OP_READ, new ReadinessListener() {
            @Override
            public void ready(SelectableChannel channel) {
                told = true;
            }

            @Override
            public void failed(Throwable error) {
                throw new AssertionError(error);
            }
        });
    }

    /** The owner's actor: one park of a second (P0..P4, P4'). */
    void ownerParks() {
        owner.parker().bindCurrentThread();
        long start = System.nanoTime();
        owner.parker().park(PARK_NANOS);
        parkedNanos = System.nanoTime() - start;
    }

    /** The submitter's actor: the second wait (applied at once, or handed over: H1..H3), then the readiness. */
    void submitThenWrite() {
        owner.submit(second);
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {2}));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the park ended before its second. */
    boolean parkEndedEarly() {
        return parkedNanos >= 0 && parkedNanos < PARK_NANOS;
    }

    /**
     * The arbiter: the owner's next look (as its worker's awake() after the park), then whether the second wait's
     * listener was told. Closes the selector and the pipe.
     */
    boolean toldAfterNextLook() {
        owner.poll();
        boolean result = told;
        owner.closeSelector();
        try {
            pipe.source().close();
            pipe.sink().close();
        } catch (IOException ignored) {
            // released with the pipe's descriptors
        }
        return result;
    }
}
