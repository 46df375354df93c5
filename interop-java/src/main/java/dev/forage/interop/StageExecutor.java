package dev.forage.interop;

import dev.forage.ForagePool;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The pool as the executor of a {@link ForageFuture}'s async stages. After shutdown the pool refuses every
 * submission, its own workers' included, so that a task that resubmits itself cannot keep it alive. A stage is
 * different: {@code CompletableFuture} submits it from the thread that completed the stage before it, and when
 * that submission is refused the dependent stage is never completed, so whoever waits for it would wait forever.
 * A stage that a worker of the pool triggers after shutdown therefore runs at once on that worker (the
 * caller-runs policy): it finishes work the pool accepted before it shut down. From any other thread the
 * refusal stands, as for every outside submission.
 */
final class StageExecutor implements Executor {
    final ForagePool pool;

    StageExecutor(ForagePool pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable stage) {
        try {
            pool.execute(stage);
        } catch (RejectedExecutionException e) {
            if (!pool.isCurrentThreadWorker()) {
                throw e;
            }
            stage.run();
        }
    }

    @Override
    public String toString() {
        return pool.toString();
    }
}
