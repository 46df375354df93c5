package dev.forage;

import java.nio.channels.AsynchronousCloseException;

/**
 * An {@link AsynchronousCloseException} (so an {@code IOException}, caught where IO code catches one) that says
 * what was closed: the channel while a wait was pending, or the pool. The JDK's own has no message.
 */
final class IoClosedException extends AsynchronousCloseException {
    private static final long serialVersionUID = 1L;
    private final String message;

    IoClosedException(String message) {
        this.message = message;
    }

    /** {@code w}'s channel was closed while the wait was pending. */
    static IoClosedException channelClosed(IoWait w) {
        return new IoClosedException(w.channel + " was closed while a wait for " + IoWait.opName(w.op)
                + " was pending on it; allowed: waits on open channels");
    }

    /** Pool {@code poolName} shut down while {@code w} was pending, or before it started. */
    static IoClosedException poolShutDown(String poolName, IoWait w) {
        return new IoClosedException("pool " + poolName + " was shut down: its IO workers closed their "
                + "selectors, so the wait for " + IoWait.opName(w.op) + " on " + w.channel + " ended; allowed: "
                + "socket IO on a running pool");
    }

    @Override
    public String getMessage() {
        return message;
    }
}
