package dev.forage;

import java.lang.reflect.Method;

/**
 * What a diagnostic calls a job that ran: the user's code behind Forage's wrappers. Looks through every
 * {@link TaskWrapper} to the innermost task; a coroutine's resumption is named by the coroutine's
 * {@code CoroutineName} and the class of its innermost suspended frame that is not library code (the Kotlin face
 * answers that, loaded by name, so that the Java core needs no Kotlin). Called only for the rare job a diagnostic
 * reports, after it ran: the cost here is not on any job's path. A refusal's message names a job in one string,
 * {@link TaskNames#brief}, which looks through the wrappers the same way.
 */
final class TaskName {
    /** The class of the user's code: a task's class (a lambda's generated class), or a coroutine frame's. */
    final String jobClass;
    /** The coroutine's {@code CoroutineName}, or null. */
    final String coroutineName;
    /** The outermost wrapper's class when it is not {@link #jobClass}, else null. */
    final String wrapperClass;

    private TaskName(String jobClass, String coroutineName, String wrapperClass) {
        this.jobClass = jobClass;
        this.coroutineName = coroutineName;
        this.wrapperClass = wrapperClass;
    }

    static TaskName of(Runnable job) {
        job = QueueWaits.untimed(job); // the pool's own timing wrapper is no part of the job's name
        Object task = TaskNames.innermost(job);
        String jobClass = task instanceof Class ? ((Class<?>) task).getName() : task.getClass().getName();
        String coroutineName = null;
        String[] coroutine = Coroutines.describe(task);
        if (coroutine != null) {
            if (coroutine[0] != null) {
                jobClass = coroutine[0];
            }
            coroutineName = coroutine[1];
        }
        String wrapperClass = job.getClass().getName();
        return new TaskName(jobClass, coroutineName, wrapperClass.equals(jobClass) ? null : wrapperClass);
    }

    /**
     * The Kotlin face's describer, {@code dev.forage.coroutines.CoroutineTaskNames.describe(Object)}: for a
     * coroutine's continuation, {innermost user frame's class or null, CoroutineName or null}; null for anything
     * else. Absent (no Kotlin, kotlinx or the Kotlin face on the class path, or a shrinker removed it): nothing
     * is a coroutine.
     */
    private static final class Coroutines {
        private static final Method DESCRIBE = find();

        private static Method find() {
            try {
                Class<?> names = Class.forName("dev.forage.coroutines.CoroutineTaskNames", true,
                        TaskName.class.getClassLoader());
                return names.getMethod("describe", Object.class);
            } catch (Throwable absent) {
                return null;
            }
        }

        static String[] describe(Object task) {
            if (DESCRIBE == null || task instanceof Class) {
                return null;
            }
            try {
                return (String[]) DESCRIBE.invoke(null, task);
            } catch (Throwable t) {
                return null; // a diagnostic never fails the worker
            }
        }
    }
}
