package dev.forage;

/**
 * A submitted task as the pool queues it once its {@link ForageTaskDecorator} wrapped it: it runs the decorated
 * runnable and remembers the task as submitted, which {@link ForagePool#shutdownNow()} hands back (an executor over
 * the pool recognises its own tasks there) and which messages name.
 */
final class DecoratedJob implements Runnable, TaskWrapper {
    final Runnable task;
    private final Runnable decorated;

    private DecoratedJob(Runnable task, Runnable decorated) {
        this.task = task;
        this.decorated = decorated;
    }

    /**
     * {@code task} through {@code decorator} (not null: a pool without one never calls this, {@link Admission}), on
     * the calling thread; {@code task} itself when the decorator returned {@code task}. The decorator's exceptions go
     * to the caller: nothing is queued yet.
     */
    static Runnable of(ForageTaskDecorator decorator, Runnable task, String poolName) {
        Runnable decorated = decorator.decorate(task);
        if (decorated == null) {
            throw new NullPointerException("pool " + poolName + ": the task decorator returned null for " + task
                    + "; a ForageTaskDecorator must return a Runnable that runs the task it was given");
        }
        return decorated == task ? task : new DecoratedJob(task, decorated);
    }

    /** The task as submitted: {@code job} itself unless it is a {@code DecoratedJob}. */
    static Runnable undecorated(Runnable job) {
        return job instanceof DecoratedJob ? ((DecoratedJob) job).task : job;
    }

    @Override
    public void run() {
        decorated.run();
    }

    /** The task as submitted, not the decorator's runnable: that is what the user wrote. */
    @Override
    public Object wrappedTask() {
        return task;
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
