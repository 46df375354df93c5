package dev.forage;

import java.nio.channels.SelectableChannel;

/**
 * Told once when a channel that waits through {@link ForagePool#awaitReadiness} is ready, or why the wait ended
 * without readiness. Exactly one of the two methods runs, once, unless the wait is {@linkplain IoWait#cancel()
 * cancelled} first (then neither runs).
 *
 * <p>Both run on the worker that owns the channel, inline in its loop: keep them short and non-blocking (resume a
 * coroutine, complete a future, submit a job). A job that they submit with {@link ForagePool#execute} goes to that
 * worker's own deque, so the worker that saw the readiness runs the follow-up, with no hand-off to another thread.
 *
 * <pre>{@code
 * pool.awaitReadiness(channel, SelectionKey.OP_READ, new ReadinessListener() {
 *     public void ready(SelectableChannel ch) { pool.execute(() -> readSome(ch)); }
 *     public void failed(Throwable error) { log.warn("read wait failed", error); }
 * });
 * }</pre>
 */
public interface ReadinessListener {
    /** The channel is ready for the operation waited for. The wait is over; wait again for more. */
    void ready(SelectableChannel channel);

    /**
     * The wait ended without readiness: the channel was closed (an {@link java.nio.channels.ClosedChannelException},
     * {@link java.nio.channels.AsynchronousCloseException} while waiting), the pool shut down (an
     * {@link java.nio.channels.AsynchronousCloseException} whose message names the pool), or the channel could not
     * be registered (an {@link IllegalStateException} or {@link IllegalArgumentException} saying why).
     */
    void failed(Throwable error);
}
