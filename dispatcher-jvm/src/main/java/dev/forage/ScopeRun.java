package dev.forage;

/**
 * {@link ForagePool#scope} on a worker of the pool (Rayon's {@code scope}): run the body with a {@link Scope}
 * whose count starts at one (the body's own), then run other jobs until every spawned job and the body are done,
 * taking this scope's own jobs first from above the deque's floor; rethrow the first failure.
 */
final class ScopeRun {
    private ScopeRun() {
    }

    static <T> T onWorker(Worker w, ScopeBody<T> body) {
        SpinLatch done = new SpinLatch(w.registry, w.index);
        CountLatch count = new CountLatch(done);
        Scope scope = new Scope(w.registry, count);
        long floor = w.deque.floorForNewJobs(); // the jobs the body spawns on this deque sit here and above
        T result = null;
        try {
            result = body.run(scope);
        } catch (Throwable t) {
            scope.recordFailure(t);
        }
        count.set(); // the body's own count
        w.waitUntil(done, Worker.NO_DEADLINE, floor);
        Throwable failure = scope.failure();
        if (failure != null) {
            throw Sneaky.rethrow(failure);
        }
        return result;
    }
}
