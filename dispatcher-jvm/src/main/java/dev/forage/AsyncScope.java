package dev.forage;

/**
 * One {@link ForagePool#scopeAsync} call: the body's count and every spawned job's count sit on a
 * {@link CountLatch} whose inner latch is this object, so the last job to finish calls the listener. Nobody waits
 * on this latch, so {@link #probe()} only serves the latch contract.
 */
final class AsyncScope<T> extends Scope.Member implements Latch, TaskWrapper {
    private final ScopeBody<T> body;
    private final ScopeListener<? super T> listener;
    private volatile boolean ended;
    /** Written by the body before its count is released; read after the last release. */
    private T result;

    AsyncScope(Registry registry, ScopeBody<T> body, ScopeListener<? super T> listener) {
        // The scope's count latch starts at one, the body's own count; its inner latch is this object.
        super(new Scope(registry, null));
        this.body = body;
        this.listener = listener;
        scope.bindLatch(new CountLatch(this));
    }

    /** Runs the body; {@link Scope.Member#run()} then releases its count. */
    @Override
    void body() {
        result = body.run(scope);
    }

    @Override
    public Object wrappedTask() {
        return body;
    }

    /** The last count was released: the scope has ended. The listener is called once, even on a retry. */
    @Override
    public void set() {
        if (ended) {
            return;
        }
        ended = true;
        listener.scopeEnded(result, scope.failure());
    }

    @Override
    public void setAndWake() {
        set(); // nobody sleeps on this latch: the listener is the wake-up
    }

    @Override
    public boolean probe() {
        return ended;
    }
}
