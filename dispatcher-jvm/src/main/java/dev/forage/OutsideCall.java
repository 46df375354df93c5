package dev.forage;

/**
 * The computation that carries a structured call ({@code install}, {@code join}, {@code scope}) from a thread that
 * is not one of the pool's workers onto one: {@link Registry#inWorker} hands it to the runner, which queues it in a {@link StackJob}. It
 * remembers the user's object for diagnostics ({@link TaskWrapper}).
 */
final class OutsideCall<T> implements Computation<T>, TaskWrapper {
    private final Runner.WorkerOp<T> op;
    private final Object task;
    /** The worker to run {@link #op} as, or null for the worker that runs this computation. */
    private final Worker worker;

    OutsideCall(Runner.WorkerOp<T> op, Object task, Worker worker) {
        this.op = op;
        this.task = task;
        this.worker = worker;
    }

    @Override
    public T compute() {
        return op.run(worker != null ? worker : Worker.current());
    }

    @Override
    public Object wrappedTask() {
        return task;
    }

    @Override
    public String toString() {
        return "OutsideCall[" + task + "]";
    }
}
