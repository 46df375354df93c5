package guide;

/** The reader's own per-thread setup in docs/lifecycle.md's thread hooks (a tracer, a native library's attach). */
public final class Tracing {
    private static final ThreadLocal<String> ATTACHED = new ThreadLocal<>();

    private Tracing() {
    }

    public static void attach(String threadName) {
        ATTACHED.set(threadName);
    }

    public static void detach() {
        ATTACHED.remove();
    }
}
