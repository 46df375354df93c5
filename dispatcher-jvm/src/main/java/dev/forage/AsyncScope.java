package dev.forage;

/**
 * One {@link ForagePool#scopeAsync} call: the body's count and every spawned job's count sit on a
 * {@link CountLatch} whose inner latch is this object, so the last job to finish calls the listener. Nobody waits
 * on this latch, so {@link #probe()} only serves the latch contract.
 */
final class AsyncScope<T> implements Latch, Runnable {
    private final ScopeBody<T> body;
    private final ScopeListener<? super T> listener;
    private final CountLatch count = new CountLatch(this); // starts at one: the body's own count
    private final Scope scope;
    private volatile boolean ended;
    /** Written by the body before its count is released; read after the last release. */
    private T result;

    AsyncScope(Registry registry, ScopeBody<T> body, ScopeListener<? super T> listener) {
        this.body = body;
        this.listener = listener;
        this.scope = new Scope(registry, count);
    }

    /** Runs the body, then releases its count. */
    @Override
    public void run() {
        try {
            result = body.run(scope);
        } catch (Throwable t) {
            scope.recordFailure(t);
        }
        count.set();
    }

    /** The last count was released: the scope has ended. */
    @Override
    public void set() {
        ended = true;
        listener.scopeEnded(result, scope.failure());
    }

    @Override
    public boolean probe() {
        return ended;
    }
}
