package dev.forage.interop;

import dev.forage.TaskWrapper;

/** Argument checks whose messages name the method and the argument, and the naming of a refused task. */
final class Checks {
    /** The most characters of a task's {@code toString} that a refusal's message quotes. */
    static final int BRIEF_MAX = 100;

    private Checks() {
    }

    /**
     * A task as a refusal's message names it, once: the user's task behind this facade's wrapper (a submitted
     * task names the class of its callable), by its {@code toString} cut to {@link #BRIEF_MAX} characters (a task
     * that prints its whole payload must not make the message a page long), or its class when {@code toString}
     * throws. The pool's own refusals name jobs the same way.
     */
    static String brief(Object task) {
        String s;
        try {
            Object user = task instanceof TaskWrapper ? ((TaskWrapper) task).wrappedTask() : task;
            s = user instanceof Class ? ((Class<?>) user).getName() : String.valueOf(user);
        } catch (Throwable t) {
            s = task.getClass().getName();
        }
        return s.length() <= BRIEF_MAX ? s : s.substring(0, BRIEF_MAX - 3) + "...";
    }

    static void notNull(Object value, String method, String name) {
        if (value == null) {
            throw new NullPointerException(method + ": " + name + " must not be null");
        }
    }
}
