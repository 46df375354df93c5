package dev.forage.context;

import dev.forage.ForageTaskDecorator;
import dev.forage.TaskWrapper;
import java.util.Map;
import org.slf4j.MDC;

/**
 * Carries SLF4J's MDC from the thread that submits a task to the thread that runs it. The MDC is copied when the
 * task is submitted, set around the task's run, and the running thread's own MDC is put back afterwards, even when
 * the task throws. Putting back, rather than clearing, matters when the task runs on a thread that has an MDC of
 * its own: a single-threaded pool runs its jobs on the threads that wait in it, so a task may run on its submitter.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .threads(4)
 *         .taskDecorator(new MdcTaskDecorator())
 *         .build();
 *
 * MDC.put("requestId", "r-17");
 * pool.execute(() -> log.info("on a worker"));   // logged with requestId=r-17
 * }</pre>
 *
 * <p>Needs {@code org.slf4j:slf4j-api} on the class path (an optional dependency of this artifact, so name it in
 * your build) and a binding that keeps an MDC, such as Logback (slf4j-simple and the NOP binding keep none, so
 * there is nothing to carry). Nothing else in this artifact needs SLF4J. Combine it with other decorators through
 * {@link TaskDecorators#compose}.
 *
 * <p>The decorator keeps no state: one instance serves any number of pools and threads.
 */
public final class MdcTaskDecorator implements ForageTaskDecorator {
    /** A decorator that carries the MDC; stateless, so one instance may be shared. */
    public MdcTaskDecorator() {
    }

    /**
     * Copies the calling thread's MDC and returns a runnable that runs {@code task} with that copy as the MDC,
     * then puts back the MDC the running thread had before.
     *
     * @param task the task to run, not null
     * @return a runnable that runs {@code task} once per call, on the calling thread, and lets its exceptions
     *         through
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public Runnable decorate(Runnable task) {
        if (task == null) {
            throw new NullPointerException("MdcTaskDecorator.decorate: task is null; it takes the Runnable to run "
                    + "with the submitter's MDC");
        }
        return new MdcTask(task, MDC.getCopyOfContextMap());
    }

    @Override
    public String toString() {
        return "MdcTaskDecorator";
    }

    /** The task with the MDC of its submission; looked through by diagnostics ({@link TaskWrapper}). */
    private static final class MdcTask implements Runnable, TaskWrapper {
        private final Runnable task;
        /** Null when the submitter had no MDC: the task then runs with none. */
        private final Map<String, String> captured;

        MdcTask(Runnable task, Map<String, String> captured) {
            this.task = task;
            this.captured = captured;
        }

        @Override
        public void run() {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            set(captured);
            try {
                task.run();
            } finally {
                set(previous);
            }
        }

        @Override
        public Object wrappedTask() {
            return task;
        }

        @Override
        public String toString() {
            return task.toString();
        }

        /** setContextMap copies the map, so {@code captured} stays as it was for another run of this wrapper. */
        private static void set(Map<String, String> context) {
            if (context == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(context);
            }
        }
    }
}
