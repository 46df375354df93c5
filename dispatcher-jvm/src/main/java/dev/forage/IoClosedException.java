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

    @Override
    public String getMessage() {
        return message;
    }
}
