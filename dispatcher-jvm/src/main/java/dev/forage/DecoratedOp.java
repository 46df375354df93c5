package dev.forage;

/**
 * A structured call ({@code install}, {@code join}, {@code scope}) made by a thread outside the pool, run on a
 * worker inside the pool's {@link ForageTaskDecorator}: the decorator sees one {@code Runnable}, which runs the
 * whole operation and keeps its result for the worker to return. The decorated runnable runs on the worker that
 * called {@link #run(Worker)}, before it returns (the decorator's contract), so the plain fields need no fence.
 * The operation's exceptions pass through the decorator unchanged.
 */
final class DecoratedOp<T> implements Runner.WorkerOp<T>, Runnable {
    private final Runner.WorkerOp<T> op;
    private final Runnable decorated;
    private Worker worker;
    private T result;
    private boolean ran;

    private DecoratedOp(Runner.WorkerOp<T> op, ForageTaskDecorator decorator, String poolName) {
        this.op = op;
        this.decorated = DecoratedJob.of(decorator, this, poolName);
    }

    /** {@code op} decorated on the calling thread by {@code decorator} (not null: {@link Admission#decorateCall}). */
    static <T> Runner.WorkerOp<T> of(Runner.WorkerOp<T> op, ForageTaskDecorator decorator, String poolName) {
        return new DecoratedOp<>(op, decorator, poolName);
    }

    @Override
    public T run(Worker w) {
        worker = w;
        decorated.run();
        if (!ran) {
            throw new IllegalStateException("the pool's task decorator returned a Runnable that did not run the "
                    + "task it was given; a ForageTaskDecorator must run the task, on the same thread, before it "
                    + "returns");
        }
        return result;
    }

    @Override
    public void run() {
        ran = true;
        result = op.run(worker);
    }
}
