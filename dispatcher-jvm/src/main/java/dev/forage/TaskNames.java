package dev.forage;

/**
 * How Forage names a task in a message: a refusal ({@code RejectedExecutionException}) names the job it refused
 * with {@link #brief}, whichever face refused it (the pool, its blocking executor, the Java executors). A wrapper or
 * an executor of your own that refuses tasks can name them the same way:
 *
 * <pre>{@code
 * if (!accepting) {
 *     throw new RejectedExecutionException("uploads are paused, rejected " + TaskNames.brief(task));
 * }
 * // "uploads are paused, rejected Upload[photo-81.jpg]": an Upload behind a Retrying wrapper is named the same
 * }</pre>
 *
 * <p>A small class of its own because of who calls it: the engine's refusals, which never name the facade (so not
 * a static method of {@link ForagePool}), and every face. Not a static method of {@link TaskWrapper} either: a
 * Java 8 interface has no package-private members, so the look-through that the pool's other diagnostics share
 * (the JDK Flight Recorder events name a job the same way) could not live beside it.
 */
public final class TaskNames {
    /** The most characters of {@link #brief}: a task that prints its whole payload must not make a page. */
    static final int BRIEF_MAX = 100;
    /** Wrappers looked through at most: a wrapper chain is short, a cycle must not hang the caller. */
    private static final int MAX_DEPTH = 16;

    private TaskNames() {
    }

    /**
     * A task as a message names it: the task behind every {@link TaskWrapper} (Forage's own wrappers and yours),
     * by its {@code toString} cut to 100 characters, the last three of them {@code "..."}, or by its class name
     * when {@code toString} throws or when the wrapper holds only the task's {@link Class} (a submitted
     * {@code Callable}'s future names the callable's class). Never throws; {@code "null"} for null.
     *
     * <pre>{@code
     * TaskNames.brief(new Retrying(upload));   // upload.toString(), at most 100 characters
     * }</pre>
     *
     * @param task a {@code Runnable}, {@code Callable} or any object a message names as a task, or null
     * @return at most 100 characters
     */
    public static String brief(Object task) {
        Object user = innermost(task);
        String s;
        try {
            s = user instanceof Class ? ((Class<?>) user).getName() : String.valueOf(user);
        } catch (Throwable t) {
            s = user.getClass().getName(); // a user's toString failed: its class still says what the task was
        }
        return s.length() <= BRIEF_MAX ? s : s.substring(0, BRIEF_MAX - 3) + "...";
    }

    /**
     * The task behind every {@link TaskWrapper} around {@code task}: the innermost object a wrapper names, or
     * {@code task} itself. A wrapper that answers null or throws ends the search at that wrapper.
     */
    static Object innermost(Object task) {
        for (int depth = 0; depth < MAX_DEPTH && task instanceof TaskWrapper; depth++) {
            Object inner;
            try {
                inner = ((TaskWrapper) task).wrappedTask();
            } catch (Throwable t) {
                break; // a user's wrapper failed: name what we have
            }
            if (inner == null) {
                break;
            }
            task = inner;
        }
        return task;
    }
}
