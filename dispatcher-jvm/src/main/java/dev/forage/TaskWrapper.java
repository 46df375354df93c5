package dev.forage;

/**
 * A task that runs another one for somebody: a tracing or logging wrapper, a retry loop, an adapter. Diagnostics
 * look through it to the task inside, so that JDK Flight Recorder's {@code dev.forage.LongJob} event names the
 * code that ran long rather than the wrapper ({@code docs/observability.md}, "JFR events"). Forage's own wrappers
 * (join halves, scope jobs, timers, decorated tasks, the executors' and futures' jobs, coroutine resumptions)
 * implement it; implement it on your own wrappers to get the same.
 *
 * <pre>{@code
 * final class Retrying implements Runnable, TaskWrapper {
 *     private final Runnable task;
 *
 *     Retrying(Runnable task) {
 *         this.task = task;
 *     }
 *
 *     public void run() {
 *         for (int attempt = 1; ; attempt++) {
 *             try {
 *                 task.run();
 *                 return;
 *             } catch (RuntimeException e) {
 *                 if (attempt == 3) throw e;
 *             }
 *         }
 *     }
 *
 *     public Object wrappedTask() {
 *         return task;    // a LongJob event of pool.execute(new Retrying(work)) names work's class
 *     }
 * }
 * }</pre>
 *
 * <p>Diagnostics call {@link #wrappedTask()} on a worker thread after the task ran, possibly long after: it must
 * not block or fail, and it should not keep alive what the wrapper dropped on purpose.
 */
public interface TaskWrapper {
    /**
     * The task this one runs: the user's object ({@code Runnable}, {@code Callable}, {@code Supplier}, a lambda,
     * a continuation, possibly itself a {@code TaskWrapper}), or that object's {@link Class} when the wrapper no
     * longer holds the object itself, or null when it knows neither.
     */
    Object wrappedTask();
}
