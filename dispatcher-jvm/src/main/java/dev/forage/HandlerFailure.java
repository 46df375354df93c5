package dev.forage;

/**
 * The report of an uncaught-exception handler that threw: the JVM's own words for its threads ("Exception: X thrown
 * from the UncaughtExceptionHandler in thread ..."), preceded by the failure the handler was given, which the JVM's
 * report loses. Neither may vanish, and neither may kill the worker that reports them.
 */
final class HandlerFailure {
    private HandlerFailure() {
    }

    /**
     * Prints both failures. Out of stack, printing fails too, often as an {@link InternalError} around the
     * {@link StackOverflowError} (a lambda the stream links on first use); that is thrown as the overflow it is, for
     * a shallower frame to report from ({@link Registry#handleUncaught}).
     */
    static void report(Thread thread, Throwable error, Throwable handlerFailure) {
        String name = thread.getName();
        try {
            synchronized (System.err) {
                System.err.print("Exception in thread \"" + name + "\" ");
                error.printStackTrace();
                System.err.println("Exception: " + handlerFailure.getClass().getName()
                        + " thrown from the UncaughtExceptionHandler in thread \"" + name + "\"");
                handlerFailure.printStackTrace();
            }
        } catch (InternalError e) {
            if (e.getCause() instanceof StackOverflowError) {
                throw (StackOverflowError) e.getCause();
            }
            throw e;
        }
    }
}
