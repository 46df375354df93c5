package dev.forage;

/**
 * How one worker's thread blocks and is woken, apart from the sleep protocol that decides when (Tokio keeps its
 * idle accounting and its parker apart the same way). {@link ThreadParker} parks with {@code LockSupport};
 * {@link SelectorParker}, the parker of IO workers, blocks in a NIO {@code Selector} and is woken by
 * {@code wakeup()}, so that socket readiness and new work wake the same thread ({@code docs/io.md}).
 *
 * <p>The contract is {@code LockSupport}'s permit, which the protocols' proofs rely on ({@code docs/sleep.md},
 * "Blocking and waking"):
 * <ul>
 *   <li>An {@link #unpark()} that comes before a {@link #park} makes that park return at once: a waker that
 *       publishes its decision and then unparks can never be lost, whichever thread runs first.</li>
 *   <li>{@code park} may return early (spuriously, on an interrupt, or for a stale unpark), so every caller parks
 *       in a loop that re-checks its own condition.</li>
 * </ul>
 * One parker per worker. Only the worker's current thread parks; any thread unparks.
 */
interface Parker {
    /** {@link #park}: no deadline. */
    long FOREVER = Long.MAX_VALUE;

    /**
     * Owner: the calling thread is the one a later {@link #unpark()} must reach. Called before the protocol
     * publishes that this worker may block (a single-threaded pool's worker changes threads between waits).
     */
    void bindCurrentThread();

    /** Owner: blocks for at most {@code nanos} ({@link #FOREVER}: no limit), or until unparked or interrupted. */
    void park(long nanos);

    /** Any thread: ends the bound thread's current park, or makes its next one return at once. */
    void unpark();

    /**
     * Owner: whether this worker has something to do although nobody unparked it (an IO worker's parker found
     * socket readiness). The protocol then ends the sleep the way a passed deadline does. {@link ThreadParker}:
     * never.
     */
    boolean eventsFound();
}
